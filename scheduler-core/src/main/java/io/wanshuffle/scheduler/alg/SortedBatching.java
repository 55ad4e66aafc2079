package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.List;

/**
 * Largest-first batching without preemption, our fast strategy for large backbone-bound
 * instances (P/k above every node's w(v)/δ(v)): sort the transfers by amount, heaviest first;
 * each step takes, in that order, every transfer whose sender and receiver still have a free port
 * (δ-port) until it holds k; its duration is its first (longest) transfer. Transfers with similar
 * amounts share steps, so the backbone time Σ k·duration stays close to P and the step count close
 * to m/k, the two terms of η when the backbone is the bottleneck.
 *
 * <p>Not a published algorithm; a variant of the heuristic on weights of the GGP/OGGP paper (Fig.
 * 10) that keeps the global sorted order instead of recomputing a maximum matching per step.
 * O(m log m) for the sort plus, per step, a scan of the remaining list until k transfers are
 * found (near k on dense graphs, up to m on skewed ones).
 */
final class SortedBatching {
  private SortedBatching() {}

  /**
   * @param m traffic matrix, seconds
   * @param p platform (k, δ)
   * @return a valid schedule with every transfer in one piece
   */
  static Schedule schedule(TrafficMatrix m, Platform p) {
    int rows = m.rows();
    int cols = m.cols();
    int nz = m.nonZeroCount();
    double[] amount = new double[nz];
    int[] src = new int[nz];
    int[] dst = new int[nz];
    int c = 0;
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        double a = m.amount(i, j);
        if (a > 0) {
          src[c] = i;
          dst[c] = j;
          amount[c] = a;
          c++;
        }
      }
    }
    // Indices by amount descending, ties by index.
    Integer[] order = new Integer[nz];
    for (int e = 0; e < nz; e++) {
      order[e] = e;
    }
    java.util.Arrays.sort(order, (x, y) -> {
      int cmp = Double.compare(amount[y], amount[x]);
      return cmp != 0 ? cmp : Integer.compare(x, y);
    });
    int[] next = new int[nz + 1]; // linked list over sorted positions; nz = end
    int[] prev = new int[nz + 1];
    for (int i = 0; i < nz; i++) {
      next[i] = i + 1;
      prev[i + 1] = i;
    }
    int head = 0;
    int[] sUse = new int[rows];
    int[] rUse = new int[cols];
    int[] sStamp = new int[rows];
    int[] rStamp = new int[cols];
    int k = p.k();
    List<Step> steps = new ArrayList<>();
    int stepNo = 0;
    int[] chosen = new int[k];
    while (head < nz) {
      stepNo++;
      int cnt = 0;
      for (int i = head; i < nz && cnt < k; i = next[i]) {
        int e = order[i];
        int s = src[e];
        int r = dst[e];
        int su = sStamp[s] == stepNo ? sUse[s] : 0;
        int ru = rStamp[r] == stepNo ? rUse[r] : 0;
        if (su >= p.senderPorts(s) || ru >= p.receiverPorts(r)) {
          continue;
        }
        sStamp[s] = stepNo;
        rStamp[r] = stepNo;
        sUse[s] = su + 1;
        rUse[r] = ru + 1;
        chosen[cnt++] = i;
      }
      List<Transfer> ts = new ArrayList<>(cnt);
      for (int t = 0; t < cnt; t++) {
        int i = chosen[t];
        int e = order[i];
        ts.add(new Transfer(src[e], dst[e], amount[e]));
        // unlink i
        if (i == head) {
          head = next[i];
        } else {
          next[prev[i]] = next[i];
        }
        prev[next[i]] = prev[i];
      }
      steps.add(Step.of(ts));
    }
    return new Schedule(steps);
  }
}
