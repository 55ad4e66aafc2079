package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * One-way: the task of a demand ended (success, failure or kill) before its demand was complete;
 * the coordinator frees its flows and drops its residual demand.
 *
 * @param demandId the demand
 * @param reason short reason for the log and the capture, e.g. {@code task-end}
 */
public record ReleaseDemand(long demandId, String reason) implements Serializable {}
