package io.wanshuffle.spark.capture;

import java.util.List;

/**
 * One granted step as it was realised.
 *
 * @param stepId step number (increasing over the application from 1)
 * @param planId the plan the step was taken from
 * @param flows the granted host pairs with their byte budgets
 * @param grantedAtMs grant time, epoch ms (driver clock)
 * @param deadlineMs deadline, epoch ms
 * @param endMs when the step was closed, epoch ms; 0 if the application ended first
 * @param deadlinePassed true if the deadline closed the step (some receiver had not reported)
 * @param realisedBytes bytes reported fetched under this step (all pairs)
 */
public record StepCapture(
    long stepId,
    long planId,
    List<Grant> flows,
    long grantedAtMs,
    long deadlineMs,
    long endMs,
    boolean deadlinePassed,
    long realisedBytes) {

  /** Copies {@code flows}. */
  public StepCapture {
    flows = List.copyOf(flows);
  }

  /**
   * One host pair of a step.
   *
   * @param srcHost sending host
   * @param dstHost receiving host
   * @param bytes byte budget of the pair in this step
   */
  public record Grant(String srcHost, String dstHost, long bytes) {}

  /**
   * @return the sum of the granted byte budgets
   */
  public long grantedBytes() {
    long s = 0;
    for (Grant g : flows) {
      s += g.bytes();
    }
    return s;
  }
}
