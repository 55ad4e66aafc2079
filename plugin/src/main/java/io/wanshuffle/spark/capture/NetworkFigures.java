package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.measure.NetworkEstimate;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the driver measured of the network when a stage ended, what it predicted for the stage's
 * cross-site transfer phase when the stage was first planned, and what the phase took
 * (docs/capture.md). Unknown figures are NaN (Kryo) or absent (events of older versions: null).
 *
 * @param measuredBetaSeconds β measured over the application's recent flows ({@link
 *     io.wanshuffle.spark.measure.NetworkEstimator}), seconds; NaN before any gated flow
 * @param measuredRates per link name its measured rate, bytes/s, by name
 * @param measuredFlows flows the measurement used
 * @param predictedScheduledSeconds the stage's transfer phase as the plugin would run its first
 *     plan ({@link io.wanshuffle.spark.measure.TransferPrediction#scheduled}), seconds; NaN without
 *     a plan
 * @param predictedDefaultSeconds the same phase as Spark's default would run it (η_o, {@link
 *     io.wanshuffle.spark.measure.TransferPrediction#fairShare}), seconds; NaN without a plan
 * @param transferPhaseSeconds measured: the stage's first cross-site fetch request to its last
 *     cross-site byte (executor clocks), seconds; NaN without flows
 * @param decision how the stage's cross-site reads ran and why, e.g. {@code gated} ("" when not
 *     recorded)
 * @param plannedK k the stage's last plan used: the configured or start k, or with {@code auto}
 *     values the measured one once the coordinator switched (0 when unknown: no plan, or captures
 *     of format version 4 and older)
 * @param plannedBytesPerSecond the base speed b the stage's last plan used, bytes/s (0 when
 *     unknown)
 * @param plannedBetaSeconds β the stage's last plan used, seconds (NaN when unknown; 0 in events of
 *     older versions)
 */
public record NetworkFigures(
    double measuredBetaSeconds,
    Map<String, Double> measuredRates,
    int measuredFlows,
    double predictedScheduledSeconds,
    double predictedDefaultSeconds,
    double transferPhaseSeconds,
    String decision,
    int plannedK,
    long plannedBytesPerSecond,
    double plannedBetaSeconds) {

  /** Nothing measured or predicted (captures of format version 3 and older). */
  public static final NetworkFigures NONE =
      new NetworkFigures(
          Double.NaN, Map.of(), 0, Double.NaN, Double.NaN, Double.NaN, "", 0, 0, Double.NaN);

  /** Copies the rates, by link name. */
  public NetworkFigures {
    measuredRates =
        Collections.unmodifiableMap(
            new TreeMap<>(measuredRates == null ? Map.of() : measuredRates));
    decision = decision == null ? "" : decision;
  }

  /**
   * @param est the measurement
   * @param predictedScheduledSeconds predicted as scheduled, seconds (NaN when unknown)
   * @param predictedDefaultSeconds predicted as Spark's default, seconds (NaN when unknown)
   * @param transferPhaseSeconds measured transfer phase, seconds (NaN when unknown)
   * @param decision how the reads ran and why
   * @param lastPlan the stage's last plan, whose k, base speed and β are recorded; null when the
   *     stage has none (recorded as unknown)
   * @return the figures
   */
  public static NetworkFigures of(
      NetworkEstimate est,
      double predictedScheduledSeconds,
      double predictedDefaultSeconds,
      double transferPhaseSeconds,
      String decision,
      PlanCapture lastPlan) {
    return new NetworkFigures(
        est.betaSeconds(),
        est.bytesPerSecond(),
        est.flows(),
        predictedScheduledSeconds,
        predictedDefaultSeconds,
        transferPhaseSeconds,
        decision,
        lastPlan != null ? lastPlan.k() : 0,
        lastPlan != null ? lastPlan.bytesPerSecond() : 0,
        lastPlan != null ? lastPlan.betaSeconds() : Double.NaN);
  }

  /**
   * @return true when the k, base speed and β the stage was planned with are recorded
   */
  public boolean plannedKnown() {
    return plannedK > 0 && plannedBytesPerSecond > 0;
  }

  /**
   * @return true when a measurement or prediction is recorded
   */
  public boolean known() {
    return measuredFlows > 0
        || !Double.isNaN(predictedScheduledSeconds)
        || !Double.isNaN(transferPhaseSeconds);
  }
}
