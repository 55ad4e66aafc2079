package io.wanshuffle.spark.coordinator.event;

/**
 * One host pair of a step: a cross-cluster flow from {@code srcHost} to {@code dstHost} with a byte
 * budget shared by the receiving tasks on {@code dstHost}.
 *
 * @param srcHost sending host
 * @param dstHost receiving host
 * @param bytes byte budget of the pair in this step (the scheduler's amount in seconds times the
 *     base speed); tasks fetch whole blocks, so realised bytes may exceed it by less than one block
 *     per task
 */
public record FlowGrant(String srcHost, String dstHost, long bytes) {}
