package io.wanshuffle.bench.replan;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench replan}: how long one re-plan takes at a step boundary of the plugin's coordinator,
 * for residual matrices of n x n hosts ({@link ResidualInstances}: dense, sparse, skewed) and each
 * algorithm, compared with the duration of the step the plan grants. Runs in this JVM on one thread
 * ({@link ReplanTiming}); writes the report to {@code --report} (default {@code
 * run/bench/replan.md}; the published one is {@code docs/benchmarks/replan.md}).
 */
@Command(
    name = "replan",
    mixinStandardHelpOptions = true,
    header = "Time of one re-plan of the plugin's coordinator.",
    sortOptions = false,
    description =
        "Time of one re-plan of the plugin's coordinator on n x n residual matrices"
            + " (dense, sparse, skewed) per algorithm; writes run/bench/replan.md unless --report names a file.")
public final class ReplanCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--sizes",
      split = ",",
      paramLabel = "N",
      defaultValue = "50,100,200,300",
      description = "Hosts per cluster n (default ${DEFAULT-VALUE}).")
  List<Integer> sizes;

  @Option(
      names = "--shapes",
      split = ",",
      paramLabel = "SHAPE",
      defaultValue = "dense,sparse,skewed",
      description = "Residual shapes: dense, sparse, skewed (default ${DEFAULT-VALUE}).")
  List<String> shapes;

  @Option(
      names = "--k",
      split = ",",
      paramLabel = "K",
      defaultValue = "10,50",
      description = "Free flows k (capped by n; default ${DEFAULT-VALUE}).")
  List<Integer> ks;

  @Option(
      names = "--algorithms",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "auto,oggp,greedy",
      description =
          "Algorithms: registered names, or greedy (the plugin's planning fallback,"
              + " GreedyFirstStep); default ${DEFAULT-VALUE}.")
  List<String> algorithms;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "2",
      description = "Untimed runs per pair after the first (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--runs",
      paramLabel = "N",
      defaultValue = "5",
      description = "Timed runs per pair (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(
      names = "--time-limit",
      paramLabel = "SECONDS",
      defaultValue = "30",
      converter = DurationConverters.PositiveSeconds.class,
      description =
          "A first run slower than this is not repeated: seconds, or a duration such as 2min"
              + " (default ${DEFAULT-VALUE}).")
  double timeLimit;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "20261120",
      description = "Random seed of the matrices (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = {"--report", "--output"},
      paramLabel = "FILE.md",
      defaultValue = "run/bench/replan.md",
      description =
          "Report file (default ${DEFAULT-VALUE}; the published report: --report"
              + " docs/benchmarks/replan.md).")
  Path output;

  @Override
  public Integer call() throws Exception {
    List<ResidualInstances.Shape> sh = new ArrayList<>();
    try {
      for (String s : shapes) {
        sh.add(ResidualInstances.Shape.of(s));
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "option --shapes: " + e.getMessage());
    }
    for (int n : sizes) {
      if (n < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "option --sizes: n must be >= 1, got " + n);
      }
    }
    for (int k : ks) {
      if (k < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "option --k: k must be >= 1, got " + k);
      }
    }
    if (runs < 1 || warmup < 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "options --runs >= 1 and --warmup >= 0 are required");
    }
    List<StepScheduler> schedulers = new ArrayList<>();
    for (String a : algorithms) {
      try {
        schedulers.add(
            a.trim().equalsIgnoreCase(GreedyFirstStep.NAME)
                ? new GreedyFirstStep()
                : Algorithms.byName(a));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "option --algorithms: " + e.getMessage());
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT);
    String loadStart = load();
    ReplanTiming timing = new ReplanTiming(warmup, runs, timeLimit);
    List<ReplanRow> rows = new ArrayList<>();
    for (ResidualInstances.Shape shape : sh) {
      for (int n : sizes) {
        TrafficMatrix m = ResidualInstances.matrix(shape, n, seed);
        for (int k : ks) {
          Platform p = ResidualInstances.platform(n, k);
          if (rows.stream()
              .anyMatch(r -> r.shape().equals(shape.label()) && r.n() == n && r.k() == p.k())) {
            continue; // k capped by n gave a platform already measured
          }
          for (StepScheduler s : schedulers) {
            ReplanRow r = timing.measure(shape, n, m, p, s);
            rows.add(r);
            out.printf(
                Locale.ROOT,
                "%s n=%d k=%d %s: %s%n",
                shape.label(),
                n,
                p.k(),
                s.name(),
                r.note().isEmpty()
                    ? String.format(
                        Locale.ROOT, "%.1f ms (cpu %.1f ms)", r.medianWallMs(), r.medianCpuMs())
                    : r.note());
            out.flush();
          }
        }
      }
    }
    String command =
        String.format(
            Locale.ROOT,
            "./wan-shuffle bench replan --sizes %s --shapes %s --k %s --algorithms %s --warmup %d"
                + " --runs %d --time-limit %s --seed %d --report %s",
            join(sizes),
            String.join(",", shapes),
            join(ks),
            String.join(",", algorithms),
            warmup,
            runs,
            ReplanReport.fmt(timeLimit),
            seed,
            output);
    String md = ReplanReport.render(rows, command, when, machine(), loadStart + " / " + load());
    Path parent = output.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(output, md, StandardCharsets.UTF_8);
    out.println("wrote " + output);
    return 0;
  }

  private static String join(List<Integer> v) {
    StringBuilder b = new StringBuilder();
    for (int x : v) {
      b.append(b.length() == 0 ? "" : ",").append(x);
    }
    return b.toString();
  }

  private static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String machine() {
    String cpu = "unknown CPU";
    try {
      for (String l : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          cpu = l.substring(l.indexOf(':') + 1).strip();
          break;
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not Linux
    }
    return cpu
        + ", "
        + Runtime.getRuntime().availableProcessors()
        + " cores visible to the JVM, "
        + System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.version");
  }
}
