package io.wanshuffle.spark.reader;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import org.apache.spark.metrics.source.Source;

/**
 * The executor's reader figures in Spark's metrics system (source {@value #NAME}; metric names
 * {@code <app id>.<executor id>.wanShuffleReader.<metric>} in the executor's sinks), one per
 * executor, owned by its {@link ReaderContext}:
 *
 * <ul>
 *   <li>{@code gatedReads} counter: reduce-task reads whose cross-site blocks were gated
 *   <li>{@code grantWaitMs} histogram: per gated read, the time its task blocked waiting for
 *       grants, ms
 *   <li>{@code gatedBytes} counter: cross-site bytes fetched inside granted steps
 * </ul>
 */
public final class ReaderMetricsSource implements Source {
  /** Source name in Spark's metrics system. */
  public static final String NAME = "wanShuffleReader";

  private final MetricRegistry registry = new MetricRegistry();
  final Counter gatedReads = registry.counter("gatedReads");
  final Histogram grantWaitMs = registry.histogram("grantWaitMs");
  final Counter gatedBytes = registry.counter("gatedBytes");

  @Override
  public String sourceName() {
    return NAME;
  }

  @Override
  public MetricRegistry metricRegistry() {
    return registry;
  }
}
