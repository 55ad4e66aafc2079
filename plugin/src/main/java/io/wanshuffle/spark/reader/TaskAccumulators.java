package io.wanshuffle.spark.reader;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.io.Serializable;
import org.apache.spark.SparkContext;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.util.LongAccumulator;

/**
 * The two named accumulators of the reduce tasks' gated reads, shown per task and per stage on
 * Spark's stage page: {@value #GRANT_WAIT} (the time a task blocked waiting for grants, ms) and
 * {@value #GATED_BYTES} (cross-site bytes it fetched inside granted steps). Registered once on the
 * driver ({@link #register}); they reach every task inside the shuffle handle (Spark registers an
 * accumulator with the task that deserialises it) and Spark merges the tasks' values back on the
 * driver, where the source {@value #SOURCE} shows the application's totals to the driver's metrics
 * sinks.
 *
 * @param grantWaitMs grant wait, ms
 * @param gatedBytes gated bytes
 */
public record TaskAccumulators(LongAccumulator grantWaitMs, LongAccumulator gatedBytes)
    implements Serializable {
  /** Name of the grant-wait accumulator. */
  public static final String GRANT_WAIT = "wan-shuffle grant wait (ms)";

  /** Name of the gated-bytes accumulator. */
  public static final String GATED_BYTES = "wan-shuffle gated bytes";

  /** Driver source of the accumulators' totals. */
  public static final String SOURCE = "wanShuffleTasks";

  /**
   * Registers the accumulators with the context and their totals as the driver source {@value
   * #SOURCE} (gauges {@code grantWaitMs} and {@code gatedBytes}).
   *
   * @param sc the running context (driver)
   * @return the registered accumulators
   */
  public static TaskAccumulators register(SparkContext sc) {
    TaskAccumulators a =
        new TaskAccumulators(sc.longAccumulator(GRANT_WAIT), sc.longAccumulator(GATED_BYTES));
    MetricRegistry registry = new MetricRegistry();
    registry.register("grantWaitMs", (Gauge<Long>) () -> a.grantWaitMs().sum());
    registry.register("gatedBytes", (Gauge<Long>) () -> a.gatedBytes().sum());
    sc.env()
        .metricsSystem()
        .registerSource(
            new Source() {
              @Override
              public String sourceName() {
                return SOURCE;
              }

              @Override
              public MetricRegistry metricRegistry() {
                return registry;
              }
            });
    return a;
  }

  /** A shuffle handle that carries the accumulators to its tasks. */
  public interface Carrier {
    /**
     * @return the accumulators
     */
    TaskAccumulators accumulators();
  }
}
