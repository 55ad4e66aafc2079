package io.wanshuffle.spark.measure;

/**
 * One transfer of a plan, in plan order, as the prediction runs it.
 *
 * @param srcHost sending host
 * @param dstHost receiving host
 * @param bytes bytes it moves
 */
public record PlannedFlow(String srcHost, String dstHost, long bytes) {}
