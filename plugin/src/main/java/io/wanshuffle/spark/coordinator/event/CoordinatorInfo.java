package io.wanshuffle.spark.coordinator.event;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.topology.LinkModel;
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
 */
public record CoordinatorInfo(
    SparkConf sparkConf, WanShuffleConf conf, LinkModel links, SparkContext sparkContext) {}
