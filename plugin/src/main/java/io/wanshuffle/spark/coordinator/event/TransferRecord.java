package io.wanshuffle.spark.coordinator.event;

import java.util.List;

/**
 * What one reduce task fetched from other clusters in one step (or, when gating is off, in its
 * whole read).
 *
 * @param stepId the step, or 0 when the fetch was not gated (algorithm {@code none} or fallback)
 * @param stage stage attempt of the task
 * @param shuffleId shuffle read
 * @param taskAttemptId the task attempt
 * @param dstHost receiving host
 * @param srcHosts source hosts, one per entry of {@code bytes}
 * @param bytes bytes fetched from each source host
 * @param startMs when the task started the fetch (executor clock, epoch ms)
 * @param endMs when the last block of the fetch was received (executor clock, epoch ms)
 * @param handedOnMs when the task gave the step's ports back to the coordinator (executor clock,
 *     epoch ms): {@code endMs} when the step was reported on arrival or when read; earlier when it
 *     was reported ahead of its end (predicted hand-over), so that the next flow's first byte meets
 *     this one's last; {@code startMs <= handedOnMs <= endMs}
 * @param stalledMs when the task reported the step stalled (its requested bytes did not advance for
 *     {@code spark.wanshuffle.flow.stallTimeout}; it then handed its ports back at {@code
 *     handedOnMs}): how long they had not advanced, ms; 0 for a flow that did not stall. A stalled
 *     flow's time span includes the stall, so it measures no rate.
 */
public record TransferRecord(
    long stepId,
    StageRef stage,
    int shuffleId,
    long taskAttemptId,
    String dstHost,
    List<String> srcHosts,
    long[] bytes,
    long startMs,
    long endMs,
    long handedOnMs,
    long stalledMs) {

  /**
   * A flow that did not stall ({@code stalledMs = 0}); the parameters are the record's.
   *
   * @param stepId the step, or 0 when the fetch was not gated
   * @param stage stage attempt of the task
   * @param shuffleId shuffle read
   * @param taskAttemptId the task attempt
   * @param dstHost receiving host
   * @param srcHosts source hosts, one per entry of {@code bytes}
   * @param bytes bytes fetched from each source host
   * @param startMs when the task started the fetch, epoch ms
   * @param endMs when the last block of the fetch was received, epoch ms
   * @param handedOnMs when the task gave the step's ports back, epoch ms
   */
  public TransferRecord(
      long stepId,
      StageRef stage,
      int shuffleId,
      long taskAttemptId,
      String dstHost,
      List<String> srcHosts,
      long[] bytes,
      long startMs,
      long endMs,
      long handedOnMs) {
    this(
        stepId,
        stage,
        shuffleId,
        taskAttemptId,
        dstHost,
        srcHosts,
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
}
