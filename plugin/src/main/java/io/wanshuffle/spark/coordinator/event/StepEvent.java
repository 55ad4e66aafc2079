package io.wanshuffle.spark.coordinator.event;

import java.util.List;

/**
 * One granted step.
 *
 * @param stepId step number, increasing over the application from 1
 * @param planId the plan it was taken from
 * @param flows the host pairs of the step with their byte budgets (at most k, at most δ(h) per
 *     host, counting flows still open from earlier steps)
 * @param taskAttemptIds the task attempts that received a part of this step
 * @param grantedAtMs grant time, epoch ms
 * @param deadlineMs time at which the step is closed even if receivers have not reported
 */
public record StepEvent(
    long stepId,
    long planId,
    List<FlowGrant> flows,
    long[] taskAttemptIds,
    long grantedAtMs,
    long deadlineMs) {}
