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
 * Largest-first batching without preemption, our fast strategy for large backbone-bound instances
 * (P/k above every node's w(v)/δ(v)): sort the transfers by amount, heaviest first; each step
 * takes, in that order, every transfer whose links all still have a free flow (on a plain platform:
 * its sender's and receiver's δ ports) until it holds k; its duration is its first (longest)
 * transfer. Transfers with similar amounts share steps, so the backbone time Σ k·duration stays
 * close to P and the step count close to m/k, the two terms of η when the backbone is the
 * bottleneck. On a {@link LinkNetwork} every link of a transfer's route counts (rack uplinks,
 * backbone directions, NICs), so a step fills the backbone from every rack that still has traffic
 * instead of being split after the fact.
 *
 * <p>Not a published algorithm; a variant of the heuristic on weights of the GGP/OGGP paper (Fig.
 * 10) that keeps the global sorted order instead of recomputing a maximum matching per step. O(m
 * log m) for the sort plus, per step, a scan of the remaining list until k transfers are found
 * (near k on dense graphs, up to m on skewed ones), each candidate costing its route length. A
 * step's scan stops early once a full link carries every remaining transfer (one sender left, one
 * rack left), so a single row or column costs O(m) in all rather than O(m²).
 */
final class SortedBatching {
  private SortedBatching() {}

  /**
   * @param m traffic matrix, seconds
   * @param p platform (k, δ)
   * @return a valid schedule with every transfer in one piece
   */
  static Schedule schedule(TrafficMatrix m, Platform p) {
    return batchInPieces(m, p, Double.POSITIVE_INFINITY).toSchedule();
  }

  /**
   * Largest-first batching of the transfers cut into pieces (preemption): a transfer longer than
   * {@code maxPiece} becomes ⌈a / maxPiece⌉ pieces, all of exactly {@code maxPiece} but the last
   * (the rest, in (0, maxPiece]); pieces are then batched like whole transfers, and two pieces of
   * one pair never share a step (on a δ-port platform a pair could otherwise take two ports). The
   * full pieces of all pairs have one amount, so they fill steps of k without idle time; they are
   * laid out round by round (each split pair's first piece, then each one's second), so a step's
   * scan meets pieces of different pairs in turn instead of a run of one pair's.
   *
   * @param m traffic matrix, seconds
   * @param p platform (k, δ)
   * @param maxPiece longest piece, seconds, &gt; 0 ({@code +∞}: every transfer whole)
   * @return the batches, to price ({@link Batches#cost}) or build ({@link Batches#toSchedule})
   */
  static Batches batchInPieces(TrafficMatrix m, Platform p, double maxPiece) {
    int rows = m.rows();
    int cols = m.cols();
    int split = 0;
    int pieces = 0;
    // the non-zero cells in row-major order: a zero cell has no piece
    for (int i = 0; i < rows; i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        int n = pieceCount(m.nonZeroAmount(i, x), maxPiece);
        pieces += n;
        split += n > 1 ? 1 : 0;
      }
    }
    int ports = rows + cols;
    int[] capacity = new int[ports + split];
    for (int i = 0; i < rows; i++) {
      capacity[i] = p.senderPorts(i);
    }
    for (int j = 0; j < cols; j++) {
      capacity[rows + j] = p.receiverPorts(j);
    }
    Arrays.fill(capacity, ports, capacity.length, 1); // one piece of a split pair per step
    double[] amount = new double[pieces];
    int[] src = new int[pieces];
    int[] dst = new int[pieces];
    int[] pairLink = new int[pieces];
    int[] fullLeft = new int[split]; // per split pair: full pieces still to lay out
    int[] splitSrc = new int[split];
    int[] splitDst = new int[split];
    int c = 0;
    int s = 0;
    for (int i = 0; i < rows; i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        int j = m.nonZeroCol(i, x);
        double a = m.nonZeroAmount(i, x);
        int n = pieceCount(a, maxPiece);
        if (n == 0) {
          continue;
        }
        src[c] = i;
        dst[c] = j;
        pairLink[c] = -1;
        amount[c] = a;
        if (n > 1) {
          amount[c] = a - (n - 1) * maxPiece; // the rest; the full pieces follow by rounds
          pairLink[c] = ports + s;
          fullLeft[s] = n - 1;
          splitSrc[s] = i;
          splitDst[s] = j;
          s++;
        }
        c++;
      }
    }
    for (boolean more = split > 0; more; ) {
      more = false;
      for (int t = 0; t < split; t++) {
        if (fullLeft[t] > 0) {
          src[c] = splitSrc[t];
          dst[c] = splitDst[t];
          pairLink[c] = ports + t;
          amount[c++] = maxPiece;
          more |= --fullLeft[t] > 0;
        }
      }
    }
    int[] ports2 = new int[2];
    int[] ports3 = new int[3];
    return batch(
        amount,
        src,
        dst,
        p.k(),
        capacity,
        x -> {
          int[] route = pairLink[x] < 0 ? ports2 : ports3;
          route[0] = src[x];
          route[1] = rows + dst[x];
          if (pairLink[x] >= 0) {
            route[2] = pairLink[x];
          }
          return route;
        });
  }

  /**
   * @param amount a transfer's amount, seconds (0: none)
   * @param maxPiece longest piece, seconds
   * @return the pieces it is cut into (0 for no transfer), as a double (no overflow); a rest below
   *     a millionth of a piece (rounding of a/maxPiece) is not made a piece of its own
   */
  static double pieces(double amount, double maxPiece) {
    if (amount <= 0) {
      return 0;
    }
    return amount <= maxPiece ? 1 : Math.ceil(amount / maxPiece - 1e-6);
  }

  /**
   * @return {@link #pieces} as an int
   * @throws IllegalArgumentException beyond {@code Integer.MAX_VALUE} pieces
   */
  private static int pieceCount(double amount, double maxPiece) {
    double n = pieces(amount, maxPiece);
    if (n >= Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "piece of "
              + maxPiece
              + " s cuts a transfer of "
              + amount
              + " s into more than "
              + Integer.MAX_VALUE
              + " pieces");
    }
    return (int) n;
  }

  /**
   * @param m traffic matrix, seconds (rows = the network's senders, columns = its receivers)
   * @param p platform: k bounds every step
   * @param net links and capacities in flows, including the platform's δ links if they apply (see
   *     {@link LinkNetwork#constrainedBy})
   * @return a schedule with every transfer in one piece in which no step has more than k transfers
   *     or more flows on a link than its capacity
   */
  static Schedule schedule(TrafficMatrix m, Platform p, LinkNetwork net) {
    int[] capacity = new int[net.linkCount()];
    Arrays.setAll(capacity, net::capacity);
    int nz = m.nonZeroCount();
    double[] amount = new double[nz];
    int[] src = new int[nz];
    int[] dst = new int[nz];
    int c = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        src[c] = i;
        dst[c] = m.nonZeroCol(i, x);
        amount[c++] = m.nonZeroAmount(i, x);
      }
    }
    return batch(amount, src, dst, p.k(), capacity, x -> net.route(src[x], dst[x])).toSchedule();
  }

  /** The links piece x uses (read at once, may be reused). */
  @FunctionalInterface
  private interface Routes {
    int[] of(int x);
  }

  /**
   * The steps of one batching, before they are made a {@link Schedule}: pieces in scan order
   * (amount descending) and, per step, the positions it took.
   */
  static final class Batches {
    private final double[] amount;
    private final int[] src;
    private final int[] dst;
    private final int[] taken;
    private final int[] stepEnd;
    private final int steps;

    private Batches(double[] amount, int[] src, int[] dst, int[] taken, int[] stepEnd, int steps) {
      this.amount = amount;
      this.src = src;
      this.dst = dst;
      this.taken = taken;
      this.stepEnd = stepEnd;
      this.steps = steps;
    }

    /**
     * @param beta setup delay per step, seconds
     * @return Σ over steps of β + the step's longest piece, seconds (the schedule's cost)
     */
    double cost(double beta) {
      double cost = 0;
      int from = 0;
      for (int s = 0; s < steps; s++) {
        cost += beta + amount[taken[from]]; // a step's first piece is its longest
        from = stepEnd[s];
      }
      return cost;
    }

    /**
     * @return the schedule: one step per batch, each piece a transfer
     */
    Schedule toSchedule() {
      List<Step> out = new ArrayList<>(steps);
      int from = 0;
      for (int s = 0; s < steps; s++) {
        List<Transfer> ts = new ArrayList<>(stepEnd[s] - from);
        for (int x = from; x < stepEnd[s]; x++) {
          int i = taken[x];
          ts.add(new Transfer(src[i], dst[i], amount[i]));
        }
        out.add(new Step(amount[taken[from]], ts));
        from = stepEnd[s];
      }
      return new Schedule(out);
    }
  }

  private static Batches batch(
      double[] pieceAmount, int[] pieceSrc, int[] pieceDst, int k, int[] capacity, Routes routes) {
    int nz = pieceAmount.length;
    // lay the pieces and their routes out in scan order: each step's scan reads memory in order
    int[] order = byAmountDescending(pieceAmount);
    double[] sortedAmount = new double[nz];
    int[] sortedSrc = new int[nz];
    int[] sortedDst = new int[nz];
    int[] start = new int[nz + 1];
    int[] links = new int[2 * nz];
    int[] onLink = new int[capacity.length]; // pieces still in the list that use each link
    for (int pos = 0; pos < nz; pos++) {
      int e = order[pos];
      sortedAmount[pos] = pieceAmount[e];
      sortedSrc[pos] = pieceSrc[e];
      sortedDst[pos] = pieceDst[e];
      int[] r = routes.of(e);
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
    int[] taken = new int[nz];
    int[] stepEnd = new int[Math.max(1, nz)];
    int tookAll = 0;
    int stepNo = 0;
    while (head < nz) {
      stepNo++;
      int first = tookAll;
      boolean blocked = false;
      for (int i = head; i < nz && tookAll - first < k && !blocked; i = next[i]) {
        if (!fits(i, start, links, use, stamp, stepNo, capacity)) {
          continue;
        }
        for (int x = start[i]; x < start[i + 1]; x++) {
          int l = links[x];
          use[l] = stamp[l] == stepNo ? use[l] + 1 : 1;
          stamp[l] = stepNo;
          // a full link that every listed piece uses leaves nothing else for this step
          blocked |= use[l] >= capacity[l] && onLink[l] == listed;
        }
        taken[tookAll++] = i;
      }
      for (int t = first; t < tookAll; t++) {
        int i = taken[t];
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
      stepEnd[stepNo - 1] = tookAll;
    }
    return new Batches(sortedAmount, sortedSrc, sortedDst, taken, stepEnd, stepNo);
  }

  private static boolean fits(
      int i, int[] start, int[] links, int[] use, int[] stamp, int stepNo, int[] capacity) {
    for (int x = start[i]; x < start[i + 1]; x++) {
      int l = links[x];
      if (stamp[l] == stepNo && use[l] >= capacity[l]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Indices of {@code amount} (positive, finite) sorted by amount descending, ties by index: an LSD
   * radix sort on the IEEE bits (order-preserving for positive doubles), O(8·n).
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
