package io.wanshuffle.tools.report;

import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.HostMatrix;
import io.wanshuffle.spark.capture.LinkFigures;
import io.wanshuffle.spark.capture.LinkSeries;
import io.wanshuffle.spark.capture.NetworkFigures;
import io.wanshuffle.spark.capture.PlanCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StageFigures;
import io.wanshuffle.spark.capture.StepCapture;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The operator's page of one application ({@code ./wan-shuffle report}): per gated stage the
 * transfer matrix as a heat map with hosts grouped by site and rack, the first plan's steps and the
 * realised steps as Gantt charts side by side, the bytes over time on every backbone side and the
 * bottleneck link, the lower bound, the predicted against the measured transfer time ({@link
 * StageFigures}), and the bytes and flows on every link; for the application, its shared links'
 * windows and its shares of them over time ({@link LinkWindowsReport}); the notes of what could not
 * be read come first. Charts are drawn by JFreeChart ({@link Charts}) into one self-contained page
 * ({@link HtmlReport}).
 */
public final class OperatorReport {
  /** Most host pairs whose flows get a lane of their own in the realised Gantt chart. */
  static final int MAX_FLOW_LANES = 40;

  private OperatorReport() {}

  /**
   * @param app the application
   * @return its page, ready to write
   */
  public static HtmlReport render(ApplicationCapture app) {
    String name = app.appName().isEmpty() ? app.appId() : app.appName() + " (" + app.appId() + ")";
    HtmlReport r = new HtmlReport("wan-shuffle report: " + name);
    appendTo(r, app, Function.identity());
    return r;
  }

  /**
   * Adds the application's sections to a page (the demo's and run-app's pages add theirs around
   * them).
   *
   * @param r the page
   * @param app the application
   * @param hostName a host's name on the page (the testbed's node names for its addresses)
   */
  public static void appendTo(
      HtmlReport r, ApplicationCapture app, Function<String, String> hostName) {
    r.paragraph(
        "Read from "
            + app.source()
            + (app.flowsRecorded()
                ? " (a capture folder: stages, steps, plans and flows)."
                : " (an event log: stages and steps; the flows are in the capture folder only)."));
    for (String n : app.notes()) {
      r.note(n);
    }
    if (app.stages().isEmpty()) {
      r.paragraph("No gated stage to show.");
      LinkWindowsReport.append(r, app);
      return;
    }
    List<StageFigures> figures = app.stages().stream().map(StageFigures::of).toList();
    r.heading("Gated stages");
    r.paragraph(
        "Lower bound: the stage's bytes on its bottleneck link over the link's rate. Predicted: the"
            + " cost of the stage's first plan, Σ(β + step duration), over the residual demand it"
            + " saw. Measured: from the first grant to the end of the last step (driver clock).");
    r.table(
        List.of(
            "stage",
            "algorithm",
            "k",
            "senders x receivers",
            "registered MB",
            "fetched MB",
            "steps (deadline)",
            "bottleneck link",
            "lower bound s",
            "predicted s",
            "measured s",
            "measured / predicted"),
        figures.stream().map(OperatorReport::summaryRow).toList());
    Map<String, Map<String, Double>> times = new LinkedHashMap<>();
    times.put("lower bound", new LinkedHashMap<>());
    times.put("predicted (first plan)", new LinkedHashMap<>());
    times.put("measured", new LinkedHashMap<>());
    boolean network = figures.stream().anyMatch(f -> f.network().known());
    if (network) {
      times.put("transfer phase", new LinkedHashMap<>());
      times.put("predicted as scheduled", new LinkedHashMap<>());
      times.put("predicted as Spark's default", new LinkedHashMap<>());
    }
    for (StageFigures f : figures) {
      times.get("lower bound").put(f.label(), f.lowerBoundSeconds());
      times.get("predicted (first plan)").put(f.label(), f.predictedSeconds());
      times.get("measured").put(f.label(), f.measuredSeconds());
      if (network) {
        times.get("transfer phase").put(f.label(), f.network().transferPhaseSeconds());
        times.get("predicted as scheduled").put(f.label(), f.network().predictedScheduledSeconds());
        times
            .get("predicted as Spark's default")
            .put(f.label(), f.network().predictedDefaultSeconds());
      }
    }
    r.image(
        "Transfer time of each gated stage: lower bound, predicted and measured (seconds)",
        Charts.groupedBars("transfer time per stage", "seconds", times));
    LinkWindowsReport.append(r, app);
    for (StageCapture c : app.stages()) {
      stage(r, c, StageFigures.of(c), app.flowsRecorded(), hostName);
    }
  }

  /**
   * @return one paragraph: how the stage's cross-site reads ran, its transfer phase measured and
   *     predicted twice, the measured β and link rates, and when recorded the k, base speed and β
   *     the stage was planned with
   */
  static String network(NetworkFigures n) {
    StringBuilder rates = new StringBuilder();
    n.measuredRates()
        .forEach(
            (link, v) ->
                rates
                    .append(rates.length() == 0 ? "" : ", ")
                    .append(link)
                    .append(String.format(Locale.ROOT, " %.1f Mbit/s", v * 8 / 1e6)));
    return String.format(
            Locale.ROOT,
            "Cross-site reads %s. Transfer phase (first cross-site fetch to last byte) %s s; predicted"
                + " at the first plan %s s as scheduled, %s s as Spark's default (η_o). Measured over"
                + " %d flows: β %s s%s.",
            n.decision().isEmpty() ? "-" : n.decision(),
            sec(n.transferPhaseSeconds()),
            sec(n.predictedScheduledSeconds()),
            sec(n.predictedDefaultSeconds()),
            n.measuredFlows(),
            sec(n.measuredBetaSeconds()),
            rates.length() == 0 ? "" : "; " + rates)
        + (n.plannedKnown()
            ? String.format(
                Locale.ROOT,
                " Planned with k %d, base speed %.1f Mbit/s, β %s s.",
                n.plannedK(),
                n.plannedBytesPerSecond() * 8 / 1e6,
                sec(n.plannedBetaSeconds()))
            : "");
  }

  private static List<String> summaryRow(StageFigures f) {
    return List.of(
        f.label(),
        f.algorithm(),
        Integer.toString(f.k()),
        f.senders() + " x " + f.receivers(),
        mb(f.registeredBytes()),
        mb(f.realisedBytes()),
        f.steps() + " (" + f.stepsClosedByDeadline() + ")",
        f.bottleneckLink().isEmpty() ? "-" : f.bottleneckLink(),
        sec(f.lowerBoundSeconds()),
        sec(f.predictedSeconds()),
        sec(f.measuredSeconds()),
        Double.isNaN(f.measuredOverPredicted())
            ? "-"
            : String.format(Locale.ROOT, "%.2f", f.measuredOverPredicted()));
  }

  private static void stage(
      HtmlReport r,
      StageCapture c,
      StageFigures f,
      boolean flows,
      Function<String, String> hostName) {
    r.heading(
        "Stage "
            + f.label()
            + ": "
            + f.algorithm()
            + ", k = "
            + f.k()
            + ", β = "
            + sec(f.betaSeconds())
            + " s");
    r.paragraph(
        String.format(
            Locale.ROOT,
            "%d senders x %d receivers, %d host pairs, %s MB registered (largest pair %s MB), %s MB"
                + " fetched; %d steps (%d closed by their deadline), at most %d host pairs in one;"
                + " lower bound %s s%s; predicted %s s; measured %s s.",
            f.senders(),
            f.receivers(),
            f.pairs(),
            mb(f.registeredBytes()),
            mb(f.largestPairBytes()),
            mb(f.realisedBytes()),
            f.steps(),
            f.stepsClosedByDeadline(),
            f.mostFlowsInAStep(),
            sec(f.lowerBoundSeconds()),
            f.bottleneckLink().isEmpty() ? "" : " on " + f.bottleneckLink(),
            sec(f.predictedSeconds()),
            sec(f.measuredSeconds())));
    if (f.network().known()) {
      r.paragraph(network(f.network()));
    }
    heatMap(r, c, f, hostName);
    gantts(r, c, f, flows, hostName);
    throughput(r, c);
    stalled(r, c, f, hostName);
    if (c.hasLinks()) {
      List<List<String>> rows = new ArrayList<>();
      for (LinkFigures l : c.links()) {
        rows.add(
            List.of(
                l.link(),
                Integer.toString(l.capacityFlows()),
                String.format(Locale.ROOT, "%.1f", l.rateBytesPerSecond() * 8 / 1e6),
                mb(l.registeredBytes()),
                mb(l.realisedBytes()),
                sec(l.lowerBoundSeconds()),
                Integer.toString(l.maxFlowsInAStep())));
      }
      r.table(
          List.of(
              "link",
              "capacity (flows)",
              "rate Mbit/s",
              "registered MB",
              "fetched MB",
              "lower bound s",
              "most flows in a step"),
          rows);
    }
  }

  private static void heatMap(
      HtmlReport r, StageCapture c, StageFigures f, Function<String, String> hostName) {
    HostMatrix m = c.transferMatrix();
    if (m.total() == 0) {
      return;
    }
    Map<String, String> path = new TreeMap<>();
    for (int i = 0; i < c.hosts().size(); i++) {
      path.put(c.hosts().get(i), i < c.hostPaths().size() ? c.hostPaths().get(i) : "");
    }
    List<Integer> rows = order(m.senders(), path);
    List<Integer> cols = order(m.receivers(), path);
    long[][] cells = new long[rows.size()][cols.size()];
    for (int a = 0; a < rows.size(); a++) {
      for (int b = 0; b < cols.size(); b++) {
        cells[a][b] = m.bytes()[rows.get(a)][cols.get(b)];
      }
    }
    List<String> senders = rows.stream().map(i -> hostName.apply(m.senders().get(i))).toList();
    List<String> receivers = cols.stream().map(i -> hostName.apply(m.receivers().get(i))).toList();
    r.image(
        "Stage "
            + f.label()
            + ": its transfer matrix (bytes registered per sending and receiving host), hosts"
            + " grouped by site and rack"
            + (c.hostPaths().isEmpty() ? " (not recorded by this capture: one group)" : ""),
        Charts.groupedHeatMap(
            "stage " + f.label() + " transfer matrix, MB",
            senders,
            rows.stream().map(i -> path.getOrDefault(m.senders().get(i), "")).toList(),
            receivers,
            cols.stream().map(i -> path.getOrDefault(m.receivers().get(i), "")).toList(),
            cells));
  }

  /**
   * @return the indices of {@code hosts} ordered by their path, then by name
   */
  static List<Integer> order(List<String> hosts, Map<String, String> path) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      idx.add(i);
    }
    idx.sort(
        Comparator.comparing((Integer i) -> path.getOrDefault(hosts.get(i), ""))
            .thenComparing(hosts::get));
    return idx;
  }

  private static void gantts(
      HtmlReport r,
      StageCapture c,
      StageFigures f,
      boolean flows,
      Function<String, String> hostName) {
    List<Charts.Bar> planned = new ArrayList<>();
    PlanCapture plan =
        c.plans().stream().min(Comparator.comparingLong(PlanCapture::planId)).orElse(null);
    double planEnd = 0;
    if (plan != null) {
      double at = 0;
      for (int i = 0; i < plan.steps().size(); i++) {
        PlanCapture.PlannedStep s = plan.steps().get(i);
        double end = at + plan.betaSeconds() + s.durationSeconds();
        planned.add(
            new Charts.Bar(
                "plan step " + (i + 1) + " (" + s.src().length + " transfers)",
                "planned step (β + duration)",
                at,
                end));
        at = end;
      }
      planEnd = at;
    }
    List<Charts.Bar> realised = new ArrayList<>();
    long t0 = f.transferStartMs();
    double realEnd = 0;
    for (StepCapture s : c.steps()) {
      long end = s.endMs() > 0 ? s.endMs() : s.deadlineMs();
      realised.add(
          new Charts.Bar(
              "step " + s.stepId() + " (" + s.flows().size() + " pairs)",
              s.deadlinePassed() ? "step closed by its deadline" : "step",
              (s.grantedAtMs() - t0) / 1000.0,
              (end - t0) / 1000.0));
      realEnd = Math.max(realEnd, (end - t0) / 1000.0);
    }
    if (flows && t0 > 0) {
      long pairs = c.flows().stream().map(x -> x.srcHost() + x.dstHost()).distinct().count();
      if (pairs <= MAX_FLOW_LANES) {
        for (FlowCapture x : c.flows()) {
          if (x.startMs() <= 0) {
            continue;
          }
          realised.add(
              new Charts.Bar(
                  hostName.apply(x.srcHost()) + "→" + hostName.apply(x.dstHost()),
                  x.stepId() <= 0
                      ? "ungated flow"
                      : x.stalled() ? "stalled gated flow" : "gated flow",
                  (x.startMs() - t0) / 1000.0,
                  (x.endMs() - t0) / 1000.0));
          realEnd = Math.max(realEnd, (x.endMs() - t0) / 1000.0);
        }
      }
    }
    if (planned.isEmpty() && realised.isEmpty()) {
      return;
    }
    double max = Math.max(planEnd, realEnd) * 1.02;
    List<byte[]> charts = new ArrayList<>();
    if (!planned.isEmpty()) {
      charts.add(Charts.gantt("planned: plan " + plan.planId(), planned, 480, max));
    }
    if (!realised.isEmpty()) {
      charts.add(Charts.gantt("realised", realised, 480, max));
    }
    r.imagesSideBySide(
        "Stage "
            + f.label()
            + ": the first plan's steps one after the other (left) and the realised steps"
            + (flows ? " and flows per host pair" : "")
            + " (right), seconds from the stage's first grant",
        charts);
  }

  private static void throughput(HtmlReport r, StageCapture c) {
    if (c.linkSeries().isEmpty()) {
      return;
    }
    long start = c.linkSeries().stream().mapToLong(LinkSeries::startMs).min().orElse(0);
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    Map<Long, List<String>> rates = new TreeMap<>();
    for (LinkSeries s : c.linkSeries()) {
      List<double[]> pts = new ArrayList<>();
      for (int i = 0; i < s.bytes().length; i++) {
        double mid = (s.startMs() - start + s.binMs() * (i + 0.5)) / 1000.0;
        pts.add(new double[] {mid, s.bytesPerSecond(i) * 8});
      }
      lines.put(s.link(), pts);
      rates.computeIfAbsent(s.rateBytesPerSecond(), x -> new ArrayList<>()).add(s.link());
    }
    Map<String, Double> limits = new LinkedHashMap<>();
    rates.forEach((rate, links) -> limits.put("rate of " + String.join(", ", links), rate * 8.0));
    r.image(
        "Stage "
            + c.stageId()
            + "."
            + c.stageAttempt()
            + ": throughput on every backbone side and the bottleneck link, each flow's bytes spread"
            + " over its fetch (dashed: the links' rates)",
        Charts.throughput("link throughput", lines, limits));
  }

  /**
   * The stage's stalled flows, if any: each flow whose task reported it stalled ({@code
   * spark.wanshuffle.flow.stallTimeout}), when its ports went back and when its last block came.
   */
  private static void stalled(
      HtmlReport r, StageCapture c, StageFigures f, Function<String, String> hostName) {
    List<FlowCapture> stalled = c.flows().stream().filter(FlowCapture::stalled).toList();
    if (stalled.isEmpty()) {
      return;
    }
    long t0 = f.transferStartMs();
    r.paragraph(
        String.format(
            Locale.ROOT,
            "%d flow(s) stalled: their requested bytes stopped advancing (a link down, a host"
                + " unreachable) and their tasks handed their ports back for the next flows; their"
                + " blocks came later through Spark's fetch (arrived), or the task failed and Spark"
                + " retried it. Seconds from the stage's first grant.",
            stalled.size()));
    List<List<String>> rows = new ArrayList<>();
    for (FlowCapture x : stalled.subList(0, Math.min(stalled.size(), MAX_FLOW_LANES))) {
      rows.add(
          List.of(
              Long.toString(x.taskAttemptId()),
              hostName.apply(x.srcHost()) + " → " + hostName.apply(x.dstHost()),
              mb(x.bytes()),
              sec((x.startMs() - t0) / 1000.0),
              sec(x.stalledMs() / 1000.0),
              sec((x.handedOnMs() - t0) / 1000.0),
              x.endMs() > x.handedOnMs() ? sec((x.endMs() - t0) / 1000.0) : "never"));
    }
    r.table(
        List.of(
            "task",
            "flow",
            "MB",
            "started s",
            "no progress for s",
            "ports back at s",
            "arrived at s"),
        rows);
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
  }

  private static String sec(double s) {
    return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s);
  }
}
