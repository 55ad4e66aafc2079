package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * One-way: a reduce task's shuffle read has no cross-cluster blocks (every block it reads is on its
 * own cluster, or it reads nothing), so it will not register a demand for that read.
 *
 * <p>Why: while the coordinator gathers a wave of reduce tasks to plan them together, it waits for
 * every launched task of the stage to register or end; a task with nothing to fetch across the
 * backbone would otherwise hold the wave until the gather window passes, and count as a receiver
 * about to register (for which a free flow may be kept).
 *
 * @param stageId the task's stage
 * @param stageAttempt the stage attempt
 * @param taskAttemptId Spark's task attempt id
 * @param host the task's host
 */
public record NoCrossClusterDemand(int stageId, int stageAttempt, long taskAttemptId, String host)
    implements Serializable {}
