package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.HostMatrix;
import io.wanshuffle.spark.capture.LinkFigures;
import io.wanshuffle.spark.capture.NetworkFigures;
import io.wanshuffle.spark.capture.PlanCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StageFigures;
import io.wanshuffle.spark.capture.StepCapture;
import io.wanshuffle.spark.compat.TabPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One gated stage ({@code /wanshuffle/stage/?id=<stage>.<attempt>}): its figures, its links, the
 * step table (each step's grant, duration, deadline, budget, fetched bytes and backbone
 * utilisation), its first plan, and the transfer matrix when it is small enough to read.
 */
final class StagePage implements TabPage {
  /** Largest matrix (cells) shown as a table. */
  static final int MAX_MATRIX_CELLS = 400;

  /** Column headings of the step table. */
  static final List<String> STEP_HEADER =
      List.of(
          "Step",
          "Plan",
          "Host pairs",
          "Granted (s after the first grant)",
          "Duration (s)",
          "Deadline (s)",
          "Closed by deadline",
          "Budget (MB)",
          "Fetched (MB)",
          "Backbone utilisation");

  private final WanShuffleTab tab;

  StagePage(WanShuffleTab tab) {
    this.tab = tab;
  }

  @Override
  public String prefix() {
    return "stage";
  }

  @Override
  public String title(Function<String, String> param, String base) {
    String id = param.apply("id");
    return "WAN Shuffle: stage " + (id == null ? "" : id);
  }

  @Override
  public String body(Function<String, String> param, String base) {
    String id = param.apply("id");
    StageCapture stage =
        WanShuffleStore.of(tab.store()).stages().stream()
            .filter(s -> (s.stageId() + "." + s.stageAttempt()).equals(id))
            .findFirst()
            .orElse(null);
    return stage == null
        ? "<p id=\"wanshuffle-no-stage\">No gated stage " + Html.esc(id) + ".</p>"
        : content(stage);
  }

  /**
   * @param c the stage
   * @return the rows of its network table: how its reads ran, its transfer phase measured and
   *     predicted twice, the measured β, the k, base speed and β it was planned with (when
   *     recorded) and every measured link's rate
   */
  static List<List<String>> networkRows(StageCapture c) {
    NetworkFigures n = c.network();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("cross-site reads", Html.esc(n.decision())));
    rows.add(
        List.of(
            "transfer phase (s): first cross-site fetch to last byte",
            Html.seconds(n.transferPhaseSeconds())));
    rows.add(
        List.of(
            "predicted as scheduled (s): the first plan on the measured links",
            Html.seconds(n.predictedScheduledSeconds())));
    rows.add(
        List.of(
            "predicted as Spark's default (s): η_o on the measured links",
            Html.seconds(n.predictedDefaultSeconds())));
    rows.add(
        List.of(
            "measured β (s), over " + n.measuredFlows() + " flows",
            Html.seconds(n.measuredBetaSeconds())));
    if (n.plannedKnown()) {
      rows.add(
          List.of(
              "planned with (the stage's last plan): k, base speed (MB/s), β (s)",
              n.plannedK()
                  + ", "
                  + Html.mb(n.plannedBytesPerSecond())
                  + ", "
                  + Html.seconds(n.plannedBetaSeconds())));
    }
    n.measuredRates()
        .forEach(
            (link, r) ->
                rows.add(
                    List.of(
                        "measured rate of " + Html.esc(link) + " (MB/s)", Html.mb(Math.round(r)))));
    return rows;
  }

  /**
   * @param c the stage
   * @return the page's HTML
   */
  static String content(StageCapture c) {
    StageFigures f = StageFigures.of(c);
    StringBuilder sb = new StringBuilder("<div id=\"wanshuffle-stage-page\">");
    sb.append("<h4>Figures</h4>");
    sb.append(
        Html.table(
            "wanshuffle-stage-figures",
            List.of("Figure", "Value"),
            List.of(
                List.of(
                    "algorithm, k, β (s)",
                    Html.esc(f.algorithm()) + ", " + f.k() + ", " + Html.seconds(f.betaSeconds())),
                List.of(
                    "transfer matrix",
                    String.format(
                        Locale.ROOT,
                        "%d senders x %d receivers, %d pairs, %s MB (largest pair %s MB)",
                        f.senders(),
                        f.receivers(),
                        f.pairs(),
                        Html.mb(f.registeredBytes()),
                        Html.mb(f.largestPairBytes()))),
                List.of("fetched (MB)", Html.mb(f.realisedBytes())),
                List.of(
                    "steps (closed by deadline)",
                    f.steps() + " (" + f.stepsClosedByDeadline() + ")"),
                List.of(
                    "lower bound (s)",
                    Html.seconds(f.lowerBoundSeconds())
                        + (f.bottleneckLink().isEmpty()
                            ? ""
                            : " on " + Html.esc(f.bottleneckLink()))),
                List.of(
                    "predicted (s): the first plan's cost",
                    Html.seconds(f.predictedSeconds())
                        + (f.plannedBytes() > 0
                            ? " over " + Html.mb(f.plannedBytes()) + " MB of residual demand"
                            : "")),
                List.of(
                    "measured (s): first grant to last step end",
                    Html.seconds(f.measuredSeconds())))));
    if (c.network().known()) {
      sb.append("<h4>Network</h4>");
      sb.append(Html.table("wanshuffle-network", List.of("Figure", "Value"), networkRows(c)));
    }
    if (c.hasLinks()) {
      sb.append("<h4>Links</h4>");
      List<List<String>> rows = new ArrayList<>();
      for (LinkFigures l : c.links()) {
        rows.add(
            List.of(
                Html.esc(l.link()),
                Integer.toString(l.capacityFlows()),
                Html.mb(l.rateBytesPerSecond()),
                Html.mb(l.registeredBytes()),
                Html.mb(l.realisedBytes()),
                Html.seconds(l.lowerBoundSeconds()),
                Integer.toString(l.maxFlowsInAStep())));
      }
      sb.append(
          Html.table(
              "wanshuffle-links",
              List.of(
                  "Link",
                  "Capacity (flows)",
                  "Rate (MB/s)",
                  "Registered (MB)",
                  "Fetched (MB)",
                  "Lower bound (s)",
                  "Most flows in a step"),
              rows));
    }
    sb.append("<h4>Steps</h4>");
    sb.append(Html.table("wanshuffle-steps", STEP_HEADER, stepRows(c, f)));
    PlanCapture plan = c.plans().isEmpty() ? null : c.plans().get(0);
    if (plan != null) {
      sb.append("<h4>First plan</h4>");
      List<List<String>> rows = new ArrayList<>();
      double at = 0;
      for (int i = 0; i < plan.steps().size(); i++) {
        PlanCapture.PlannedStep s = plan.steps().get(i);
        rows.add(
            List.of(
                Integer.toString(i + 1),
                Integer.toString(s.src().length),
                Html.seconds(at),
                Html.seconds(plan.betaSeconds() + s.durationSeconds())));
        at += plan.betaSeconds() + s.durationSeconds();
      }
      sb.append(
          "<p>Plan "
              + plan.planId()
              + " ("
              + Html.esc(plan.algorithm())
              + ", k = "
              + plan.k()
              + "): "
              + plan.steps().size()
              + " steps, cost "
              + Html.seconds(plan.costSeconds())
              + " s.</p>");
      sb.append(
          Html.table(
              "wanshuffle-plan",
              List.of("Planned step", "Transfers", "Starts (s)", "β + duration (s)"),
              rows));
    }
    HostMatrix m = c.transferMatrix();
    if (m.senders().size() * m.receivers().size() <= MAX_MATRIX_CELLS && m.total() > 0) {
      sb.append("<h4>Transfer matrix (MB)</h4>");
      List<String> header = new ArrayList<>(List.of("sender \\ receiver"));
      m.receivers().forEach(r -> header.add(r + path(c, r)));
      List<List<String>> rows = new ArrayList<>();
      for (int i = 0; i < m.senders().size(); i++) {
        List<String> r =
            new ArrayList<>(List.of(Html.esc(m.senders().get(i) + path(c, m.senders().get(i)))));
        for (long v : m.bytes()[i]) {
          r.add(Html.mb(v));
        }
        rows.add(r);
      }
      sb.append(Html.table("wanshuffle-matrix", header, rows));
    }
    return sb.append("</div>").toString();
  }

  private static String path(StageCapture c, String host) {
    int i = c.hosts().indexOf(host);
    return i >= 0 && i < c.hostPaths().size() && !c.hostPaths().get(i).isEmpty()
        ? " (" + c.hostPaths().get(i) + ")"
        : "";
  }

  private static List<List<String>> stepRows(StageCapture c, StageFigures f) {
    List<List<String>> rows = new ArrayList<>();
    for (StepCapture s : c.steps()) {
      double duration = s.endMs() > 0 ? (s.endMs() - s.grantedAtMs()) / 1000.0 : Double.NaN;
      double util =
          c.backboneBytesPerSecond() > 0 && duration > 0
              ? s.realisedBytes() / (c.backboneBytesPerSecond() * duration)
              : Double.NaN;
      rows.add(
          List.of(
              Long.toString(s.stepId()),
              Long.toString(s.planId()),
              Integer.toString(s.flows().size()),
              Html.seconds((s.grantedAtMs() - f.transferStartMs()) / 1000.0),
              Html.seconds(duration),
              Html.seconds((s.deadlineMs() - s.grantedAtMs()) / 1000.0),
              s.deadlinePassed() ? "yes" : "no",
              Html.mb(s.grantedBytes()),
              Html.mb(s.realisedBytes()),
              Double.isNaN(util) ? "-" : String.format(Locale.ROOT, "%.0f %%", util * 100)));
    }
    return rows;
  }
}
