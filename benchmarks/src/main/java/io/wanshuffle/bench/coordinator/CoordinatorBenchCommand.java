package io.wanshuffle.bench.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.cli.units.BytesPerSecond;
import io.wanshuffle.cli.units.DurationConverters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench coordinator}: the plugin's driver-side step coordinator under a simulated stage of
 * many hosts and reduce tasks ({@link BenchDriver}), in-process or through Spark's RPC on loopback.
 * Per configuration it reports grant latency, re-plan time, RPC messages per task, the driver's CPU
 * time and peak heap, and the makespan against the stage's lower bound ({@link BenchResult}), and
 * whether the coordinator's contract held (every demand granted; no link above its capacity at any
 * instant). With {@code --report} and {@code --plot} it also fits how each cost grows with the
 * hosts ({@link Growth}) and draws it ({@link GrowthChart}). A list option runs one configuration
 * per value: the i-th configuration takes the i-th value of every list (an option given one value
 * applies to all).
 */
@Command(
    name = "coordinator",
    mixinStandardHelpOptions = true,
    header = "Load of the plugin's step coordinator: many hosts and tasks.",
    sortOptions = false,
    description =
        "Drives the plugin's step coordinator with a simulated stage (reduce tasks that register,"
            + " long-poll for grants and report their flows, which end after bytes / rate with"
            + " jitter), in-process or through Spark's RPC on loopback, and reports per"
            + " configuration grant latency, re-plan time, RPC messages per task, driver CPU and"
            + " heap, and makespan / lower bound. List values run one configuration each (the i-th"
            + " value of every list option).")
public final class CoordinatorBenchCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--mode",
      split = ",",
      defaultValue = "inprocess",
      paramLabel = "inprocess|rpc",
      description =
          "inprocess: the coordinator's API; rpc: Spark's RPC (default ${DEFAULT-VALUE}).")
  List<String> modes;

  @Option(
      names = "--hosts",
      split = ",",
      defaultValue = "10",
      paramLabel = "N",
      description = "Hosts per site (default ${DEFAULT-VALUE}).")
  List<Integer> hosts;

  @Option(
      names = "--sites",
      split = ",",
      defaultValue = "2",
      paramLabel = "S",
      description =
          "Sites, each sending to and receiving from the others (default ${DEFAULT-VALUE}).")
  List<Integer> sites;

  @Option(
      names = "--racks",
      split = ",",
      defaultValue = "1",
      paramLabel = "R",
      description =
          "Racks per site; above 1 a topology file with rack links of ceil(2k / R) flows"
              + " (default ${DEFAULT-VALUE}).")
  List<Integer> racks;

  @Option(
      names = "--tasks",
      split = ",",
      defaultValue = "500",
      paramLabel = "T",
      description = "Reduce tasks of the stage (default ${DEFAULT-VALUE}).")
  List<Integer> tasks;

  @Option(
      names = "--running",
      split = ",",
      defaultValue = "20",
      paramLabel = "R",
      description = "Tasks running at once, spread over every host (default ${DEFAULT-VALUE}).")
  List<Integer> running;

  @Option(
      names = "--blocks",
      split = ",",
      defaultValue = "3",
      paramLabel = "B",
      description = "Cross-site source hosts per task (default ${DEFAULT-VALUE}).")
  List<Integer> blocks;

  @Option(
      names = "--skew",
      split = ",",
      defaultValue = "0",
      paramLabel = "Z",
      description =
          "Zipf exponent of the blocks' bytes; 0: equal blocks (default ${DEFAULT-VALUE}).")
  List<Double> skew;

  @Option(
      names = "--k",
      split = ",",
      defaultValue = "1",
      paramLabel = "K",
      description = "Flows per side of the backbone (default ${DEFAULT-VALUE}).")
  List<Integer> ks;

  @Option(
      names = "--algorithm",
      split = ",",
      defaultValue = "auto",
      paramLabel = "NAME",
      description = "The coordinator's scheduler (default ${DEFAULT-VALUE}).")
  List<String> algorithms;

  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "text|json",
      description = "text, or json: one object per configuration (default ${DEFAULT-VALUE}).")
  String format;

  @Option(
      names = "--delta",
      paramLabel = "D",
      defaultValue = "1",
      description = "Flows per NIC and direction, δ (default ${DEFAULT-VALUE}).")
  int delta;

  @Option(
      names = "--base-speed",
      defaultValue = "125000000",
      paramLabel = "BYTES_PER_S",
      converter = BytesPerSecond.class,
      description = "Bytes/s of one flow, a number (default ${DEFAULT-VALUE}).")
  double baseSpeed;

  @Option(
      names = "--block-ms",
      defaultValue = "200",
      paramLabel = "MS",
      converter = DurationConverters.PositiveMillis.class,
      description =
          "Mean time of one block at the base speed: milliseconds, or a duration such as 0.5s"
              + " (default ${DEFAULT-VALUE}).")
  double blockMs;

  @Option(
      names = "--jitter",
      paramLabel = "J",
      defaultValue = "0.1",
      description = "A flow takes bytes / rate x (1 + jitter x U[0,1)) (default ${DEFAULT-VALUE}).")
  double jitter;

  @Option(
      names = "--start-delay",
      defaultValue = "50",
      paramLabel = "MS",
      converter = DurationConverters.WholeMillis.class,
      description =
          "From a task's launch to its registration: whole milliseconds, or a duration such as"
              + " 1s (default ${DEFAULT-VALUE}).")
  int startDelayMs;

  @Option(
      names = "--end-delay",
      defaultValue = "20",
      paramLabel = "MS",
      converter = DurationConverters.WholeMillis.class,
      description =
          "From a task's last byte to its end: whole milliseconds, or a duration such as 1s"
              + " (default ${DEFAULT-VALUE}).")
  int endDelayMs;

  @Option(
      names = "--clients",
      paramLabel = "N",
      defaultValue = "2",
      description = "Client JVMs in rpc mode (default ${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "20261127",
      description = "Random seed of the stage (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--warmup-tasks",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Reduce tasks of a warm-up stage run before each measured one in the same driver and"
              + " client JVMs (the same hosts, running tasks and blocks, another seed), not"
              + " measured: a driver that ran a stage before has compiled the coordinator's code"
              + " (default ${DEFAULT-VALUE}: the measured stage runs on fresh JVMs).")
  int warmupTasks;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "A spark.wanshuffle.* key for the coordinator (repeatable).")
  Map<String, String> conf = new LinkedHashMap<>();

  @Option(
      names = "--out",
      defaultValue = "run/bench-coordinator",
      paramLabel = "DIR",
      description = "Folder of the runs' files (default ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--timeout",
      defaultValue = "3600",
      paramLabel = "SECONDS",
      converter = DurationConverters.WholeSeconds.class,
      description =
          "Longest run of one configuration: whole seconds, or a duration such as 90min"
              + " (default ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(
      names = "--report",
      paramLabel = "FILE.md",
      description =
          "Also write the table into FILE.md, between its generated-table markers (the rest of"
              + " the file is kept).")
  Path report;

  @Option(
      names = "--plot",
      paramLabel = "FILE.png",
      description =
          "Also draw each cost figure against the hosts with its power-law fit y = a H^b, log-log,"
              + " into FILE.png (linked from the --report table).")
  Path plot;

  @Override
  public Integer call() throws Exception {
    List<BenchConfig> configs = configs();
    if (!format.equals("text") && !format.equals("json")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "option --format: text or json, got '" + format + "'");
    }
    PrintWriter pw = spec.commandLine().getOut();
    ObjectMapper json = new ObjectMapper();
    String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
    List<BenchResult> results = new ArrayList<>();
    int i = 0;
    for (BenchConfig c : configs) {
      Path dir = out.resolve(String.format(Locale.ROOT, "%02d", i++));
      BenchResult r = new BenchDriver(dir, timeoutSeconds).run(c);
      results.add(r);
      if (format.equals("json")) {
        pw.println(json.writeValueAsString(r));
      } else {
        pw.println(CoordinatorReport.text(c, r));
      }
      pw.flush();
    }
    if (plot != null) {
      GrowthChart.write(plot, results);
      if (format.equals("text")) {
        pw.println("wrote " + plot);
      }
    }
    if (report != null) {
      CoordinatorReport.write(report, results, commandLine(), when, plot);
      if (format.equals("text")) {
        pw.println("wrote " + report);
      }
    }
    return results.stream().allMatch(BenchResult::contractHeld) ? 0 : 1;
  }

  /**
   * @return one configuration per index of the list options
   */
  List<BenchConfig> configs() {
    List<List<?>> lists =
        List.of(modes, hosts, sites, racks, tasks, running, blocks, skew, ks, algorithms);
    int n = 1;
    for (List<?> l : lists) {
      if (l.size() > 1) {
        if (n > 1 && l.size() != n) {
          throw new CommandLine.ParameterException(
              spec.commandLine(),
              "list options must have one value or the same number of values, got "
                  + n
                  + " and "
                  + l.size());
        }
        n = l.size();
      }
    }
    List<BenchConfig> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int at = i;
      String mode = pick(modes, at).trim().toLowerCase(Locale.ROOT);
      if (!mode.equals(BenchConfig.INPROCESS) && !mode.equals(BenchConfig.RPC)) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "option --mode: inprocess or rpc, got '" + mode + "'");
      }
      BenchConfig c =
          new BenchConfig(
              mode,
              pick(hosts, at),
              pick(sites, at),
              pick(racks, at),
              pick(tasks, at),
              pick(running, at),
              pick(blocks, at),
              pick(skew, at),
              pick(ks, at),
              delta,
              pick(algorithms, at).trim().toLowerCase(Locale.ROOT),
              Math.round(baseSpeed),
              blockMs,
              jitter,
              startDelayMs,
              endDelayMs,
              clients,
              seed,
              warmupTasks,
              conf);
      if (warmupTasks < 0) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--warmup-tasks must be at least 0, got " + warmupTasks);
      }
      try {
        new StageSpec(c);
        if (warmupTasks > 0) {
          new StageSpec(c.warmup());
        }
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      if (c.k() < 1 || c.delta() < 1 || c.clients() < 1 || c.jitter() < 0) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "--k, --delta and --clients must be at least 1, --jitter not negative");
      }
      out.add(c);
    }
    return out;
  }

  private static <T> T pick(List<T> l, int i) {
    return l.size() == 1 ? l.get(0) : l.get(i);
  }

  private String commandLine() {
    StringBuilder b = new StringBuilder("./wan-shuffle bench coordinator");
    b.append(" --mode ").append(String.join(",", modes));
    b.append(" --hosts ").append(join(hosts));
    b.append(" --sites ").append(join(sites));
    b.append(" --racks ").append(join(racks));
    b.append(" --tasks ").append(join(tasks));
    b.append(" --running ").append(join(running));
    b.append(" --blocks ").append(join(blocks));
    b.append(" --skew ").append(join(skew));
    b.append(" --k ").append(join(ks));
    b.append(" --algorithm ").append(String.join(",", algorithms));
    b.append(" --delta ").append(delta);
    b.append(" --block-ms ").append(CoordinatorReport.num(blockMs));
    b.append(" --jitter ").append(CoordinatorReport.num(jitter));
    b.append(" --start-delay ").append(startDelayMs);
    b.append(" --end-delay ").append(endDelayMs);
    if (modes.contains(BenchConfig.RPC)) {
      b.append(" --clients ").append(clients);
    }
    b.append(" --seed ").append(seed);
    for (Map.Entry<String, String> e : conf.entrySet()) {
      b.append(" --conf ").append(e.getKey()).append('=').append(e.getValue());
    }
    if (report != null) {
      b.append(" --report ").append(report);
    }
    if (plot != null) {
      b.append(" --plot ").append(plot);
    }
    return b.toString();
  }

  private static String join(List<? extends Number> v) {
    StringBuilder b = new StringBuilder();
    for (Number x : v) {
      b.append(b.length() == 0 ? "" : ",")
          .append(x instanceof Double d ? CoordinatorReport.num(d) : x.toString());
    }
    return b.toString();
  }
}
