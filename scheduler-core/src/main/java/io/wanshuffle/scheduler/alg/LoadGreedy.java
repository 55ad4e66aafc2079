package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A load-aware greedy step builder (our own; auto's candidate for node-bound instances, where
 * OGGP's steps are cut short by its virtual nodes). Each step ranks the remaining pairs by 2·(the
 * larger of its two nodes' remaining load w(v)/δ(v), relative to the current η_d) plus its
 * remaining amount relative to the largest, takes pairs in that order while their ports are free
 * (δ-port) up to k, and lasts the shortest, the median or the longest remaining amount of the
 * chosen pairs (one schedule per rule; every chosen pair sends min(remaining, duration)). Keeping
 * the critical nodes busy in every step is what the η_d term of the lower bound asks for.
 *
 * <p>O(steps · (m + k' log m)) where k' is the number of pairs looked at per step (k plus the ones
 * skipped for busy ports); at most m steps per rule when the duration is the shortest amount.
 */
final class LoadGreedy {
  /** Duration rules. */
  enum Rule {
    SHORTEST,
    MEDIAN,
    LONGEST
  }

  private LoadGreedy() {}

  /**
   * @param m traffic matrix, seconds
   * @param p platform
   * @param rule how long each step lasts
   * @return a valid schedule
   * @throws IllegalArgumentException with 2^20 transfers or more
   */
  static Schedule schedule(TrafficMatrix m, Platform p, Rule rule) {
    int rows = m.rows();
    int cols = m.cols();
    int nz = m.nonZeroCount();
    if (nz >= 1 << 20) {
      // Sort keys pack the pair index in 20 bits; auto calls this far below that size.
      throw new IllegalArgumentException(
          "load-aware greedy takes at most 2^20 transfers, got " + nz);
    }
    int[] src = new int[nz];
    int[] dst = new int[nz];
    double[] rem = new double[nz];
    int c = 0;
    for (int i = 0; i < rows; i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        src[c] = i;
        dst[c] = m.nonZeroCol(i, x);
        rem[c] = m.nonZeroAmount(i, x);
        c++;
      }
    }
    double[] sLoad = new double[rows];
    double[] rLoad = new double[cols];
    for (int e = 0; e < nz; e++) {
      sLoad[src[e]] += rem[e];
      rLoad[dst[e]] += rem[e];
    }
    int k = p.k();
    int[] sPorts = new int[rows];
    int[] rPorts = new int[cols];
    for (int i = 0; i < rows; i++) {
      sPorts[i] = p.senderPorts(i);
    }
    for (int j = 0; j < cols; j++) {
      rPorts[j] = p.receiverPorts(j);
    }
    int[] sUse = new int[rows];
    int[] rUse = new int[cols];
    int left = nz;
    double total = 0;
    for (double r : rem) {
      total += r;
    }
    List<Step> steps = new ArrayList<>();
    long[] keys = new long[nz];
    int[] chosen = new int[Math.min(k, nz)]; // a step has at most k transfers and at most nz
    double[] amounts = new double[chosen.length];
    while (left > 0) {
      double maxLoad = total / k;
      double maxRem = 0;
      for (int i = 0; i < rows; i++) {
        maxLoad = Math.max(maxLoad, sLoad[i] / sPorts[i]);
      }
      for (int j = 0; j < cols; j++) {
        maxLoad = Math.max(maxLoad, rLoad[j] / rPorts[j]);
      }
      int live = 0;
      for (int e = 0; e < nz; e++) {
        if (rem[e] > 0) {
          maxRem = Math.max(maxRem, rem[e]);
        }
      }
      for (int e = 0; e < nz; e++) {
        if (rem[e] <= 0) {
          continue;
        }
        double load = Math.max(sLoad[src[e]] / sPorts[src[e]], rLoad[dst[e]] / rPorts[dst[e]]);
        double prio = 2 * load / maxLoad + rem[e] / maxRem; // in [0, 3]
        long q = (long) ((3.0 - prio) * (1L << 40));
        keys[live++] = (Math.max(0, q) << 20) | e;
      }
      // Best pairs first: a min-heap on the keys, popped until k pairs are chosen (O(m + pops log
      // m) per step instead of a full sort).
      for (int i = live / 2 - 1; i >= 0; i--) {
        siftDown(keys, i, live);
      }
      Arrays.fill(sUse, 0);
      Arrays.fill(rUse, 0);
      int cnt = 0;
      int heapSize = live;
      while (heapSize > 0 && cnt < k) {
        long top = keys[0];
        keys[0] = keys[--heapSize];
        siftDown(keys, 0, heapSize);
        int e = (int) (top & ((1 << 20) - 1));
        if (sUse[src[e]] < sPorts[src[e]] && rUse[dst[e]] < rPorts[dst[e]]) {
          sUse[src[e]]++;
          rUse[dst[e]]++;
          chosen[cnt++] = e;
        }
      }
      for (int t = 0; t < cnt; t++) {
        amounts[t] = rem[chosen[t]];
      }
      Arrays.sort(amounts, 0, cnt);
      double d =
          switch (rule) {
            case SHORTEST -> amounts[0];
            case MEDIAN -> amounts[cnt / 2];
            case LONGEST -> amounts[cnt - 1];
          };
      List<Transfer> ts = new ArrayList<>(cnt);
      for (int t = 0; t < cnt; t++) {
        int e = chosen[t];
        double a = Math.min(rem[e], d);
        // Avoid leaving a sliver below the floating-point noise of the amounts.
        if (rem[e] - a <= 1e-12 * Math.max(1, rem[e])) {
          a = rem[e];
        }
        ts.add(new Transfer(src[e], dst[e], a));
        rem[e] -= a;
        sLoad[src[e]] -= a;
        rLoad[dst[e]] -= a;
        total -= a;
        if (rem[e] <= 0) {
          rem[e] = 0;
          left--;
        }
      }
      steps.add(Step.of(ts));
    }
    return new Schedule(steps);
  }

  private static void siftDown(long[] h, int i, int size) {
    long v = h[i];
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && h[c + 1] < h[c]) {
        c++;
      }
      if (h[c] >= v) {
        break;
      }
      h[i] = h[c];
      i = c;
    }
    h[i] = v;
  }
}
