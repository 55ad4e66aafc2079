package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * DGGP, Delta Generic Graph Peeling (Jeannot, Wagner, "Messages scheduling for data redistribution
 * between heterogeneous clusters", sec. 3, Fig. 5): the δ-port extension of OGGP. Weights are
 * rounded up to whole quanta as in OGGP; every sender s is split into δ(s) copies (at most one per
 * edge of s: more would stay empty) that share w(s) equally (⌈w/δ⌉ or ⌊w/δ⌋ units each), its edges
 * dealt out heaviest first and cut where a copy's share runs out; then the receivers are split the
 * same way. OGGP ({@link Oggp}) peels the split graph, and merging the copies back gives steps
 * where node v takes part in at most δ(v) transfers. The paper states the 2-approximation (proof in
 * Wagner's thesis).
 *
 * <p>Two copies of one sender may meet two copies of one receiver in the same matching; the pieces
 * then become one transfer of their summed amount (one flow per pair and step), and the step lasts
 * as long as that transfer.
 *
 * <p>On a 1-port platform there is nothing to split and DGGP is OGGP (same schedule). Complexity:
 * O((m + k·n)^{5/2}) by the paper's count (n' ≤ min(k·n, 2m) nodes, m' ≤ m + k·n edges).
 */
public final class Dggp implements StepScheduler {
  /** Name in {@link Algorithms}. */
  public static final String NAME = "dggp";

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix seconds at base speed
   * @param platform k, β and δ per node
   * @return a valid δ-port schedule
   * @throws IllegalArgumentException if shapes differ
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    double q = Quantum.of(matrix, platform);
    if (platform.isOnePort()) {
      return GraphPeeling.peelMatrix(matrix, platform.k(), q, true);
    }
    Split s = split(matrix, platform, q);
    return GraphPeeling.peel(
        s.rows,
        s.cols,
        s.row,
        s.col,
        s.amount,
        s.pairRow,
        s.pairCol,
        matrix.cols(),
        platform.k(),
        q,
        true);
  }

  /** The split graph G' of Fig. 5: edges between node copies, each mapped to its matrix pair. */
  static final class Split {
    int rows;
    int cols;
    int[] row;
    int[] col;
    double[] amount;
    int[] pairRow;
    int[] pairCol;
    int size;

    Split(int cap) {
      row = new int[cap];
      col = new int[cap];
      amount = new double[cap];
      pairRow = new int[cap];
      pairCol = new int[cap];
    }

    void add(int r, int c, double a, int pr, int pc) {
      if (size == row.length) {
        int n = size * 2 + 4;
        row = Arrays.copyOf(row, n);
        col = Arrays.copyOf(col, n);
        amount = Arrays.copyOf(amount, n);
        pairRow = Arrays.copyOf(pairRow, n);
        pairCol = Arrays.copyOf(pairCol, n);
      }
      row[size] = r;
      col[size] = c;
      amount[size] = a;
      pairRow[size] = pr;
      pairCol[size] = pc;
      size++;
    }

    void trim() {
      row = Arrays.copyOf(row, size);
      col = Arrays.copyOf(col, size);
      amount = Arrays.copyOf(amount, size);
      pairRow = Arrays.copyOf(pairRow, size);
      pairCol = Arrays.copyOf(pairCol, size);
    }
  }

  /**
   * Fig. 5: splits senders, then receivers.
   *
   * @return G' with edge amounts in seconds (pieces of an edge are whole quanta except the last)
   */
  static Split split(TrafficMatrix m, Platform p, double q) {
    int rows = m.rows();
    int cols = m.cols();
    // Step 2: senders. Edges of G as (row, col, amount).
    Split senders = new Split(m.nonZeroCount() + rows);
    int[] firstCopy = new int[rows + 1];
    for (int i = 0; i < rows; i++) {
      firstCopy[i + 1] = firstCopy[i] + copies(p.senderPorts(i), m.rowDegree(i));
    }
    for (int i = 0; i < rows; i++) {
      int n = m.rowDegree(i);
      int[] cs = new int[n];
      double[] as = new double[n];
      for (int x = 0; x < n; x++) {
        cs[x] = m.nonZeroCol(i, x);
        as[x] = m.nonZeroAmount(i, x);
      }
      int delta = copies(p.senderPorts(i), n);
      int ii = i;
      dealOut(
          n,
          cs,
          as,
          delta,
          q,
          (copy, other, amount, idx) ->
              senders.add(firstCopy[ii] + copy, other, amount, ii, other));
    }
    senders.rows = firstCopy[rows];
    // Step 3: receivers, on the edges of step 2.
    int[][] byCol = new int[cols][];
    int[] cnt = new int[cols];
    for (int e = 0; e < senders.size; e++) {
      cnt[senders.col[e]]++;
    }
    for (int j = 0; j < cols; j++) {
      byCol[j] = new int[cnt[j]];
      cnt[j] = 0;
    }
    for (int e = 0; e < senders.size; e++) {
      byCol[senders.col[e]][cnt[senders.col[e]]++] = e;
    }
    int[] firstCol = new int[cols + 1];
    for (int j = 0; j < cols; j++) {
      firstCol[j + 1] = firstCol[j] + copies(p.receiverPorts(j), byCol[j].length);
    }
    Split out = new Split(senders.size + cols);
    for (int j = 0; j < cols; j++) {
      int n = byCol[j].length;
      int[] rs = new int[n];
      double[] as = new double[n];
      for (int t = 0; t < n; t++) {
        rs[t] = senders.row[byCol[j][t]];
        as[t] = senders.amount[byCol[j][t]];
      }
      int[] edgeIds = byCol[j];
      int jj = j;
      dealOut(
          n,
          rs,
          as,
          copies(p.receiverPorts(j), n),
          q,
          (copy, other, amount, idx) -> {
            int e = edgeIds[idx];
            out.add(other, firstCol[jj] + copy, amount, senders.pairRow[e], senders.pairCol[e]);
          });
    }
    out.rows = senders.rows;
    out.cols = firstCol[cols];
    out.trim();
    return out;
  }

  /**
   * Copies of a node with δ ports and n edges: min(δ, n), at least 1. Copies beyond the node's
   * edges would stay empty, and a δ in the millions (an unlimited NIC, a tiny base speed) would
   * otherwise cost memory and time in proportion to δ.
   */
  static int copies(int delta, int edges) {
    return Math.max(1, Math.min(delta, edges));
  }

  interface PieceSink {
    void piece(int copy, int other, double amount, int edgeIndex);
  }

  /**
   * Deals the n edges of one node (other endpoint, amount in seconds) out to δ copies whose shares
   * (in quanta) differ by at most one, heaviest remaining edge first (Fig. 5 step 2(d)).
   */
  private static void dealOut(
      int n, int[] other, double[] amount, int delta, double q, PieceSink sink) {
    if (n == 0) {
      return;
    }
    long[] units = new long[n];
    long w = 0;
    for (int t = 0; t < n; t++) {
      units[t] = Quantum.units(amount[t], q);
      w += units[t];
    }
    if (delta <= 1) {
      for (int t = 0; t < n; t++) {
        sink.piece(0, other[t], amount[t], t);
      }
      return;
    }
    double[] secondsLeft = amount.clone();
    long[] unitsLeft = units.clone();
    PriorityQueue<Integer> heap =
        new PriorityQueue<>(
            (x, y) -> {
              int c = Long.compare(unitsLeft[y], unitsLeft[x]);
              return c != 0 ? c : Integer.compare(x, y);
            });
    for (int t = 0; t < n; t++) {
      heap.add(t);
    }
    long base = w / delta;
    long extra = w % delta;
    for (int copy = 0; copy < delta && !heap.isEmpty(); copy++) {
      long share = base + (copy < extra ? 1 : 0);
      while (share > 0 && !heap.isEmpty()) {
        int t = heap.poll();
        if (unitsLeft[t] <= share) {
          share -= unitsLeft[t];
          unitsLeft[t] = 0;
          sink.piece(copy, other[t], secondsLeft[t], t);
          secondsLeft[t] = 0;
        } else {
          double s = share * q;
          unitsLeft[t] -= share;
          secondsLeft[t] -= s;
          share = 0;
          sink.piece(copy, other[t], s, t);
          heap.add(t);
        }
      }
    }
  }
}
