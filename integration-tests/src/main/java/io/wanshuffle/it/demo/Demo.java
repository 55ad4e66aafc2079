package io.wanshuffle.it.demo;

import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.it.spark.SparkLines;
import io.wanshuffle.tools.report.HtmlReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The demo's steps (see {@link DemoCommand}). */
final class Demo {
  /** The variant that runs Spark's sort shuffle. */
  static final String DEFAULT = "default";

  /** Busiest links with a row in the table. */
  static final int TABLE_LINKS = 4;

  /** Busiest links in the utilisation chart. */
  static final int CHART_LINKS = 8;

  private final DemoCommand.DemoOptions opt;

  Demo(DemoCommand.DemoOptions opt) {
    this.opt = opt;
  }

  /**
   * Runs the demo on a testbed of {@code spec}.
   *
   * @param spec the testbed ({@link DemoCommand} builds it from the options)
   * @return 0 when every answer was identical, 1 otherwise
   */
  int run(TestbedSpec spec) {
    boolean withPlugin = !opt.defaultOnly;
    if (withPlugin && Comparison.pluginClass() == null) {
      throw new IllegalStateException(
          "the wan-shuffle plugin ("
              + PluginSettings.WAN_SHUFFLE_MANAGER
              + ") is not on the"
              + " class path: build the project (mvn -pl integration-tests -am install -DskipTests) or pass --default-only");
    }
    if (withPlugin
        && !"none".equals(opt.algorithm)
        && !io.wanshuffle.scheduler.alg.Algorithms.names().contains(opt.algorithm)) {
      if (!"auto".equals(opt.algorithm)) {
        throw new IllegalArgumentException(
            "--algorithm "
                + opt.algorithm
                + ": unknown; known: "
                + io.wanshuffle.scheduler.alg.Algorithms.names());
      }
      System.out.println("NOTE: 'auto' is not in this build's scheduler registry; using oggp.");
      opt.algorithm = "oggp";
    }
    List<String> variants = new ArrayList<>(List.of(DEFAULT));
    if (withPlugin) {
      // a value the plugin refuses stops the demo now, not after the first default run
      PluginSettings.check(spec, opt.algorithm, opt.extraConf);
      variants.add(opt.algorithm + PluginSettings.RACK_BLIND);
      variants.add(opt.algorithm);
    }
    TraceInput trace = traceInput(opt, spec);
    Path out = opt.out.toAbsolutePath();
    HtmlReport report = new HtmlReport("wan-shuffle demo");
    boolean identical = true;
    long t0 = System.currentTimeMillis();
    try (Experiment ex = start(spec, out, withPlugin)) {
      TopologyLinks model = TopologyLinks.load(ex.spark().topologyConfig());
      System.out.println("testbed: " + ex.testbed().describe());
      if (!ex.testbed().shaped()) {
        System.out.println(
            "NOTE: the backbone is NOT shaped on the loopback variant: times below are not "
                + "comparable to a WAN; the answers are still checked.");
      }
      report.paragraph("Testbed: " + ex.testbed().describe() + ".");
      DemoSection section = new DemoSection(ex, report, model, spec, opt);
      identical &= section.run("TPC-H join, scale " + opt.scale, tpchRequest(ex, spec), variants);
      if (trace != null) {
        String replay = "Trace replay: " + trace.describe() + ".";
        report.paragraph(replay);
        System.out.println(replay);
        identical &=
            section.run(
                "Facebook trace replay (" + trace.name() + ")",
                matrixRequest(ex, spec, trace.bytes()),
                variants);
      }
    }
    Path html = report.write(out.resolve("report.html"));
    System.out.printf(
        "%nanswers identical: %s; demo took %.0f s; report: %s%n",
        identical ? "yes" : "NO", (System.currentTimeMillis() - t0) / 1000.0, html);
    return identical ? 0 : 1;
  }

  /**
   * The trace replay's input, read before the testbed starts so that a wrong {@code --trace-dir} or
   * {@code --coflow} fails at once: the coflow asked for, else the largest shuffle; null when the
   * replay is off ({@code --trace-mb 0}).
   *
   * @throws IllegalArgumentException if {@code --trace-dir} holds no trace, no trace is found where
   *     the repository ships it ({@link TraceInput#locate}), or the coflow is not in the trace or
   *     sends nothing from A to B
   */
  static TraceInput traceInput(DemoCommand.DemoOptions opt, TestbedSpec spec) {
    if (opt.traceMb <= 0) {
      return null;
    }
    java.util.Optional<Path> traceFile = TraceInput.locate(opt.traceDir);
    if (traceFile.isEmpty()) {
      throw new IllegalArgumentException(
          opt.traceDir != null
              ? "--trace-dir "
                  + opt.traceDir
                  + ": no trace file there (a file, or a folder holding "
                  + TraceInput.FILE
                  + ")"
              : "the Facebook trace "
                  + TraceInput.FILE
                  + " is not in "
                  + io.wanshuffle.scheduler.workload.FacebookTrace.FOLDER
                  + "/ of the wan-shuffle folder (give --trace-dir FILE_OR_FOLDER, or --trace-mb 0"
                  + " to leave the replay out)");
    }
    double bytes = opt.traceMb * 1e6;
    return opt.coflow == null
        ? TraceInput.largestShuffle(traceFile.get(), spec.mapHosts(), spec.nodesB(), bytes)
        : TraceInput.coflow(traceFile.get(), opt.coflow, spec.mapHosts(), spec.nodesB(), bytes);
  }

  /**
   * Starts the testbed and Spark: this JVM's Spark, or with {@code --spark-version} that version's
   * Spark home and its line's plugin jar ({@link SparkLines}).
   */
  private Experiment start(TestbedSpec spec, Path out, boolean withPlugin) {
    if (opt.sparkVersion == null) {
      return Experiment.start(spec, out);
    }
    SparkLines.Choice line = SparkLines.resolve(opt.sparkVersion);
    SparkHome home = SparkLines.home(line, System.out::println);
    Path plugin = withPlugin ? SparkLines.pluginJar(line.line(), System.out::println) : null;
    System.out.println(
        "Spark "
            + line.version()
            + " (Scala "
            + line.line().scala()
            + ")"
            + (plugin == null ? "" : " with the plugin jar of its line, " + plugin.getFileName()));
    return Experiment.start(spec, out, ClusterOptions.defaults(), home, plugin);
  }

  private JobRequest tpchRequest(Experiment ex, TestbedSpec spec) {
    return new JobRequest(
        "tpch",
        conf(ex),
        Node.addresses(ex.testbed().mapSide()),
        Node.addresses(ex.testbed().reduceSide()),
        "tpch",
        opt.scale,
        2 * spec.mapHosts(),
        2 * spec.nodesB(),
        null,
        0,
        1,
        true,
        0);
  }

  private JobRequest matrixRequest(Experiment ex, TestbedSpec spec, double[][] bytes) {
    return new JobRequest(
        "trace",
        conf(ex),
        Node.addresses(ex.testbed().mapSide()),
        Node.addresses(ex.testbed().reduceSide()),
        "matrix",
        0,
        2 * spec.mapHosts(),
        2 * spec.nodesB(),
        bytes,
        64 * 1024,
        1,
        true,
        0);
  }

  private Map<String, String> conf(Experiment ex) {
    Map<String, String> c = ex.baseConf(opt.executorMemory);
    c.put("spark.shuffle.compress", Boolean.toString(opt.compress));
    return c;
  }

  /**
   * @param variant {@value #DEFAULT}, a wan-shuffle algorithm (with the topology file) or one with
   *     {@value PluginSettings#RACK_BLIND}
   * @return the table's heading of the variant's column
   */
  static String label(String variant) {
    if (variant.equals(DEFAULT)) {
      return "default shuffle";
    }
    return "wan-shuffle ("
        + PluginSettings.algorithm(variant)
        + (PluginSettings.topologyAware(variant) ? ", topology-aware)" : ", rack-blind)");
  }

  /**
   * @param runs each run's links
   * @param n how many
   * @return the {@code n} links with the highest measured utilisation in any run, busiest first
   */
  static List<String> busiestLinks(List<LinkRun> runs, int n) {
    Map<String, Double> best = new LinkedHashMap<>();
    for (LinkRun r : runs) {
      r.loads()
          .forEach(
              (l, load) -> {
                if (load.utilisation() != null && load.utilisation() > 0) {
                  best.merge(l, load.utilisation(), Math::max);
                }
              });
    }
    return best.entrySet().stream()
        .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
        .limit(n)
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * The table's rows on links: the generalised physical limit and the reduce stage against it, the
   * most flows on a link against its capacity, the busiest links' utilisation and the tbf drops
   * (the last two on the shaped testbed).
   */
  static List<List<String>> linkRows(
      List<LinkRun> runs, List<Comparison.Figures> figs, boolean shaped) {
    List<List<String>> rows = new ArrayList<>();
    List<String> limit = new ArrayList<>(List.of("generalised physical limit (s), its link"));
    List<String> ratio = new ArrayList<>(List.of("reduce stage / generalised limit"));
    List<String> flows = new ArrayList<>(List.of("most flows on a link / its capacity"));
    for (int x = 0; x < runs.size(); x++) {
      TopologyLinks.Limit l = runs.get(x).limit();
      limit.add(l.link() == null ? "-" : Comparison.fmt("%.2f", l.seconds()) + " " + l.link());
      ratio.add(
          l.seconds() > 0
              ? Comparison.fmt("%.2f", figs.get(x).reduceSeconds() / l.seconds())
              : "-");
      flows.add(runs.get(x).mostFlows());
    }
    rows.addAll(List.of(limit, ratio, flows));
    if (shaped) {
      for (String link : busiestLinks(runs, TABLE_LINKS)) {
        List<String> row = new ArrayList<>(List.of("utilisation " + link + " (%)"));
        for (LinkRun r : runs) {
          Double u = r.utilisation(link);
          row.add(u == null ? "-" : Comparison.fmt("%.0f", 100 * u));
        }
        rows.add(row);
      }
      List<String> drops = new ArrayList<>(List.of("tbf drops, every link (packets)"));
      runs.forEach(r -> drops.add(r.drops() == null ? "-" : Long.toString(r.drops())));
      rows.add(drops);
    }
    return rows;
  }
}
