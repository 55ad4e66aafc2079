package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.config.WanShuffleConf;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * What a {@link CoordinatorListener} learns when the coordinator starts.
 *
 * @param sparkConf the application's configuration
 * @param conf the validated wan-shuffle configuration (algorithm, k, β, rates, deadlines)
 * @param sparkContext the running context, for posting listener events and registering metric
 *     sources; null when the coordinator runs without Spark (unit tests)
 */
public record CoordinatorInfo(
    SparkConf sparkConf, WanShuffleConf conf, SparkContext sparkContext) {}
