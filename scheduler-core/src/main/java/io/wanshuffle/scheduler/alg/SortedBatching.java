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
    int[] order = byAmountDescending(amount);
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
    int[] sPorts = new int[rows];
    int[] rPorts = new int[cols];
    for (int i = 0; i < rows; i++) {
      sPorts[i] = p.senderPorts(i);
    }
    for (int j = 0; j < cols; j++) {
      rPorts[j] = p.receiverPorts(j);
    }
    List<Step> steps = new ArrayList<>();
    int stepNo = 0;
    int[] chosen = new int[Math.min(k, nz)]; // a step has at most k transfers and at most nz
    while (head < nz) {
      stepNo++;
      int cnt = 0;
      for (int i = head; i < nz && cnt < k; i = next[i]) {
        int e = order[i];
        int s = src[e];
        int r = dst[e];
        int su = sStamp[s] == stepNo ? sUse[s] : 0;
        int ru = rStamp[r] == stepNo ? rUse[r] : 0;
        if (su >= sPorts[s] || ru >= rPorts[r]) {
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

  /**
   * Indices of {@code amount} (positive, finite) sorted by amount descending, ties by index: an
   * LSD radix sort on the IEEE bits (order-preserving for positive doubles), O(8·n).
   */
  static int[] byAmountDescending(double[] amount) {
    int n = amount.length;
    long[] key = new long[n];
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      key[i] = ~Double.doubleToLongBits(amount[i]) & Long.MAX_VALUE; // larger amount, smaller key
      idx[i] = i;
    }
    long[] key2 = new long[n];
    int[] idx2 = new int[n];
    int[] count = new int[257];
    for (int shift = 0; shift < 64; shift += 8) {
      java.util.Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) {
        count[(int) ((key[i] >>> shift) & 0xFF) + 1]++;
      }
      if (count[1] == n && shift > 0 && allZeroAbove(key, shift)) {
        break;
      }
      for (int b = 0; b < 256; b++) {
        count[b + 1] += count[b];
      }
      for (int i = 0; i < n; i++) {
        int b = (int) ((key[i] >>> shift) & 0xFF);
        int d = count[b]++;
        key2[d] = key[i];
        idx2[d] = idx[i];
      }
      long[] tk = key;
      key = key2;
      key2 = tk;
      int[] ti = idx;
      idx = idx2;
      idx2 = ti;
    }
    return idx;
  }

  private static boolean allZeroAbove(long[] key, int shift) {
    for (long k : key) {
      if ((k >>> shift) != 0) {
        return false;
      }
    }
    return true;
  }
}
