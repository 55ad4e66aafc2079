package io.wanshuffle.scheduler.online;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fast re-planning fallback (the Spark plugin's {@code
 * spark.wanshuffle.planning.fallback=greedy}): the plugin's coordinator grants only the first step
 * of a plan and re-plans at the next boundary, so this scheduler spends its effort on the first
 * step only.
 *
 * <p>First step: the largest-first greedy maximal b-matching of the traffic matrix (pairs sorted by
 * amount, descending; a pair is taken whole while fewer than k are taken and its sender and
 * receiver have a free port, δ). Greedy is a 1/2-approximation of the maximum-weight matching
 * (Avis, "A survey of heuristics for the weighted matching problem", Networks 13, 1983), the
 * quantity the GGP/OGGP step selection maximises (Bampis et al., sec. 5). The remaining transfers
 * follow one per step, which keeps the whole schedule valid ({@link Schedule#validate}) but is not
 * meant to be run: it is replaced by the next re-plan. Non-preemptive (every transfer whole).
 *
 * <p>Time O(e log e) for e non-zero pairs (one sort of primitive keys), memory O(e); measured in
 * {@code docs/benchmarks/replan.md} ({@code ./wan-shuffle bench replan}).
 */
public final class GreedyFirstStep implements StepScheduler {
  /** Name used in the configuration and in plan events. */
  public static final String NAME = "greedy";

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param m traffic matrix, seconds at base speed
   * @param p platform: k, β, δ per sender and receiver
   * @return the greedy first step followed by the other transfers one per step; empty for an
   *     all-zero matrix
   * @throws IllegalArgumentException if the platform does not fit the matrix
   */
  @Override
  public Schedule schedule(TrafficMatrix m, Platform p) {
    p.requireShape(m);
    int cols = m.cols();
    double[] a = m.toRowMajor();
    int nz = 0;
    for (double v : a) {
      if (v > 0) {
        nz++;
      }
    }
    if (nz == 0) {
      return new Schedule(List.of());
    }
    // sort cells by amount: key = the amount's bits (positive doubles order like their bits)
    // with the low 31 bits replaced by the cell's rank in row-major order
    int[] cell = new int[nz];
    int c = 0;
    for (int e = 0; e < a.length; e++) {
      if (a[e] > 0) {
        cell[c++] = e;
      }
    }
    long[] packed = new long[nz];
    for (int i = 0; i < nz; i++) {
      packed[i] = ((Double.doubleToLongBits(a[cell[i]]) >>> 31) << 31) | i;
    }
    Arrays.sort(packed);
    int[] sendUsed = new int[m.rows()];
    int[] recvUsed = new int[cols];
    boolean[] taken = new boolean[nz];
    List<Transfer> first = new ArrayList<>();
    for (int r = nz - 1; r >= 0 && first.size() < p.k(); r--) {
      int idx = (int) (packed[r] & ((1L << 31) - 1));
      int e = cell[idx];
      int i = e / cols;
      int j = e % cols;
      if (sendUsed[i] < p.senderPorts(i) && recvUsed[j] < p.receiverPorts(j)) {
        sendUsed[i]++;
        recvUsed[j]++;
        taken[idx] = true;
        first.add(new Transfer(i, j, a[e]));
      }
    }
    List<Step> steps = new ArrayList<>(nz - first.size() + 1);
    steps.add(Step.of(first));
    for (int idx = 0; idx < nz; idx++) {
      if (!taken[idx]) {
        int e = cell[idx];
        steps.add(Step.of(List.of(new Transfer(e / cols, e % cols, a[e]))));
      }
    }
    return new Schedule(steps);
  }
}
