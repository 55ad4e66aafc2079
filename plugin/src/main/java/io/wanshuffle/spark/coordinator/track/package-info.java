/**
 * The last role of the data path: a step assembled is granted to its demands ({@link
 * io.wanshuffle.spark.coordinator.track.StepGrants}), tracked while it runs with its deadline, and
 * closed as its receivers report ({@link io.wanshuffle.spark.coordinator.track.StepTracker}).
 */
package io.wanshuffle.spark.coordinator.track;
