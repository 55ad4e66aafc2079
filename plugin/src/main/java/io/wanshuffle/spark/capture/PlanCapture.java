package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.coordinator.ResidualBytes;
import java.util.List;

/**
 * A step plan the coordinator computed over the residual cross-cluster demand. Only its first step
 * is granted; later steps are re-planned at the next step boundary.
 *
 * @param planId plan number (increasing from 1)
 * @param atMs when it was computed, epoch ms
 * @param algorithm scheduler name
 * @param senders row hosts of {@code residualBytes}
 * @param receivers column hosts of {@code residualBytes}
 * @param residualBytes bytes still to move from {@code senders[i]} to {@code receivers[j]} ({@link
 *     ResidualBytes#bytesAt}(i, j)), as the matrix's non-zero cells
 * @param bytesPerSecond base speed (bytes/s) converting bytes to seconds
 * @param k most flows per step of the platform the plan was made for
 * @param betaSeconds step setup delay β, seconds
 * @param steps the planned steps
 * @param planNanos time spent planning, ns
 */
public record PlanCapture(
    long planId,
    long atMs,
    String algorithm,
    List<String> senders,
    List<String> receivers,
    ResidualBytes residualBytes,
    long bytesPerSecond,
    int k,
    double betaSeconds,
    List<PlannedStep> steps,
    long planNanos) {

  /** Copies the lists. */
  public PlanCapture {
    senders = List.copyOf(senders);
    receivers = List.copyOf(receivers);
    steps = List.copyOf(steps);
  }

  /**
   * One planned step in seconds at base speed.
   *
   * @param durationSeconds the step's duration (its longest transfer), seconds
   * @param src sender index of each transfer
   * @param dst receiver index of each transfer
   * @param seconds amount of each transfer, seconds at base speed
   */
  public record PlannedStep(double durationSeconds, int[] src, int[] dst, double[] seconds) {}

  /**
   * @return the plan's cost Σ (β + step duration), seconds
   */
  public double costSeconds() {
    double c = 0;
    for (PlannedStep s : steps) {
      c += betaSeconds + s.durationSeconds();
    }
    return c;
  }
}
