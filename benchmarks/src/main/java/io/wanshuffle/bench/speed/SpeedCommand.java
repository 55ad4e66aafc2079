package io.wanshuffle.bench.speed;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench speed}: the scheduler speed benchmark. For every algorithm and size n (ascending):
 * first a cold probe in a child JVM ({@link SpeedProbe}, heap capped by {@code --heap}, killed at
 * {@code --time-limit}); pairs whose probe does not finish, and larger n of that algorithm, are
 * reported as such and left out of JMH. Then JMH ({@link SchedulerSpeedBenchmark}, average time,
 * one thread, the GC profiler for allocation) on the rest, and the Markdown report.
 */
@Command(
    name = "speed",
    mixinStandardHelpOptions = true,
    header = "JMH time and memory of the step schedulers on dense matrices.",
    sortOptions = false,
    description =
        "JMH speed and memory of the step schedulers on dense n x n matrices (k = n/10);"
            + " writes run/bench/scheduler-speed.md unless --report names a file.")
public final class SpeedCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--sizes",
      split = ",",
      paramLabel = "N",
      defaultValue = "20,100,500,1000",
      description = "Matrix sizes n (default ${DEFAULT-VALUE}).")
  List<Integer> sizes;

  @Option(
      names = "--algorithms",
      split = ",",
      paramLabel = "NAME",
      description =
          "Algorithms (default: auto, ggp, oggp and every other registered one except" + " exact).")
  List<String> algorithms;

  @Option(
      names = "--time-limit",
      paramLabel = "SECONDS",
      defaultValue = "60",
      converter = DurationConverters.PositiveSeconds.class,
      description =
          "Cold probe time limit per (algorithm, n): seconds, or a duration such as 90s or 2min"
              + " (default ${DEFAULT-VALUE}).")
  double timeLimit;

  @Option(
      names = "--heap",
      paramLabel = "SIZE",
      defaultValue = "1g",
      description = "-Xmx of the probe and the JMH forks (default ${DEFAULT-VALUE}).")
  String heap;

  @Option(
      names = "--forks",
      paramLabel = "N",
      defaultValue = "1",
      description = "JMH forks (default ${DEFAULT-VALUE}).")
  int forks;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "2",
      description = "JMH warm-up iterations (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--iterations",
      paramLabel = "N",
      defaultValue = "5",
      description = "JMH measurement iterations (default ${DEFAULT-VALUE}).")
  int iterations;

  @Option(
      names = "--iteration-time",
      paramLabel = "SECONDS",
      defaultValue = "1",
      converter = DurationConverters.WholeSeconds.class,
      description =
          "Minimum length of a JMH iteration, whole seconds (a slower call makes a longer"
              + " iteration; default ${DEFAULT-VALUE}).")
  int iterationTime;

  @Option(
      names = {"--report", "--output"},
      paramLabel = "FILE.md",
      defaultValue = "run/bench/scheduler-speed.md",
      description =
          "Report file (default ${DEFAULT-VALUE}; the published report: --report"
              + " docs/benchmarks/scheduler-speed.md).")
  Path output;

  /**
   * Runs the probes, JMH and writes the report.
   *
   * @return 0 when the report was written
   * @throws CommandLine.ParameterException on bad options (unknown algorithm, n &lt; 1, ...)
   * @throws Exception when a probe cannot be started or JMH fails
   */
  @Override
  public Integer call() throws Exception {
    List<String> algs = checkOptions();
    PrintWriter out = spec.commandLine().getOut();
    ProbeRunner probes = new ProbeRunner(heap, timeLimit);
    String loadStart = loadAverage();
    Map<String, ProbeResult> probed = new LinkedHashMap<>();
    Map<String, List<Integer>> toMeasure = new LinkedHashMap<>();
    List<Integer> ns = sizes.stream().distinct().sorted().toList();
    for (String a : algs) {
      String stop = null;
      List<Integer> ok = new ArrayList<>();
      for (int n : ns) {
        ProbeResult r;
        if (stop != null) {
          r = ProbeResult.skipped(stop);
        } else {
          out.printf(Locale.ROOT, "probe %s n=%d ...%n", a, n);
          out.flush();
          r = probes.run(a, n, SchedulerSpeedBenchmark.SEED);
          out.printf(Locale.ROOT, "probe %s n=%d: %s%n", a, n, r);
          out.flush();
        }
        probed.put(a + "/" + n, r);
        if (r.finished()) {
          ok.add(n);
        } else if (stop == null) {
          stop = "n = " + n + " did not finish (" + r.detail() + ")";
        }
      }
      toMeasure.put(a, ok);
    }
    Map<String, double[]> jmh = new LinkedHashMap<>();
    for (var e : toMeasure.entrySet()) {
      if (e.getValue().isEmpty()) {
        continue;
      }
      ChainedOptionsBuilder opts =
          new OptionsBuilder()
              .include(SchedulerSpeedBenchmark.class.getName() + ".schedule")
              .param("algorithm", e.getKey())
              .param("n", e.getValue().stream().map(String::valueOf).toArray(String[]::new))
              .forks(forks)
              .warmupIterations(warmup)
              .measurementIterations(iterations)
              .warmupTime(TimeValue.seconds(iterationTime))
              .measurementTime(TimeValue.seconds(iterationTime))
              .timeout(TimeValue.seconds(Math.max(600, (long) (timeLimit * 4))))
              .threads(1)
              .timeUnit(TimeUnit.MILLISECONDS)
              .jvmArgsAppend("-Xmx" + heap)
              .addProfiler(GCProfiler.class)
              .shouldFailOnError(true);
      Collection<RunResult> results = new Runner(opts.build()).run();
      for (RunResult rr : results) {
        int n = Integer.parseInt(rr.getParams().getParam("n"));
        Result<?> primary = rr.getPrimaryResult();
        double alloc = Double.NaN;
        for (var s : rr.getSecondaryResults().entrySet()) {
          if (s.getKey().endsWith("gc.alloc.rate.norm")) {
            alloc = s.getValue().getScore();
          }
        }
        jmh.put(
            e.getKey() + "/" + n,
            new double[] {
              primary.getScore(), primary.getScoreError(), primary.getStatistics().getMin(), alloc
            });
      }
    }
    List<SpeedRow> rows = new ArrayList<>();
    for (int n : ns) {
      for (String a : algs) {
        double[] j =
            jmh.getOrDefault(
                a + "/" + n, new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
        rows.add(
            new SpeedRow(
                a,
                n,
                DenseInstances.k(n),
                probed.get(a + "/" + n),
                j[0],
                Double.isFinite(j[1]) ? j[1] : Double.NaN,
                j[2],
                j[3]));
      }
    }
    String settings =
        String.format(
            Locale.ROOT,
            "JMH %d fork(s), %d warm-up + %d measured iterations of at least %d s, average time,"
                + " 1 thread, -Xmx%s, gc profiler; cold probe in a fresh JVM with -Xmx%s and a %s s"
                + " time limit",
            forks,
            warmup,
            iterations,
            iterationTime,
            heap,
            heap,
            SpeedReport.fmt(timeLimit));
    String when =
        ZonedDateTime.now(ZoneOffset.UTC)
                .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                .substring(0, 16)
            + " UTC";
    String report =
        SpeedReport.render(
            rows,
            commandLine(algs),
            settings,
            MachineInfo.describe(),
            when,
            loadStart + " / " + loadAverage());
    Path parent = output.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(output, report, StandardCharsets.UTF_8);
    out.println("wrote " + output);
    out.flush();
    return 0;
  }

  private List<String> checkOptions() {
    CommandLine cl = spec.commandLine();
    for (int n : sizes) {
      if (n < 1) {
        throw new CommandLine.ParameterException(cl, "option --sizes: n must be >= 1, got " + n);
      }
    }
    if (forks < 0 || warmup < 0 || iterations < 1) {
      throw new CommandLine.ParameterException(
          cl, "options --forks/--warmup >= 0," + " --iterations >= 1 required");
    }
    if (!heap.matches("\\d+[kKmMgG]?")) {
      throw new CommandLine.ParameterException(
          cl, "option --heap: '" + heap + "' is not a JVM heap size like 1g or 512m");
    }
    List<String> algs = algorithms == null ? defaultAlgorithms() : algorithms;
    if (algs.isEmpty()) {
      throw new CommandLine.ParameterException(
          cl, "no algorithm to benchmark: the registry holds none");
    }
    for (String a : algs) {
      try {
        Algorithms.byName(a);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "option --algorithms: " + e.getMessage());
      }
    }
    return algs;
  }

  /**
   * @return auto, ggp, oggp (those registered) then the other registered names except exact
   */
  static List<String> defaultAlgorithms() {
    Set<String> names = new LinkedHashSet<>();
    List<String> registered = Algorithms.names();
    for (String first : List.of("auto", "ggp", "oggp")) {
      if (registered.contains(first)) {
        names.add(first);
      }
    }
    for (String r : registered) {
      if (!r.equals("exact")) {
        names.add(r);
      }
    }
    return List.copyOf(names);
  }

  private String commandLine(List<String> algs) {
    return String.format(
        Locale.ROOT,
        "./wan-shuffle bench speed --sizes %s --algorithms %s"
            + " --time-limit %s --heap %s --forks %d --warmup %d --iterations %d"
            + " --iteration-time %d --report %s",
        String.join(",", sizes.stream().map(String::valueOf).toList()),
        String.join(",", algs),
        SpeedReport.fmt(timeLimit),
        heap,
        forks,
        warmup,
        iterations,
        iterationTime,
        output);
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "unknown";
    }
  }
}
