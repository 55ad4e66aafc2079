package io.wanshuffle.it.demo;

import io.wanshuffle.it.app.RunNetwork;
import io.wanshuffle.it.net.BackboneTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo table's rows of what the plugin measured and predicted for each run's reduce stage: the
 * cross-site transfer phase (first cross-site fetch request to last cross-site byte; for Spark's
 * default, from the backbone's counters), the plugin's predictions made when the stage was first
 * planned (as scheduled and as Spark's default would run it, η_o with the measured rates), and the
 * β and backbone rate it measured. The same figures as run-app's {@code report.json} ({@link
 * RunNetwork}).
 */
final class MeasuredRows {
  private MeasuredRows() {}

  /**
   * One run of a section.
   *
   * @param captured the plugin's capture of its reduce stage (no stages for Spark's default)
   * @param backbone the backbone's counters over the run, or null (loopback testbed)
   * @param reduceStartMs the reduce stage's start, epoch ms
   * @param reduceEndMs its end, epoch ms
   */
  record Run(Captured captured, BackboneTrace backbone, long reduceStartMs, long reduceEndMs) {

    RunNetwork network() {
      if (!captured.stages().isEmpty()) {
        return RunNetwork.fromCaptures(captured.stages());
      }
      Double phase =
          backbone == null
              ? null
              : RunNetwork.fromBackbone(backbone, List.of(new long[] {reduceStartMs, reduceEndMs}));
      return new RunNetwork(phase, null, null, null, Map.of());
    }
  }

  /**
   * @param runs the section's runs, in column order
   * @return three rows (label first, then one cell per run; "-" where unknown)
   */
  static List<List<String>> of(List<Run> runs) {
    List<String> phase = new ArrayList<>(List.of("measured: cross-site transfer phase (s)"));
    List<String> pred =
        new ArrayList<>(
            List.of("plugin's prediction at the stage's start: as scheduled / as default (s)"));
    List<String> net =
        new ArrayList<>(List.of("plugin's measurement: β (s) / slowest backbone side (Mbit/s)"));
    for (Run r : runs) {
      RunNetwork n = r.network();
      phase.add(seconds(n.transferPhaseSeconds()));
      pred.add(
          n.predictedScheduledSeconds() == null && n.predictedDefaultSeconds() == null
              ? "-"
              : seconds(n.predictedScheduledSeconds())
                  + " / "
                  + seconds(n.predictedDefaultSeconds()));
      double backbone =
          n.measuredRates().entrySet().stream()
              .filter(e -> e.getKey().startsWith("backbone."))
              .mapToDouble(Map.Entry::getValue)
              .min()
              .orElse(Double.NaN);
      net.add(
          n.betaSeconds() == null && Double.isNaN(backbone)
              ? "-"
              : (n.betaSeconds() == null ? "-" : Comparison.fmt("%.3f", n.betaSeconds()))
                  + " / "
                  + (Double.isNaN(backbone) ? "-" : Comparison.fmt("%.0f", backbone * 8 / 1e6)));
    }
    return List.of(phase, pred, net);
  }

  private static String seconds(Double s) {
    return s == null ? "-" : Comparison.fmt("%.2f", s);
  }
}
