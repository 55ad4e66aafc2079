package io.wanshuffle.it.demo;

import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.it.spark.SparkLines;
import io.wanshuffle.tools.report.ApplicationCapture;
import io.wanshuffle.tools.report.Charts;
import io.wanshuffle.tools.report.HtmlReport;
import io.wanshuffle.tools.report.OperatorReport;
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
      identical &=
          section(
              ex,
              report,
              "TPC-H join, scale " + opt.scale,
              tpchRequest(ex, spec),
              variants,
              model,
              spec);
      if (trace != null) {
        String replay = "Trace replay: " + trace.describe() + ".";
        report.paragraph(replay);
        System.out.println(replay);
        identical &=
            section(
                ex,
                report,
                "Facebook trace replay (" + trace.name() + ")",
                matrixRequest(ex, spec, trace.bytes()),
                variants,
                model,
                spec);
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

  private static List<String> rename(List<String> hosts, Map<String, String> names) {
    return hosts.stream().map(h -> names.getOrDefault(h, h)).toList();
  }

  private static void addRow(
      List<List<String>> rows,
      String name,
      List<Captured> caps,
      java.util.function.Function<Captured, String> cell) {
    List<String> r = new ArrayList<>(List.of(name));
    caps.forEach(c -> r.add(cell.apply(c)));
    rows.add(r);
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
   * Runs one job with each variant (the default shuffle, then the wan-shuffle ones); prints and
   * reports; true if every answer was the first's.
   */
  private boolean section(
      Experiment ex,
      HtmlReport report,
      String title,
      JobRequest base,
      List<String> variants,
      TopologyLinks model,
      TestbedSpec spec) {
    System.out.println("\n== " + title);
    List<Experiment.Measured> ms = new ArrayList<>();
    for (String v : variants) {
      if (v.equals(DEFAULT)) {
        ms.add(ex.run(base.appName() + "-default", base, 0));
      } else {
        Map<String, String> c = new LinkedHashMap<>(base.sparkConf());
        PluginSettings.putAll(c, ex.wanShuffleConf(v));
        PluginSettings.putAll(c, opt.extraConf);
        ms.add(
            ex.run(base.appName() + "-" + v, base.withSparkConf(base.appName() + "-" + v, c), 0));
      }
    }
    List<Comparison.Figures> figs = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of(title));
    List<Captured> caps = new ArrayList<>();
    List<LinkRun> links = new ArrayList<>();
    for (int x = 0; x < ms.size(); x++) {
      Experiment.Measured m = ms.get(x);
      RunResult r = m.result().runs().get(0);
      figs.add(Comparison.of(m.name(), r, m.backbone(), spec));
      Captured c = Captured.read(m.captureDir(), r);
      caps.add(c);
      links.add(linkRun(model, r, c, m));
      header.add(label(variants.get(x)));
    }
    List<List<String>> rows = Comparison.rows(figs, ex.testbed().shaped());
    List<String> answer0 = ms.get(0).result().runs().get(0).answer();
    boolean identical =
        ms.stream().allMatch(m -> m.result().runs().get(0).answer().equals(answer0));
    List<String> idRow =
        new ArrayList<>(List.of("answer rows (identical: " + (identical ? "yes" : "NO") + ")"));
    ms.forEach(m -> idRow.add(Integer.toString(m.result().runs().get(0).answer().size())));
    rows.add(0, idRow);
    addRow(
        rows,
        "steps granted (k)",
        caps,
        c -> c.stages().isEmpty() ? "-" : c.steps().size() + " (k=" + c.k() + ")");
    addRow(
        rows,
        "most cross-cluster flows holding ports at once",
        caps,
        c -> c.stages().isEmpty() ? "-" : Integer.toString(c.gatedOverlap().maxPairs()));
    rows.addAll(linkRows(links, figs, ex.testbed().shaped()));
    double beta =
        caps.stream()
            .filter(c -> !c.stages().isEmpty())
            .mapToDouble(Captured::betaSeconds)
            .findFirst()
            .orElse(0.05);
    List<Prediction> preds = new ArrayList<>();
    for (Experiment.Measured m : ms) {
      RunResult r = m.result().runs().get(0);
      preds.add(
          r.matrixTotal() > 0 ? Prediction.of(r.trafficMatrix(), spec, opt.algorithm, beta) : null);
    }
    List<String> p1 = new ArrayList<>(List.of("predicted: step schedule cost (s)"));
    List<String> p2 = new ArrayList<>(List.of("predicted: η lower bound (s)"));
    List<String> p3 = new ArrayList<>(List.of("predicted: η_o, all at once with fair sharing (s)"));
    for (Prediction p : preds) {
      p1.add(
          p == null
              ? "-"
              : Comparison.fmt("%.2f", p.scheduleSeconds())
                  + " ("
                  + p.algorithm()
                  + ", "
                  + p.steps()
                  + " steps)");
      p2.add(p == null ? "-" : Comparison.fmt("%.2f", p.etaSeconds()));
      p3.add(p == null ? "-" : Comparison.fmt("%.2f", p.etaOSeconds()));
    }
    rows.addAll(List.of(p1, p2, p3));
    List<MeasuredRows.Run> measured = new ArrayList<>();
    for (int x = 0; x < ms.size(); x++) {
      RunResult r = ms.get(x).result().runs().get(0);
      measured.add(
          new MeasuredRows.Run(
              caps.get(x), ms.get(x).backbone(), r.reduceStageStartMs(), r.reduceStageEndMs()));
    }
    rows.addAll(MeasuredRows.of(measured));
    System.out.print(Comparison.text(header, rows));
    report.heading(title);
    report.table(header, rows);
    Map<String, String> names = new LinkedHashMap<>();
    ex.testbed().workers().forEach(n -> names.put(n.address(), n.name()));
    RunResult first = ms.get(0).result().runs().get(0);
    report.image(
        "Captured traffic matrix ("
            + ms.get(0).name()
            + "): shuffle bytes per (sender, receiver) host, "
            + "from Spark's map output statistics fitted to the task metrics' exact bytes per host",
        Charts.heatMap(
            "traffic matrix, MB",
            rename(first.senders(), names),
            rename(first.receivers(), names),
            first.trafficMatrix()));
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (int x = 0; x < ms.size(); x++) {
      Experiment.Measured m = ms.get(x);
      RunResult r = m.result().runs().get(0);
      long t0 = r.reduceStageStartMs();
      List<Charts.Bar> bars = new ArrayList<>();
      for (RunResult.TaskSpan s : r.tasks()) {
        bars.add(
            new Charts.Bar(
                names.getOrDefault(s.host(), s.host()),
                "reduce task",
                (s.launchMs() - t0) / 1000.0,
                (s.finishMs() - t0) / 1000.0));
      }
      Captured c = caps.get(x);
      for (io.wanshuffle.spark.capture.StepCapture st : c.steps()) {
        long end = st.endMs() > 0 ? st.endMs() : r.reduceStageEndMs();
        bars.add(
            new Charts.Bar(
                "step " + st.stepId() + " (" + st.flows().size() + " flows)",
                "step",
                (st.grantedAtMs() - t0) / 1000.0,
                (end - t0) / 1000.0));
      }
      for (io.wanshuffle.spark.capture.FlowCapture f : c.flows()) {
        bars.add(
            new Charts.Bar(
                names.getOrDefault(f.srcHost(), f.srcHost())
                    + "→"
                    + names.getOrDefault(f.dstHost(), f.dstHost()),
                f.stepId() > 0 ? "gated flow" : "ungated flow",
                (f.startMs() - t0) / 1000.0,
                (f.endMs() - t0) / 1000.0));
      }
      report.image(
          "Gantt chart of "
              + m.name()
              + ": reduce tasks per receiving host"
              + (c.stages().isEmpty()
                  ? ""
                  : ", granted steps, and realised cross-cluster flows per host pair"),
          Charts.gantt(m.name(), bars));
      if (m.backbone() != null) {
        lines.put(m.name(), m.backbone().rateSeries(r.reduceStageStartMs(), r.reduceStageEndMs()));
      }
    }
    if (!lines.isEmpty()) {
      report.image(
          "Backbone throughput "
              + (spec.sites() == 2 ? "A→B" : "into B")
              + " during the reduce stage (interface counters, 200 ms samples)",
          Charts.throughput(
              spec.sites() == 2 ? "backbone A→B" : "backbone into B",
              lines,
              spec.backboneBitsPerSecond()));
    }
    List<String> busiest = busiestLinks(links, CHART_LINKS);
    if (!busiest.isEmpty()) {
      Map<String, Map<String, Double>> byRun = new LinkedHashMap<>();
      for (int x = 0; x < ms.size(); x++) {
        Map<String, Double> u = new LinkedHashMap<>();
        for (String l : busiest) {
          Double v = links.get(x).utilisation(l);
          u.put(l, v == null ? 0.0 : v);
        }
        byRun.put(header.get(x + 1), u);
      }
      report.image(
          "Utilisation of the busiest links during the reduce stage: bytes on each link's interface"
              + " counters / (its rate x the reduce stage's time)",
          Charts.linkUtilisation("busiest links", byRun));
    }
    for (int x = 0; x < ms.size(); x++) {
      if (!caps.get(x).stages().isEmpty()) {
        report.heading(title + ": " + header.get(x + 1) + ", what the plugin did");
        OperatorReport.appendTo(
            report,
            ApplicationCapture.of(caps.get(x).stages(), ms.get(x).captureDir().toString()),
            a -> names.getOrDefault(a, a));
      }
    }
    return identical;
  }

  /** The run's links over its reduce stage: gated flows of the capture, counters, matrix. */
  private static LinkRun linkRun(
      TopologyLinks model, RunResult r, Captured c, Experiment.Measured m) {
    List<io.wanshuffle.spark.capture.FlowCapture> gated =
        c.flows().stream().filter(f -> f.stepId() > 0).toList();
    return LinkRun.of(
        model,
        r.trafficMatrix(),
        r.senders(),
        r.receivers(),
        gated.isEmpty() ? null : gated,
        m.links(),
        r.reduceStageStartMs(),
        r.reduceStageEndMs());
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
