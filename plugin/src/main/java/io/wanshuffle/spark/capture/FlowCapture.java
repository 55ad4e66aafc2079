package io.wanshuffle.spark.capture;

/**
 * One realised cross-cluster flow: what one reduce task attempt fetched from one source host in one
 * step. A line of the flow log ({@code flows.csv}).
 *
 * @param stepId the step that granted it; 0 when the fetch was not gated (algorithm {@code none},
 *     or the fallback after the coordinator could not be reached)
 * @param stageId reduce stage id
 * @param stageAttempt reduce stage attempt
 * @param shuffleId shuffle read
 * @param taskAttemptId Spark task attempt id of the reduce task
 * @param srcHost sending host (where the map output lives)
 * @param dstHost receiving host (where the reduce task runs)
 * @param bytes bytes fetched from {@code srcHost} in this step
 * @param startMs when the task started fetching this step, epoch ms (executor clock)
 * @param endMs when the last block of this step arrived, epoch ms (executor clock)
 * @param handedOnMs when the task handed the step's ports back to the coordinator, epoch ms
 *     (executor clock): {@code endMs} when it reported the step on arrival or when read, earlier
 *     with predicted hand-over (the next flow is requested while this one's last bytes are in
 *     flight, so that its first byte meets them); 0 when not known (flow logs of version 1)
 * @param stalledMs how long the flow's requested bytes went without advancing when the task
 *     reported it stalled ({@code spark.wanshuffle.flow.stallTimeout}) and handed its ports back at
 *     {@code handedOnMs}, ms; 0 for a flow that did not stall (and in flow logs without the column)
 */
public record FlowCapture(
    long stepId,
    int stageId,
    int stageAttempt,
    int shuffleId,
    long taskAttemptId,
    String srcHost,
    String dstHost,
    long bytes,
    long startMs,
    long endMs,
    long handedOnMs,
    long stalledMs) {

  /**
   * A flow that did not stall ({@code stalledMs = 0}); the parameters are the record's.
   *
   * @param stepId the step that granted it, 0 when not gated
   * @param stageId reduce stage id
   * @param stageAttempt reduce stage attempt
   * @param shuffleId shuffle read
   * @param taskAttemptId Spark task attempt id of the reduce task
   * @param srcHost sending host
   * @param dstHost receiving host
   * @param bytes bytes fetched from {@code srcHost} in this step
   * @param startMs when the task started fetching this step, epoch ms
   * @param endMs when the last block of this step arrived, epoch ms
   * @param handedOnMs when the task handed the step's ports back, epoch ms; 0 when not known
   */
  public FlowCapture(
      long stepId,
      int stageId,
      int stageAttempt,
      int shuffleId,
      long taskAttemptId,
      String srcHost,
      String dstHost,
      long bytes,
      long startMs,
      long endMs,
      long handedOnMs) {
    this(
        stepId,
        stageId,
        stageAttempt,
        shuffleId,
        taskAttemptId,
        srcHost,
        dstHost,
        bytes,
        startMs,
        endMs,
        handedOnMs,
        0);
  }

  /**
   * @return true when the task reported this flow stalled
   */
  public boolean stalled() {
    return stalledMs > 0;
  }

  /**
   * @return until when the flow held its ports in the coordinator's count, epoch ms: {@code
   *     handedOnMs} when it is known (not 0) and lies in [{@code startMs}, {@code endMs}], else
   *     {@code endMs}
   */
  public long heldUntilMs() {
    return handedOnMs != 0 && handedOnMs >= startMs && handedOnMs <= endMs ? handedOnMs : endMs;
  }
}
