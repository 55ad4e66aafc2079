package io.wanshuffle.it.demo;

import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.report.Charts;
import io.wanshuffle.it.report.HtmlReport;
import io.wanshuffle.it.testbed.Experiment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The demo's steps (see {@link DemoCommand}). */
final class Demo {
  private final DemoCommand.DemoOptions opt;

  Demo(DemoCommand.DemoOptions opt) {
    this.opt = opt;
  }

  int run() {
    TestbedSpec spec = opt.net.spec();
    boolean withPlugin = !opt.defaultOnly;
    if (withPlugin && Comparison.pluginClass() == null) {
      throw new IllegalStateException("the wan-shuffle plugin (" + Experiment.WAN_SHUFFLE_MANAGER + ") is not on the"
          + " class path: build the project (mvn -pl integration-tests -am install -DskipTests) or pass --default-only");
    }
    Path out = opt.out.toAbsolutePath();
    HtmlReport report = new HtmlReport("wan-shuffle demo");
    boolean identical = true;
    long t0 = System.currentTimeMillis();
    try (Experiment ex = Experiment.start(spec, out, "1g")) {
      System.out.println("testbed: " + ex.testbed().describe());
      if (!ex.testbed().shaped()) {
        System.out.println("NOTE: the backbone is NOT shaped on the loopback variant: times below are not "
            + "comparable to a WAN; the answers are still checked.");
      }
      report.paragraph("Testbed: " + ex.testbed().describe() + ".");
      identical &= section(ex, report, "TPC-H join, scale " + opt.scale, tpchRequest(ex, spec), withPlugin, spec);
      java.util.Optional<Path> traceFile = TraceInput.locate(opt.traceDir);
      if (opt.traceMb > 0 && traceFile.isEmpty()) {
        System.out.println("\nTrace replay skipped: " + TraceInput.FILE + " not found (give --trace-dir, or -D"
            + TraceInput.PROPERTY + "=FILE).");
        report.paragraph("Trace replay skipped: the Facebook trace was not found.");
      } else if (opt.traceMb > 0) {
        TraceInput trace = TraceInput.largestShuffle(traceFile.get(), spec.nodesA(), spec.nodesB(),
            opt.traceMb * 1e6);
        report.paragraph(trace.describe());
        System.out.println(trace.describe());
        identical &= section(ex, report, "Facebook trace replay (" + trace.name() + ")",
            matrixRequest(ex, spec, trace.bytes()), withPlugin, spec);
      }
    }
    Path html = report.write(out.resolve("report.html"));
    System.out.printf("%nanswers identical: %s; demo took %.0f s; report: %s%n", identical ? "yes" : "NO",
        (System.currentTimeMillis() - t0) / 1000.0, html);
    return identical ? 0 : 1;
  }

  private JobRequest tpchRequest(Experiment ex, TestbedSpec spec) {
    return new JobRequest("tpch", conf(ex), hosts(ex.testbed().clusterA()), hosts(ex.testbed().clusterB()), "tpch",
        opt.scale, 2 * spec.nodesA(), 2 * spec.nodesB(), null, 0, 1, true, 0);
  }

  private JobRequest matrixRequest(Experiment ex, TestbedSpec spec, double[][] bytes) {
    return new JobRequest("trace", conf(ex), hosts(ex.testbed().clusterA()), hosts(ex.testbed().clusterB()),
        "matrix", 0, 2 * spec.nodesA(), 2 * spec.nodesB(), bytes, 64 * 1024, 1, true, 0);
  }

  private Map<String, String> conf(Experiment ex) {
    Map<String, String> c = ex.baseConf(opt.executorMemory);
    c.put("spark.shuffle.compress", Boolean.toString(opt.compress));
    return c;
  }

  private static List<String> hosts(List<io.wanshuffle.it.net.Node> nodes) {
    return nodes.stream().map(io.wanshuffle.it.net.Node::address).toList();
  }

  /** Runs one job with the default shuffle and (optionally) wan-shuffle; prints and reports; true if identical. */
  private boolean section(Experiment ex, HtmlReport report, String title, JobRequest base, boolean withPlugin,
      TestbedSpec spec) {
    System.out.println("\n== " + title);
    List<Experiment.Measured> ms = new ArrayList<>();
    ms.add(ex.run(base.appName() + "-default", base, 0));
    if (withPlugin) {
      Map<String, String> c = new LinkedHashMap<>(base.sparkConf());
      c.putAll(ex.wanShuffleConf(opt.algorithm));
      JobRequest wan = new JobRequest(base.appName() + "-wan", c, base.aHosts(), base.bHosts(), base.job(),
          base.tpchScale(), base.mapPartitions(), base.reducePartitions(), base.matrixBytes(), base.recordBytes(),
          base.runs(), base.warmup(), 0);
      ms.add(ex.run(base.appName() + "-wan-shuffle", wan, 0));
    }
    List<Comparison.Figures> figs = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of(title));
    for (Experiment.Measured m : ms) {
      RunResult r = m.result().runs().get(0);
      figs.add(Comparison.of(m.name(), r, m.backbone(), spec));
      header.add(m.name().endsWith("default") ? "default shuffle" : "wan-shuffle (" + opt.algorithm + ")");
    }
    List<List<String>> rows = Comparison.rows(figs, ex.testbed().shaped());
    List<String> answer0 = ms.get(0).result().runs().get(0).answer();
    boolean identical = ms.stream().allMatch(m -> m.result().runs().get(0).answer().equals(answer0));
    List<String> idRow = new ArrayList<>(List.of("answer rows (identical: " + (identical ? "yes" : "NO") + ")"));
    ms.forEach(m -> idRow.add(Integer.toString(m.result().runs().get(0).answer().size())));
    rows.add(0, idRow);
    System.out.print(Comparison.text(header, rows));
    report.heading(title);
    report.table(header, rows);
    RunResult first = ms.get(0).result().runs().get(0);
    report.image("Captured traffic matrix (" + ms.get(0).name() + "): shuffle bytes per (sender, receiver) host",
        Charts.heatMap("traffic matrix, MB", first.senders(), first.receivers(), first.matrixBytes()));
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (Experiment.Measured m : ms) {
      RunResult r = m.result().runs().get(0);
      List<Charts.Bar> bars = new ArrayList<>();
      for (RunResult.TaskSpan s : r.tasks()) {
        bars.add(new Charts.Bar(s.host(), "reduce task", (s.launchMs() - r.reduceStageStartMs()) / 1000.0,
            (s.finishMs() - r.reduceStageStartMs()) / 1000.0));
      }
      report.image("Reduce tasks over time per receiving host (" + m.name() + ")",
          Charts.gantt("reduce tasks, " + m.name(), bars));
      if (m.backbone() != null) {
        lines.put(m.name(), m.backbone().rateSeries(r.reduceStageStartMs(), r.reduceStageEndMs()));
      }
    }
    if (!lines.isEmpty()) {
      report.image("Backbone throughput A→B during the reduce stage (interface counters, 200 ms samples)",
          Charts.throughput("backbone A→B", lines, spec.backboneBitsPerSecond()));
    }
    return identical;
  }
}
