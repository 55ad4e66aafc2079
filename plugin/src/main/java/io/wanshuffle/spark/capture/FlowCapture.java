package io.wanshuffle.spark.capture;

/**
 * One realised cross-cluster flow: what one reduce task attempt fetched from one source host in
 * one step. A line of the flow log ({@code flows.csv}).
 *
 * @param stepId the step that granted it; 0 when the fetch was not gated (algorithm
 *     {@code none}, or the fallback after the coordinator could not be reached)
 * @param stageId reduce stage id
 * @param stageAttempt reduce stage attempt
 * @param shuffleId shuffle read
 * @param taskAttemptId Spark task attempt id of the reduce task
 * @param srcHost sending host (where the map output lives)
 * @param dstHost receiving host (where the reduce task runs)
 * @param bytes bytes fetched from {@code srcHost} in this step
 * @param startMs when the task started fetching this step, epoch ms (executor clock)
 * @param endMs when the last block of this step arrived, epoch ms (executor clock)
 */
public record FlowCapture(long stepId, int stageId, int stageAttempt, int shuffleId,
    long taskAttemptId, String srcHost, String dstHost, long bytes, long startMs, long endMs) {}
