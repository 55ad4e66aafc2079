package io.wanshuffle.it.demo;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code wan-shuffle demo}: the TPC-H join on a rack-level testbed (by default 2 sites x 2 racks x
 * 2 hosts, rack uplinks at the NIC rate: 2:1 oversubscribed), with Spark's default shuffle,
 * rack-blind wan-shuffle and topology-aware wan-shuffle, then the Facebook-trace replay, each
 * variant {@code --runs} times in turns ({@link DemoSection}); checks the answers are identical,
 * prints the side-by-side table per variant (medians and ranges, the verdict against the default,
 * the busiest links' utilisation), writes the HTML report.
 */
@Command(
    name = "demo",
    modelTransformer = DemoCommand.Help.class,
    mixinStandardHelpOptions = true,
    header = "The demo: TPC-H join and trace replay, default vs wan-shuffle.",
    description = {
      "Runs the TPC-H join (lineitem JOIN orders, grouped by order priority and ship mode) with "
          + "data generated on cluster A and the reduce side on cluster B, with Spark's default shuffle, with"
          + " rack-blind wan-shuffle (k and δ only) and with topology-aware wan-shuffle (the testbed's topology"
          + " file); then replays a large shuffle of the Facebook coflow trace the same way. Each variant"
          + " runs --runs times, the variants taking turns. Checks that every answer is identical, prints"
          + " per variant the median and range of each figure, calls a variant faster or slower than the"
          + " default only where the medians differ by more than the runs' spread, and writes an HTML"
          + " report with each run's figures and each variant's median run's busiest links.",
      "The testbed: 2 sites x 2 racks x 2 hosts (4 per site), rack uplinks and downlinks at the NIC"
          + " rate (2:1 oversubscribed), unless --sites, --racks, --hosts or --rack-uplink say otherwise.",
      "The testbed adds a WAN round trip of "
          + DemoCommand.DEFAULT_RTT_MS
          + " ms on the backbone (--rtt 0:"
          + " none). Needs root + iproute2 for the shaped testbed and python3 for the WAN's delay line; --loopback"
          + " runs unshaped on loopback addresses."
    })
public final class DemoCommand implements Callable<Integer> {

  /**
   * Gives the testbed options' help this command's defaults ({@link io.wanshuffle.it.TestbedHelp}).
   */
  public static final class Help implements picocli.CommandLine.IModelTransformer {
    @Override
    public picocli.CommandLine.Model.CommandSpec transform(
        picocli.CommandLine.Model.CommandSpec spec) {
      return io.wanshuffle.it.TestbedHelp.withDefaults(spec, DEFAULT_RTT_MS, SHAPE);
    }
  }

  /**
   * WAN round-trip time of the demo's testbed when {@code --rtt} is not given, ms: the two clusters
   * are sites joined by a WAN, and 40 ms is the end-to-end benchmark's WAN case. {@code --rtt 0}
   * runs without added latency.
   */
  static final int DEFAULT_RTT_MS = 40;

  @Mixin DemoOptions opt;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec commandSpec;

  /**
   * Runs the demo after checking the options that only the run would find wrong (a negative scale
   * would start the testbed and fail in the TPC-H generator).
   *
   * @return 0 when every answer was identical, 1 otherwise
   * @throws picocli.CommandLine.ParameterException for a scale that is not positive or a negative
   *     trace size
   */
  @Override
  public Integer call() throws Exception {
    if (!(opt.scale > 0) || Double.isInfinite(opt.scale)) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--scale: the TPC-H scale factor must be a positive number, got " + opt.scale);
    }
    if (opt.runs < MIN_RUNS) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--runs: each variant runs at least "
              + MIN_RUNS
              + " times (a verdict needs the runs' spread), got "
              + opt.runs);
    }
    if (opt.traceMb < 0) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--trace-mb: must be 0 (no trace replay) or more, got " + opt.traceMb);
    }
    if (opt.sparkVersion != null) {
      try {
        io.wanshuffle.it.spark.SparkLines.resolve(opt.sparkVersion);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.ParameterException(commandSpec.commandLine(), e.getMessage());
      }
    }
    opt.net.shapeDefaults(SHAPE);
    io.wanshuffle.it.net.TestbedSpec spec =
        io.wanshuffle.it.TestbedOptions.checked(
            commandSpec.commandLine(),
            () ->
                opt.net.startableSpec(
                    DEFAULT_RTT_MS, "the answers are still checked", System.out::println));
    return new Demo(opt).run(spec);
  }

  /**
   * The demo's shape where the options say nothing: 2 racks of 2 hosts per site (4 hosts per site),
   * each rack's uplink and downlink at the NIC rate. Two hosts behind an uplink of one NIC's rate
   * is 2:1 oversubscription, the low end of what sites run (2:1 to 5:1), chosen so that a
   * rack-blind step (k = 2 flows of the NIC rate from one site) can put both its flows on one
   * uplink while the 8 worker hosts (one executor each), the Master and the driver stay within what
   * 2 cores carry; the backbone (200 Mbit/s) equals a site's two uplinks together, so neither hides
   * the other.
   */
  static final io.wanshuffle.it.TestbedOptions.ShapeDefaults SHAPE =
      new io.wanshuffle.it.TestbedOptions.ShapeDefaults(2, 4, true);

  /** Fewest runs per variant: one run gives no spread to judge a difference against. */
  static final int MIN_RUNS = 2;

  /** Options of the demo. */
  static final class DemoOptions {
    @Mixin io.wanshuffle.it.TestbedOptions net;

    @Option(
        names = "--scale",
        paramLabel = "FACTOR",
        defaultValue = "0.1",
        description =
            "TPC-H scale factor (default ${DEFAULT-VALUE}: "
                + "lineitem of 600,572 rows, about 110 MB shuffled)")
    double scale;

    @Option(
        names = "--runs",
        paramLabel = "N",
        defaultValue = "2",
        description =
            "runs of each variant per input, the variants taking turns; the table gives each"
                + " figure's median and range, and calls a variant faster or slower than the"
                + " default only beyond the runs' spread (at least 2; default ${DEFAULT-VALUE})")
    int runs;

    @Option(
        names = "--algorithm",
        paramLabel = "NAME",
        defaultValue = "auto",
        description =
            "wan-shuffle algorithm of the rack-blind and the topology-aware runs (default"
                + " ${DEFAULT-VALUE})")
    String algorithm;

    @Option(
        names = "--trace-mb",
        paramLabel = "MB",
        defaultValue = "120",
        description = "bytes of the trace replay, MB (0 = skip it; default ${DEFAULT-VALUE})")
    int traceMb;

    @Option(
        names = "--trace-dir",
        paramLabel = "FILE_OR_DIR",
        description =
            "Facebook coflow trace file or folder (default: the repository's"
                + " data/coflow-benchmark/, or -Dwanshuffle.coflowTrace)")
    Path traceDir;

    @Option(
        names = "--coflow",
        paramLabel = "ID",
        description =
            "replay this coflow of the trace (its id, the first"
                + " field of its line) instead of the largest one with every testbed host taking part")
    Long coflow;

    @Option(
        names = "--out",
        paramLabel = "DIR",
        defaultValue = "run/demo",
        description = "folder for logs, results and report.html (default ${DEFAULT-VALUE})")
    Path out;

    @Option(
        names = "--executor-memory",
        paramLabel = "SIZE",
        defaultValue = "640m",
        description = "executor memory (default ${DEFAULT-VALUE})")
    String executorMemory;

    @Option(
        names = "--shuffle-compress",
        description =
            "compress shuffle blocks (off by default so the bytes on the backbone are the rows' bytes)")
    boolean compress;

    @Option(
        names = "--default-only",
        description = "run only Spark's default shuffle (when the plugin is not built)")
    boolean defaultOnly;

    @Option(
        names = "--spark-version",
        paramLabel = "VERSION",
        description =
            "run on this Spark version, MAJOR.MINOR[.PATCH][_SCALA] (e.g. 3.5.7, 4.2.0): a Spark"
                + " home of that version from Maven jars and the plugin jar of its line, both built on"
                + " first use. Supported lines: 3.5 (Scala 2.12, 2.13), 4.0, 4.1, 4.2 (Scala 2.13)."
                + " Default: Spark 4.1.3 as the command runs")
    String sparkVersion;

    @Option(
        names = "--conf",
        paramLabel = "KEY=VALUE",
        description =
            "extra Spark configuration for the wan-shuffle"
                + " runs (repeatable), e.g. spark.wanshuffle.step.handover=arrival")
    java.util.Map<String, String> extraConf = new java.util.LinkedHashMap<>();
  }
}
