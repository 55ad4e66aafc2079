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
    int nz = m.nonZeroCount();
    if (nz == 0) {
      return new Schedule(List.of());
    }
    // the non-zero cells in row-major order
    int[] src = new int[nz];
    int[] dst = new int[nz];
    double[] a = new double[nz];
    int c = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++, c++) {
        src[c] = i;
        dst[c] = m.nonZeroCol(i, x);
        a[c] = m.nonZeroAmount(i, x);
      }
    }
    // sort cells by amount: key = the amount's bits (positive doubles order like their bits)
    // with the low 31 bits replaced by the cell's rank in row-major order
    long[] packed = new long[nz];
    for (int e = 0; e < nz; e++) {
      packed[e] = ((Double.doubleToLongBits(a[e]) >>> 31) << 31) | e;
    }
    Arrays.sort(packed);
    int[] sendUsed = new int[m.rows()];
    int[] recvUsed = new int[cols];
    boolean[] taken = new boolean[nz];
    List<Transfer> first = new ArrayList<>();
    for (int r = nz - 1; r >= 0 && first.size() < p.k(); r--) {
      int e = (int) (packed[r] & ((1L << 31) - 1));
      int i = src[e];
      int j = dst[e];
      if (sendUsed[i] < p.senderPorts(i) && recvUsed[j] < p.receiverPorts(j)) {
        sendUsed[i]++;
        recvUsed[j]++;
        taken[e] = true;
        first.add(new Transfer(i, j, a[e]));
      }
    }
    List<Step> steps = new ArrayList<>(nz - first.size() + 1);
    steps.add(Step.of(first));
    for (int e = 0; e < nz; e++) {
      if (!taken[e]) {
        steps.add(Step.of(List.of(new Transfer(src[e], dst[e], a[e]))));
      }
    }
    return new Schedule(steps);
  }
}
