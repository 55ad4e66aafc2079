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
 *     io.wanshuffle.spark.measure.TransferPrediction#bruteForce}), seconds; NaN without a plan
 * @param transferPhaseSeconds measured: the stage's first cross-site fetch request to its last
 *     cross-site byte (executor clocks), seconds; NaN without flows
 * @param decision how the stage's cross-site reads ran and why, e.g. {@code gated} ("" when not
 *     recorded)
 */
public record NetworkFigures(
    double measuredBetaSeconds,
    Map<String, Double> measuredRates,
    int measuredFlows,
    double predictedScheduledSeconds,
    double predictedDefaultSeconds,
    double transferPhaseSeconds,
    String decision) {

  /** Nothing measured or predicted (captures of format version 3 and older). */
  public static final NetworkFigures NONE =
      new NetworkFigures(Double.NaN, Map.of(), 0, Double.NaN, Double.NaN, Double.NaN, "");

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
   * @return the figures
   */
  public static NetworkFigures of(
      NetworkEstimate est,
      double predictedScheduledSeconds,
      double predictedDefaultSeconds,
      double transferPhaseSeconds,
      String decision) {
    return new NetworkFigures(
        est.betaSeconds(),
        est.bytesPerSecond(),
        est.flows(),
        predictedScheduledSeconds,
        predictedDefaultSeconds,
        transferPhaseSeconds,
        decision);
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
