package io.wanshuffle.spark.capture;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import java.util.ArrayList;
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
   * @param e a plan the coordinator computed
   * @return its capture: the plan's steps as sender, receiver and seconds arrays (none when it has
   *     no schedule), k and β of its platform (0 without one)
   */
  public static PlanCapture of(PlanEvent e) {
    List<PlanCapture.PlannedStep> ps = new ArrayList<>();
    Schedule s = e.schedule();
    if (s != null) {
      for (Step st : s.steps()) {
        List<Transfer> ts = st.transfers();
        int[] src = new int[ts.size()];
        int[] dst = new int[ts.size()];
        double[] sec = new double[ts.size()];
        for (int i = 0; i < ts.size(); i++) {
          src[i] = ts.get(i).src();
          dst[i] = ts.get(i).dst();
          sec[i] = ts.get(i).amount();
        }
        ps.add(new PlanCapture.PlannedStep(st.duration(), src, dst, sec));
      }
    }
    int pk = e.platform() != null ? e.platform().k() : 0;
    double beta = e.platform() != null ? e.platform().beta() : 0;
    return new PlanCapture(
        e.planId(),
        e.atMs(),
        e.algorithm(),
        e.senders(),
        e.receivers(),
        e.residualBytes(),
        e.bytesPerSecond(),
        pk,
        beta,
        ps,
        e.planNanos());
  }

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
