package io.wanshuffle.spark.coordinator.event;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.function.Supplier;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * What a {@link CoordinatorListener} learns when the coordinator starts.
 *
 * @param sparkConf the application's configuration
 * @param conf the validated wan-shuffle configuration (algorithm, β, deadlines)
 * @param links the links flows cross, their capacities and the base speed (k and δ as links)
 * @param sparkContext the running context, for posting listener events and registering metric
 *     sources; null when the coordinator runs without Spark (unit tests)
 * @param network the coordinator's measurement of the network from its realised flows so far (β,
 *     bytes/s, per-link rates; computed once per new flow and shared by every reader), or null when
 *     the info does not come from a running coordinator
 */
public record CoordinatorInfo(
    SparkConf sparkConf,
    WanShuffleConf conf,
    LinkModel links,
    SparkContext sparkContext,
    Supplier<NetworkEstimate> network) {

  /** The info without the coordinator's measurement ({@link #network()} null). */
  public CoordinatorInfo(
      SparkConf sparkConf, WanShuffleConf conf, LinkModel links, SparkContext sparkContext) {
    this(sparkConf, conf, links, sparkContext, null);
  }

  /**
   * @param n the coordinator's measurement of the network
   * @return this info with it
   */
  public CoordinatorInfo withNetwork(Supplier<NetworkEstimate> n) {
    return new CoordinatorInfo(sparkConf, conf, links, sparkContext, n);
  }
}
