package io.wanshuffle.spark.capture;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.metrics.source.Source;

/**
 * The plugin's metrics in Spark's metrics system (driver, source name {@value #NAME}; metric names
 * {@code <app id>.driver.wanShuffle.<metric>} in the sinks): how many steps and plans, bytes per
 * step, backbone utilisation and grant wait time. Configure sinks with Spark's {@code
 * metrics.properties} / {@code spark.metrics.conf.*} as for any source.
 *
 * <ul>
 *   <li>{@code steps} counter: steps completed; {@code stepsClosedByDeadline} counter
 *   <li>{@code stalledFlows} counter: a task's flows of a step reported stalled ({@code
 *       spark.wanshuffle.flow.stallTimeout}), their ports re-planned
 *   <li>{@code plans} counter; {@code planTimeMicros} histogram: scheduler time per plan, µs
 *   <li>{@code stepBytes} histogram: bytes realised per step
 *   <li>{@code stepDurationMs} histogram: grant to end of each step, ms
 *   <li>{@code backboneUtilisationPermille} histogram and {@code backboneUtilisation} gauge (last
 *       step): realised bytes / (backbone rate x step duration), per mille and as a fraction
 *   <li>{@code grantWaitMs} histogram: from a task's demand registration to its first grant, ms
 *   <li>{@code demands} counter; {@code registeredBytes}, {@code realisedBytes}, {@code
 *       ungatedBytes} counters: cross-cluster bytes registered, fetched under grants and fetched
 *       ungated (algorithm {@code none} or fallback)
 *   <li>{@code measuredBetaMs} gauge: β measured over the recent flows, ms (-1 before any gated
 *       flow); {@code measuredRate.<link>} gauges: each measured link's rate, bytes/s
 *   <li>{@code transferPhaseMs}, {@code predictedScheduledMs}, {@code predictedDefaultMs}
 *       histograms: per stage, its measured cross-site transfer phase and the two predictions, ms
 * </ul>
 */
public final class WanShuffleMetricsSource implements Source {
  /** Source name in Spark's metrics system. */
  public static final String NAME = "wanShuffle";

  private final MetricRegistry registry = new MetricRegistry();
  final Counter steps = registry.counter("steps");
  final Counter stepsClosedByDeadline = registry.counter("stepsClosedByDeadline");
  final Counter stalledFlows = registry.counter("stalledFlows");
  final Counter plans = registry.counter("plans");
  final Histogram planTimeMicros = registry.histogram("planTimeMicros");
  final Histogram stepBytes = registry.histogram("stepBytes");
  final Histogram stepDurationMs = registry.histogram("stepDurationMs");
  final Histogram backboneUtilisationPermille = registry.histogram("backboneUtilisationPermille");
  final Histogram grantWaitMs = registry.histogram("grantWaitMs");
  final Counter demands = registry.counter("demands");
  final Counter registeredBytes = registry.counter("registeredBytes");
  final Counter realisedBytes = registry.counter("realisedBytes");
  final Counter ungatedBytes = registry.counter("ungatedBytes");
  final Histogram transferPhaseMs = registry.histogram("transferPhaseMs");
  final Histogram predictedScheduledMs = registry.histogram("predictedScheduledMs");
  final Histogram predictedDefaultMs = registry.histogram("predictedDefaultMs");
  private final AtomicLong measuredBetaMs = new AtomicLong(-1);
  private final java.util.Map<String, AtomicLong> measuredRates =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final AtomicLong lastUtilisationBits = new AtomicLong(Double.doubleToLongBits(0));

  /** Creates the source with all metrics at zero. */
  public WanShuffleMetricsSource() {
    registry.register(
        "backboneUtilisation",
        (Gauge<Double>) () -> Double.longBitsToDouble(lastUtilisationBits.get()));
    registry.register("measuredBetaMs", (Gauge<Long>) measuredBetaMs::get);
  }

  /**
   * Records a measurement: β and each link's rate (a gauge per link, registered when first seen).
   *
   * @param betaSeconds measured β, seconds (NaN: not measured)
   * @param rates per link name its rate, bytes/s
   */
  void recordMeasurement(double betaSeconds, java.util.Map<String, Double> rates) {
    if (!Double.isNaN(betaSeconds)) {
      measuredBetaMs.set(Math.round(betaSeconds * 1000));
    }
    rates.forEach(
        (link, r) ->
            measuredRates
                .computeIfAbsent(
                    link,
                    l -> {
                      AtomicLong v = new AtomicLong();
                      registry.register("measuredRate." + l, (Gauge<Long>) v::get);
                      return v;
                    })
                .set(Math.round(r)));
  }

  /**
   * Records a stage's measured transfer phase and its two predictions (NaN values are skipped).
   *
   * @param phase measured, seconds
   * @param scheduled predicted as scheduled, seconds
   * @param dflt predicted as Spark's default, seconds
   */
  void recordStage(double phase, double scheduled, double dflt) {
    updateSeconds(transferPhaseMs, phase);
    updateSeconds(predictedScheduledMs, scheduled);
    updateSeconds(predictedDefaultMs, dflt);
  }

  private static void updateSeconds(Histogram h, double seconds) {
    if (!Double.isNaN(seconds)) {
      h.update(Math.round(seconds * 1000));
    }
  }

  void recordUtilisation(double u) {
    lastUtilisationBits.set(Double.doubleToLongBits(u));
    backboneUtilisationPermille.update(Math.round(u * 1000));
  }

  @Override
  public String sourceName() {
    return NAME;
  }

  @Override
  public MetricRegistry metricRegistry() {
    return registry;
  }
}
