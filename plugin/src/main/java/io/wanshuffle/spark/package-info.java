/**
 * wan-shuffle's Spark shuffle manager: {@link io.wanshuffle.spark.WanShuffleManager} writes map
 * output as Spark's sort shuffle does and, on the reduce side, fetches same-cluster blocks at once
 * and cross-cluster blocks only inside steps granted by the driver's step coordinator.
 */
package io.wanshuffle.spark;
