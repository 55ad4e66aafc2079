package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.CapturedEvents;
import io.wanshuffle.spark.capture.LinkFigures;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StageFigures;
import io.wanshuffle.spark.compat.TabPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The tab's main page: one row per gated stage with its transfer matrix in short, k, steps, bytes,
 * the most flows a step put on its bottleneck link, the lower bound, and the predicted and measured
 * transfer time ({@link StageFigures}); below, the shared links' windows and this application's
 * shares of them over time ({@link LinkWindowsSection}), and the executor hosts the topology maps
 * and those it does not ({@link HostsSection}).
 */
final class StagesPage implements TabPage {
  /** Column headings of the stage table. */
  static final List<String> HEADER =
      List.of(
          "Stage",
          "Algorithm",
          "k",
          "Matrix (senders x receivers, pairs)",
          "Registered (MB)",
          "Fetched (MB)",
          "Largest pair (MB)",
          "Steps (closed by deadline)",
          "Most pairs in a step",
          "Bottleneck link: most flows in a step / capacity",
          "Lower bound (s)",
          "Predicted (s)",
          "Measured (s)");

  private final WanShuffleTab tab;

  StagesPage(WanShuffleTab tab) {
    this.tab = tab;
  }

  @Override
  public String prefix() {
    return "";
  }

  @Override
  public String title(Function<String, String> param, String base) {
    return "WAN Shuffle";
  }

  @Override
  public String body(Function<String, String> param, String base) {
    CapturedEvents events = WanShuffleStore.of(tab.store());
    return content(events, base)
        + LinkWindowsSection.of(events.linkChanges())
        + HostsSection.of(WanShuffleStore.hosts(tab.store()));
  }

  /**
   * @param events the application's stages and steps
   * @param base the UI's base path, for links
   * @return the page's HTML
   */
  static String content(CapturedEvents events, String base) {
    StringBuilder sb = new StringBuilder("<div id=\"wanshuffle-stages-page\">");
    sb.append(
        "<p>Reduce stages whose cross-site reads wan-shuffle scheduled in steps: each step a"
            + " matching of at most k flows per backbone direction. <b>Lower bound</b>: the"
            + " stage's bytes on its bottleneck link over the link's rate. <b>Predicted</b>: the"
            + " cost of the stage's first plan, Σ(β + step duration). <b>Measured</b>:"
            + " first grant to the end of the last step. Measured well above predicted points at"
            + " the rates or β the plugin was given; open a stage for its links and"
            + " steps.</p>");
    List<StageCapture> stages = events.stages();
    if (stages.isEmpty()) {
      sb.append(
          "<p id=\"wanshuffle-empty\">No gated stage has completed yet (with"
              + " spark.wanshuffle.capture.events=false none is recorded).</p>");
    } else {
      if (events.anyWithoutLinks()) {
        sb.append(
            "<p class=\"text-warning\" id=\"wanshuffle-older\">Some stages were recorded by an older"
                + " wan-shuffle: their links, lower bound and plan are not shown.</p>");
      }
      List<List<String>> rows = new ArrayList<>();
      for (StageCapture c : stages) {
        rows.add(row(c, base));
      }
      sb.append(Html.table("wanshuffle-stages", HEADER, rows));
    }
    return sb.append("</div>").toString();
  }

  private static List<String> row(StageCapture c, String base) {
    StageFigures f = StageFigures.of(c);
    LinkFigures bottleneck =
        c.links().stream()
            .filter(l -> l.link().equals(f.bottleneckLink()))
            .findFirst()
            .orElse(null);
    return List.of(
        Html.link(base + "/" + WanShuffleTab.PREFIX + "/stage/?id=" + f.label(), f.label())
            + " ("
            + Html.link(
                base + "/stages/stage/?id=" + f.stageId() + "&attempt=" + f.stageAttempt(), "Spark")
            + ")",
        Html.esc(f.algorithm()),
        Integer.toString(f.k()),
        String.format(Locale.ROOT, "%d x %d, %d", f.senders(), f.receivers(), f.pairs()),
        Html.mb(f.registeredBytes()),
        Html.mb(f.realisedBytes()),
        Html.mb(f.largestPairBytes()),
        f.steps() + " (" + f.stepsClosedByDeadline() + ")",
        Integer.toString(f.mostFlowsInAStep()),
        bottleneck == null
            ? "-"
            : Html.esc(bottleneck.link())
                + ": "
                + bottleneck.maxFlowsInAStep()
                + " / "
                + bottleneck.capacityFlows(),
        Html.seconds(f.lowerBoundSeconds()),
        Html.seconds(f.predictedSeconds()),
        Html.seconds(f.measuredSeconds()));
  }
}
