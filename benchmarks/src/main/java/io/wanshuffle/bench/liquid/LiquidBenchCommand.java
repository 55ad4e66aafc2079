package io.wanshuffle.bench.liquid;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.workload.FacebookTrace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench liquid}: the liquid-schedule quality report (docs/benchmarks/liquid.md): the
 * Swiss-T1 K-ring comparison of DSatur against the liquid search ({@link KRingComparison}) and,
 * unless {@code --trace none}, {@code liquid} against rack-blind {@code auto} on two-cluster
 * topologies with oversubscribed rack uplinks ({@link FacebookRacks}).
 *
 * <p>Exit status 0 on success, 2 with one stderr line for a bad option.
 */
@Command(
    name = "liquid",
    mixinStandardHelpOptions = true,
    header = "Liquid schedules: Swiss-T1 K-ring, two-site Facebook racks.",
    description =
        "Liquid schedules report: DSatur vs liquid search on the Swiss-T1 K-ring,"
            + " liquid vs rack-blind auto on two-cluster Facebook-trace shuffles.",
    sortOptions = false)
public final class LiquidBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--kring-samples",
      paramLabel = "N",
      defaultValue = "363",
      description = "Sub-topologies of the K-ring to compare (default ${DEFAULT-VALUE}).")
  int samples;

  @Option(
      names = "--time-limit",
      paramLabel = "SECONDS",
      defaultValue = "2",
      converter = DurationConverters.PositiveSeconds.class,
      description =
          "Liquid search time limit per sub-topology: seconds, or a duration such as 500ms"
              + " (default ${DEFAULT-VALUE}).")
  double timeLimit;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "Random seed of the sub-topology sample (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Coflow-Benchmark trace for the two-cluster comparison (default: the repository's "
              + FacebookTrace.FOLDER
              + "/"
              + FacebookTrace.FILE
              + "); 'none' skips it.")
  String trace;

  @Option(
      names = "--backbone-nics",
      paramLabel = "N",
      defaultValue = "20",
      description = "Each cluster's side of the backbone, in NICs (default ${DEFAULT-VALUE}).")
  int backboneNics;

  @Option(
      names = "--beta",
      paramLabel = "SECONDS",
      defaultValue = "0.1",
      converter = DurationConverters.Seconds.class,
      description =
          "Setup delay per step: seconds, or a duration such as 100ms (default"
              + " ${DEFAULT-VALUE}).")
  double beta;

  @Option(
      names = "--blind",
      paramLabel = "NAME",
      description =
          "Rack-blind algorithm to compare with (default: auto if registered, else" + " oggp).")
  String blind;

  @Option(
      names = "--max-pairs",
      paramLabel = "N",
      defaultValue = "2500",
      description = "Skip coflows with more sender x receiver pairs (default ${DEFAULT-VALUE}).")
  int maxPairs;

  @Option(
      names = {"--report", "--out"},
      paramLabel = "FILE.md",
      defaultValue = "run/bench/liquid.md",
      description =
          "Report file (Markdown, overwritten; default ${DEFAULT-VALUE}; the published report:"
              + " --report docs/benchmarks/liquid.md).")
  Path out;

  /**
   * @return 0 on success, 2 on a bad option
   * @throws IOException if the report cannot be written
   */
  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    if (samples < 1) {
      err.println("liquid: option --kring-samples: must be >= 1, got " + samples);
      return 2;
    }
    if (backboneNics < 1 || maxPairs < 1) {
      err.println("liquid: options --backbone-nics and --max-pairs must be >= 1");
      return 2;
    }
    String blindName =
        blind != null ? blind : Algorithms.names().contains("auto") ? "auto" : "oggp";
    if (!Algorithms.names().contains(blindName)) {
      err.println(
          "liquid: option --blind: unknown algorithm '"
              + blindName
              + "'; known: "
              + String.join(", ", Algorithms.names()));
      return 2;
    }
    Path traceFile;
    try {
      traceFile =
          trace == null
              ? FacebookTrace.require()
              : trace.equals("none") ? null : Path.of(trace).toAbsolutePath().normalize();
    } catch (NoSuchFileException e) {
      err.println("liquid: option --trace: " + e.getMessage());
      return 2;
    }
    if (traceFile != null && !Files.isRegularFile(traceFile)) {
      err.println("liquid: option --trace: no such file " + trace);
      return 2;
    }
    StringBuilder md = new StringBuilder();
    md.append("# Liquid schedules: benchmark report\n\n");
    md.append("Produced by `")
        .append(commandLine())
        .append("` (")
        .append(machine())
        .append("). Regenerate with the same command; the sample is seeded.\n\n");
    List<KRingComparison.Row> rows =
        KRingComparison.run(samples, seed, Duration.ofNanos((long) (timeLimit * 1e9)));
    md.append(KRingReport.markdown(rows, timeLimit));
    if (traceFile != null) {
      int[] skipped = new int[1];
      Path work = Files.createTempDirectory("wan-shuffle-liquid-bench");
      for (FacebookRacks.Layout layout : FacebookRacks.Layout.values()) {
        skipped[0] = 0;
        List<FacebookRacks.Row> fb =
            FacebookRacks.run(
                traceFile,
                layout,
                backboneNics,
                beta,
                blindName,
                maxPairs,
                work.resolve(layout.name()),
                skipped);
        md.append(
            FacebookReport.markdown(
                fb, layout, traceFile, backboneNics, beta, blindName, maxPairs, skipped[0]));
      }
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, md, StandardCharsets.UTF_8);
    spec.commandLine().getOut().println("wrote " + out);
    return 0;
  }

  private String commandLine() {
    return String.format(
        Locale.ROOT,
        "./wan-shuffle bench liquid --kring-samples %d --time-limit %s"
            + " --seed %d%s --backbone-nics %d --beta %s%s --max-pairs %d",
        samples,
        timeLimit,
        seed,
        trace == null ? "" : " --trace " + trace,
        backboneNics,
        beta,
        blind == null ? "" : " --blind " + blind,
        maxPairs);
  }

  static String machine() {
    return Runtime.getRuntime().availableProcessors()
        + " cores, Java "
        + System.getProperty("java.version")
        + ", "
        + System.getProperty("os.arch");
  }
}
