package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * One-way, for the capture: the last block of a step that the task reported ahead of its end
 * ({@link AwaitGrant#reportsAhead()}, predicted hand-over) has arrived. The coordinator then
 * records the step's realised transfer with this end time.
 *
 * @param demandId the demand
 * @param stepId the step reported ahead
 * @param reportedMs when the task reported the step ahead (handed its ports on), epoch ms, task's
 *     host clock
 * @param endMs when the step's last block arrived on the task's host, epoch ms
 * @param stalledMs the longest time the step's requested bytes went without advancing, when that
 *     reached {@code spark.wanshuffle.flow.stallTimeout} (the step was handed on ahead of its end,
 *     then stalled), ms; 0 otherwise: the flow then measures no rate
 */
public record FlowArrived(long demandId, long stepId, long reportedMs, long endMs, long stalledMs)
    implements Serializable {

  /**
   * The arrival of a step that did not stall ({@code stalledMs = 0}).
   *
   * @param demandId the demand
   * @param stepId the step reported ahead
   * @param reportedMs when the task reported the step ahead, epoch ms
   * @param endMs when the step's last block arrived, epoch ms
   */
  public FlowArrived(long demandId, long stepId, long reportedMs, long endMs) {
    this(demandId, stepId, reportedMs, endMs, 0);
  }
}
