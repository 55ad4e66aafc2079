package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Largest-first batching without preemption, our fast strategy for large backbone-bound
 * instances (P/k above every node's w(v)/δ(v)): sort the transfers by amount, heaviest first;
 * each step takes, in that order, every transfer whose links all still have a free flow (on a
 * plain platform: its sender's and receiver's δ ports) until it holds k; its duration is its
 * first (longest) transfer. Transfers with similar amounts share steps, so the backbone time
 * Σ k·duration stays close to P and the step count close to m/k, the two terms of η when the
 * backbone is the bottleneck. On a {@link LinkNetwork} every link of a transfer's route counts
 * (rack uplinks, backbone directions, NICs), so a step fills the backbone from every rack that
 * still has traffic instead of being split after the fact.
 *
 * <p>Not a published algorithm; a variant of the heuristic on weights of the GGP/OGGP paper (Fig.
 * 10) that keeps the global sorted order instead of recomputing a maximum matching per step.
 * O(m log m) for the sort plus, per step, a scan of the remaining list until k transfers are
 * found (near k on dense graphs, up to m on skewed ones), each candidate costing its route length.
 * A step's scan stops early once a full link carries every remaining transfer (one sender left,
 * one rack left), so a single row or column costs O(m) in all rather than O(m²).
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
    int[] capacity = new int[rows + m.cols()];
    for (int i = 0; i < rows; i++) {
      capacity[i] = p.senderPorts(i);
    }
    for (int j = 0; j < m.cols(); j++) {
      capacity[rows + j] = p.receiverPorts(j);
    }
    int[] route = new int[2];
    return batch(m, p.k(), capacity, (i, j) -> {
      route[0] = i;
      route[1] = rows + j;
      return route;
    });
  }

  /**
   * @param m traffic matrix, seconds (rows = the network's senders, columns = its receivers)
   * @param p platform: k bounds every step
   * @param net links and capacities in flows, including the platform's δ links if they apply
   *     (see {@link LinkNetwork#constrainedBy})
   * @return a schedule with every transfer in one piece in which no step has more than k
   *     transfers or more flows on a link than its capacity
   */
  static Schedule schedule(TrafficMatrix m, Platform p, LinkNetwork net) {
    int[] capacity = new int[net.linkCount()];
    Arrays.setAll(capacity, net::capacity);
    return batch(m, p.k(), capacity, net::route);
  }

  /** The links a transfer between sender i and receiver j uses (read at once, may be reused). */
  @FunctionalInterface
  private interface Routes {
    int[] of(int i, int j);
  }

  private static Schedule batch(TrafficMatrix m, int k, int[] capacity, Routes routes) {
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
    // lay the transfers and their routes out in scan order: each step's scan reads memory in order
    int[] order = byAmountDescending(amount);
    double[] sortedAmount = new double[nz];
    int[] sortedSrc = new int[nz];
    int[] sortedDst = new int[nz];
    int[] start = new int[nz + 1];
    int[] links = new int[2 * nz];
    int[] onLink = new int[capacity.length]; // transfers still in the list that use each link
    for (int pos = 0; pos < nz; pos++) {
      int e = order[pos];
      sortedAmount[pos] = amount[e];
      sortedSrc[pos] = src[e];
      sortedDst[pos] = dst[e];
      int[] r = routes.of(src[e], dst[e]);
      int at = start[pos];
      if (at + r.length > links.length) {
        links = Arrays.copyOf(links, Math.max(2 * links.length, at + r.length));
      }
      for (int l : r) {
        links[at++] = l;
        onLink[l]++;
      }
      start[pos + 1] = at;
    }
    int[] next = new int[nz + 1]; // linked list over sorted positions; nz = end
    int[] prev = new int[nz + 1];
    for (int i = 0; i < nz; i++) {
      next[i] = i + 1;
      prev[i + 1] = i;
    }
    int head = 0;
    int listed = nz;
    int[] use = new int[capacity.length];
    int[] stamp = new int[capacity.length];
    List<Step> steps = new ArrayList<>();
    int stepNo = 0;
    int[] chosen = new int[Math.min(k, nz)]; // a step has at most k transfers and at most nz
    while (head < nz) {
      stepNo++;
      int cnt = 0;
      boolean blocked = false;
      for (int i = head; i < nz && cnt < k && !blocked; i = next[i]) {
        if (!fits(i, start, links, use, stamp, stepNo, capacity)) {
          continue;
        }
        for (int x = start[i]; x < start[i + 1]; x++) {
          int l = links[x];
          use[l] = stamp[l] == stepNo ? use[l] + 1 : 1;
          stamp[l] = stepNo;
          // a full link that every listed transfer uses leaves nothing else for this step
          blocked |= use[l] >= capacity[l] && onLink[l] == listed;
        }
        chosen[cnt++] = i;
      }
      List<Transfer> ts = new ArrayList<>(cnt);
      for (int t = 0; t < cnt; t++) {
        int i = chosen[t];
        ts.add(new Transfer(sortedSrc[i], sortedDst[i], sortedAmount[i]));
        for (int x = start[i]; x < start[i + 1]; x++) {
          onLink[links[x]]--;
        }
        listed--;
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

  private static boolean fits(int i, int[] start, int[] links, int[] use, int[] stamp,
      int stepNo, int[] capacity) {
    for (int x = start[i]; x < start[i + 1]; x++) {
      int l = links[x];
      if (stamp[l] == stepNo && use[l] >= capacity[l]) {
        return false;
      }
    }
    return true;
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
      Arrays.fill(count, 0);
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
