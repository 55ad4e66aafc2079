package io.wanshuffle.it.demo;

import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StepCapture;
import io.wanshuffle.tools.report.ApplicationCapture;
import io.wanshuffle.tools.report.Charts;
import io.wanshuffle.tools.report.HtmlReport;
import io.wanshuffle.tools.report.OperatorReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One input of the demo (the TPC-H join, the trace replay): every variant run {@code --runs} times,
 * the variants taking turns ({@link RunSummary#alternation}), each run its own Spark application;
 * then the table per variant (median and range of every figure over its runs, the verdict against
 * Spark's default) on standard output and in the HTML report, with the per-run table and the charts
 * of each variant's median run.
 */
final class DemoSection {
  private final Experiment ex;
  private final HtmlReport report;
  private final TopologyLinks model;
  private final TestbedSpec spec;
  private final DemoCommand.DemoOptions opt;

  /**
   * @param ex the running testbed and Spark
   * @param report the HTML report to add to
   * @param model the testbed's links
   * @param spec the testbed
   * @param opt the demo's options ({@code --runs}, {@code --conf}, {@code --algorithm})
   */
  DemoSection(
      Experiment ex,
      HtmlReport report,
      TopologyLinks model,
      TestbedSpec spec,
      DemoCommand.DemoOptions opt) {
    this.ex = ex;
    this.report = report;
    this.model = model;
    this.spec = spec;
    this.opt = opt;
  }

  /** One finished run and what was read of it. */
  private record Run(
      RunSummary.Slot slot,
      Experiment.Measured measured,
      RunResult result,
      Comparison.Figures figures,
      Captured captured,
      LinkRun links) {}

  /**
   * Runs one input with every variant, {@code --runs} times each in turns; prints and reports.
   *
   * @param title the input's heading
   * @param base the job (Spark's default shuffle; the wan-shuffle variants add their settings)
   * @param variants the variants, in each round's order
   * @return true if every run's answer was the first run's
   */
  boolean run(String title, JobRequest base, List<String> variants) {
    System.out.println("\n== " + title);
    List<Run> runs = new ArrayList<>();
    for (RunSummary.Slot slot : RunSummary.alternation(variants, opt.runs)) {
      Experiment.Measured m = measure(base, slot);
      RunResult r = m.result().runs().get(0);
      Captured c = Captured.read(m.captureDir(), r);
      Run run =
          new Run(slot, m, r, Comparison.of(m.name(), r, m.backbone(), spec), c, linkRun(r, c, m));
      runs.add(run);
      System.out.printf(
          "  %s, run %d of %d: reduce stage %s s%n",
          Demo.label(slot.variant()),
          slot.run(),
          opt.runs,
          Comparison.fmt("%.2f", run.figures().reduceSeconds()));
    }
    List<String> answer0 = runs.get(0).result().answer();
    boolean identical = runs.stream().allMatch(r -> r.result().answer().equals(answer0));
    List<List<String>> perRun = rows(runs, identical);
    List<String> runVariants = runs.stream().map(r -> r.slot().variant()).toList();
    List<List<String>> summary = RunSummary.byVariant(runVariants, perRun);
    Map<String, RunSpread> reduce = new LinkedHashMap<>();
    for (String v : variants) {
      reduce.put(
          v,
          RunSpread.of(
              runs.stream()
                  .filter(r -> r.slot().variant().equals(v))
                  .map(r -> r.figures().reduceSeconds())
                  .toList()));
    }
    summary.add(2, RunSummary.verdictRow(variants, reduce, ex.testbed().shaped()));
    List<String> header =
        new ArrayList<>(List.of(title + " (median (min-max) of " + opt.runs + " runs)"));
    variants.forEach(v -> header.add(Demo.label(v)));
    System.out.print(Comparison.text(header, summary));
    report.heading(title);
    report.paragraph(
        "Each variant ran "
            + opt.runs
            + " times, the variants taking turns; each cell is the median over a variant's runs"
            + " with their range (min-max); a wan-shuffle variant is called faster or slower than"
            + " the default only where the medians differ by more than the larger of the two"
            + " ranges.");
    report.table(header, summary);
    List<String> runHeader = new ArrayList<>(List.of(title + ", every run in the order it ran"));
    runs.forEach(r -> runHeader.add(Demo.label(r.slot().variant()) + ", run " + r.slot().run()));
    report.table(runHeader, perRun);
    charts(title, runs, variants);
    return identical;
  }

  /** Runs one slot: the default shuffle as is, a wan-shuffle variant with its settings. */
  private Experiment.Measured measure(JobRequest base, RunSummary.Slot slot) {
    String v = slot.variant();
    String name = base.appName() + "-" + v + "-" + slot.run();
    if (v.equals(Demo.DEFAULT)) {
      return ex.run(name, base.withSparkConf(name, base.sparkConf()), 0);
    }
    Map<String, String> c = new LinkedHashMap<>(base.sparkConf());
    PluginSettings.putAll(c, ex.wanShuffleConf(v));
    PluginSettings.putAll(c, opt.extraConf);
    return ex.run(name, base.withSparkConf(name, c), 0);
  }

  /** The run's links over its reduce stage: gated flows of the capture, counters, matrix. */
  private LinkRun linkRun(RunResult r, Captured c, Experiment.Measured m) {
    List<FlowCapture> gated = c.flows().stream().filter(f -> f.stepId() > 0).toList();
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

  /** The per-run table: one column per run, in the order they ran. */
  private List<List<String>> rows(List<Run> runs, boolean identical) {
    List<Comparison.Figures> figs = runs.stream().map(Run::figures).toList();
    List<Captured> caps = runs.stream().map(Run::captured).toList();
    List<List<String>> rows = Comparison.rows(figs, ex.testbed().shaped());
    List<String> idRow =
        new ArrayList<>(List.of("answer rows (identical: " + (identical ? "yes" : "NO") + ")"));
    runs.forEach(r -> idRow.add(Integer.toString(r.result().answer().size())));
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
    rows.addAll(Demo.linkRows(runs.stream().map(Run::links).toList(), figs, ex.testbed().shaped()));
    double beta =
        caps.stream()
            .filter(c -> !c.stages().isEmpty())
            .mapToDouble(Captured::betaSeconds)
            .findFirst()
            .orElse(0.05);
    List<String> p1 = new ArrayList<>(List.of("predicted: step schedule cost (s)"));
    List<String> p2 = new ArrayList<>(List.of("predicted: η lower bound (s)"));
    List<String> p3 = new ArrayList<>(List.of("predicted: η_o, all at once with fair sharing (s)"));
    for (Run run : runs) {
      RunResult r = run.result();
      Prediction p =
          r.matrixTotal() > 0 ? Prediction.of(r.trafficMatrix(), spec, opt.algorithm, beta) : null;
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
    for (Run run : runs) {
      measured.add(
          new MeasuredRows.Run(
              run.captured(),
              run.measured().backbone(),
              run.result().reduceStageStartMs(),
              run.result().reduceStageEndMs()));
    }
    rows.addAll(MeasuredRows.of(measured));
    return rows;
  }

  private static void addRow(
      List<List<String>> rows, String name, List<Captured> caps, Function<Captured, String> cell) {
    List<String> r = new ArrayList<>(List.of(name));
    caps.forEach(c -> r.add(cell.apply(c)));
    rows.add(r);
  }

  /**
   * @param runs every run of the section
   * @param variant a variant
   * @return the variant's run whose reduce stage is the median (the lower of the middle two for an
   *     even count)
   */
  private static Run medianRun(List<Run> runs, String variant) {
    List<Run> own =
        runs.stream()
            .filter(r -> r.slot().variant().equals(variant))
            .sorted(
                (a, b) -> Double.compare(a.figures().reduceSeconds(), b.figures().reduceSeconds()))
            .toList();
    return own.get((own.size() - 1) / 2);
  }

  /** The charts of the section: the traffic matrix, then per variant its median run's. */
  private void charts(String title, List<Run> runs, List<String> variants) {
    Map<String, String> names = new LinkedHashMap<>();
    ex.testbed().workers().forEach(n -> names.put(n.address(), n.name()));
    RunResult first = runs.get(0).result();
    report.image(
        "Captured traffic matrix ("
            + runs.get(0).measured().name()
            + "): shuffle bytes per (sender, receiver) host, "
            + "from Spark's map output statistics fitted to the task metrics' exact bytes per host",
        Charts.heatMap(
            "traffic matrix, MB",
            rename(first.senders(), names),
            rename(first.receivers(), names),
            first.trafficMatrix()));
    List<Run> shown = variants.stream().map(v -> medianRun(runs, v)).toList();
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (Run run : shown) {
      Experiment.Measured m = run.measured();
      RunResult r = run.result();
      report.image(
          "Gantt chart of "
              + m.name()
              + " (the median run of "
              + Demo.label(run.slot().variant())
              + "): reduce tasks per receiving host"
              + (run.captured().stages().isEmpty()
                  ? ""
                  : ", granted steps, and realised cross-cluster flows per host pair"),
          Charts.gantt(m.name(), gantt(r, run.captured(), names)));
      if (m.backbone() != null) {
        lines.put(m.name(), m.backbone().rateSeries(r.reduceStageStartMs(), r.reduceStageEndMs()));
      }
    }
    if (!lines.isEmpty()) {
      report.image(
          "Backbone throughput "
              + (spec.sites() == 2 ? "A→B" : "into B")
              + " during the reduce stage of each variant's median run (interface counters, 200 ms"
              + " samples)",
          Charts.throughput(
              spec.sites() == 2 ? "backbone A→B" : "backbone into B",
              lines,
              spec.backboneBitsPerSecond()));
    }
    List<LinkRun> links = shown.stream().map(Run::links).toList();
    List<String> busiest = Demo.busiestLinks(links, Demo.CHART_LINKS);
    if (!busiest.isEmpty()) {
      Map<String, Map<String, Double>> byRun = new LinkedHashMap<>();
      for (Run run : shown) {
        Map<String, Double> u = new LinkedHashMap<>();
        for (String l : busiest) {
          Double v = run.links().utilisation(l);
          u.put(l, v == null ? 0.0 : v);
        }
        byRun.put(Demo.label(run.slot().variant()), u);
      }
      report.image(
          "Utilisation of the busiest links during the reduce stage of each variant's median run:"
              + " bytes on each link's interface counters / (its rate x the reduce stage's time)",
          Charts.linkUtilisation("busiest links", byRun));
    }
    for (Run run : shown) {
      if (!run.captured().stages().isEmpty()) {
        report.heading(
            title
                + ": "
                + Demo.label(run.slot().variant())
                + ", run "
                + run.slot().run()
                + " (median), what the plugin did");
        OperatorReport.appendTo(
            report,
            ApplicationCapture.of(run.captured().stages(), run.measured().captureDir().toString()),
            a -> names.getOrDefault(a, a));
      }
    }
  }

  /** A run's Gantt bars: reduce tasks, and with the plugin its steps and realised flows. */
  private static List<Charts.Bar> gantt(RunResult r, Captured c, Map<String, String> names) {
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
    for (StepCapture st : c.steps()) {
      long end = st.endMs() > 0 ? st.endMs() : r.reduceStageEndMs();
      bars.add(
          new Charts.Bar(
              "step " + st.stepId() + " (" + st.flows().size() + " flows)",
              "step",
              (st.grantedAtMs() - t0) / 1000.0,
              (end - t0) / 1000.0));
    }
    for (FlowCapture f : c.flows()) {
      bars.add(
          new Charts.Bar(
              names.getOrDefault(f.srcHost(), f.srcHost())
                  + "→"
                  + names.getOrDefault(f.dstHost(), f.dstHost()),
              f.stepId() > 0 ? "gated flow" : "ungated flow",
              (f.startMs() - t0) / 1000.0,
              (f.endMs() - t0) / 1000.0));
    }
    return bars;
  }

  private static List<String> rename(List<String> hosts, Map<String, String> names) {
    return hosts.stream().map(h -> names.getOrDefault(h, h)).toList();
  }
}
