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
 *   <li>{@code plans} counter; {@code planTimeMicros} histogram: scheduler time per plan, µs
 *   <li>{@code stepBytes} histogram: bytes realised per step
 *   <li>{@code stepDurationMs} histogram: grant to end of each step, ms
 *   <li>{@code backboneUtilisationPermille} histogram and {@code backboneUtilisation} gauge (last
 *       step): realised bytes / (backbone rate x step duration), per mille and as a fraction
 *   <li>{@code grantWaitMs} histogram: from a task's demand registration to its first grant, ms
 *   <li>{@code demands} counter; {@code registeredBytes}, {@code realisedBytes}, {@code
 *       ungatedBytes} counters: cross-cluster bytes registered, fetched under grants and fetched
 *       ungated (algorithm {@code none} or fallback)
 * </ul>
 */
public final class WanShuffleMetricsSource implements Source {
  /** Source name in Spark's metrics system. */
  public static final String NAME = "wanShuffle";

  private final MetricRegistry registry = new MetricRegistry();
  final Counter steps = registry.counter("steps");
  final Counter stepsClosedByDeadline = registry.counter("stepsClosedByDeadline");
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
  private final AtomicLong lastUtilisationBits = new AtomicLong(Double.doubleToLongBits(0));

  /** Creates the source with all metrics at zero. */
  public WanShuffleMetricsSource() {
    registry.register(
        "backboneUtilisation",
        (Gauge<Double>) () -> Double.longBitsToDouble(lastUtilisationBits.get()));
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
