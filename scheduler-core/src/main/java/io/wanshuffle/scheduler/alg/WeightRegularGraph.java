package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.matching.BipartiteGraph;

/**
 * Builds the graph J that GGP and OGGP peel (GGP/OGGP paper, Cohen, Jeannot, Padoy, Wagner, Fig. 4
 * steps 2-3 and Fig. 7): from the integer-weighted graph H it adds
 *
 * <ul>
 *   <li>step 2: disjoint virtual edges of weight T = max(W(H), ⌈P(H)/k⌉) (one of them possibly
 *       shorter), each on a new sender and a new receiver node, until P(I) = k·T;
 *   <li>step 3 (Fig. 7, weight-regular extension): for every sender with missing weight mw = T -
 *       w(s), edges to new receiver nodes filled one after the other up to T each, and the same for
 *       receivers.
 * </ul>
 *
 * The result is T-weight-regular and square; by the paper's Lemma 2 every perfect matching of it
 * holds exactly k edges of I, hence at most k real edges. Real edges keep their ids 0..m-1.
 */
final class WeightRegularGraph {
  final BipartiteGraph graph;
  final int realEdges;
  final long regularWeight;

  private WeightRegularGraph(BipartiteGraph graph, int realEdges, long regularWeight) {
    this.graph = graph;
    this.realEdges = realEdges;
    this.regularWeight = regularWeight;
  }

  /**
   * @param rows sender count of H
   * @param cols receiver count of H
   * @param row sender of each real edge
   * @param col receiver of each real edge
   * @param units integer weight of each real edge (≥ 1), e.g. amount / quantum rounded up
   * @param k maximum transfers per step (≥ 1); values above min(rows, cols) are not binding and are
   *     lowered to it
   * @return J; real edge e of the input is edge e of J
   */
  static WeightRegularGraph build(int rows, int cols, int[] row, int[] col, long[] units, int k) {
    int m = row.length;
    int kk = Math.max(1, Math.min(k, Math.min(rows, cols)));
    long[] ws = new long[rows];
    long[] wr = new long[cols];
    long p = 0;
    for (int e = 0; e < m; e++) {
      ws[row[e]] += units[e];
      wr[col[e]] += units[e];
      p += units[e];
    }
    long maxW = 0;
    for (long v : ws) {
      maxW = Math.max(maxW, v);
    }
    for (long v : wr) {
      maxW = Math.max(maxW, v);
    }
    long t = Math.max(maxW, (p + kk - 1) / kk);
    long deficit = Math.multiplyExact(t, (long) kk) - p;
    int added = (int) ((deficit + t - 1) / Math.max(1, t));
    int l1 = rows + added; // senders of I
    int l2 = cols + added; // receivers of I
    int nSide = l1 + l2 - kk;
    // Edge capacity: real + step-2 + at most 2 per node of I on each side (Fig. 7).
    int cap = m + added + 2 * (l1 + l2) + 2;
    int[] el = new int[cap];
    int[] er = new int[cap];
    long[] ew = new long[cap];
    System.arraycopy(row, 0, el, 0, m);
    System.arraycopy(col, 0, er, 0, m);
    System.arraycopy(units, 0, ew, 0, m);
    int c = m;
    long[] wLeft = new long[l1];
    long[] wRight = new long[l2];
    System.arraycopy(ws, 0, wLeft, 0, rows);
    System.arraycopy(wr, 0, wRight, 0, cols);
    long left = deficit;
    for (int a = 0; a < added; a++) {
      long w = Math.min(t, left);
      left -= w;
      el[c] = rows + a;
      er[c] = cols + a;
      ew[c] = w;
      wLeft[rows + a] = w;
      wRight[cols + a] = w;
      c++;
    }
    // Fig. 7 on the senders of I: new receiver nodes l2, l2+1, ...
    c = fill(wLeft, t, l2, true, el, er, ew, c);
    // ... and on the receivers of I: new sender nodes l1, l1+1, ...
    c = fill(wRight, t, l1, false, el, er, ew, c);
    BipartiteGraph g =
        new BipartiteGraph(
            nSide,
            nSide,
            java.util.Arrays.copyOf(el, c),
            java.util.Arrays.copyOf(er, c),
            java.util.Arrays.copyOf(ew, c));
    return new WeightRegularGraph(g, m, t);
  }

  private static int fill(
      long[] w, long t, int firstNew, boolean sendersSide, int[] el, int[] er, long[] ew, int c) {
    int cn = firstNew - 1;
    long cnMissing = 0;
    for (int s = 0; s < w.length; s++) {
      long mw = t - w[s];
      while (mw > 0) {
        if (cnMissing == 0) {
          cn++;
          cnMissing = t;
        }
        long x = Math.min(mw, cnMissing);
        if (sendersSide) {
          el[c] = s;
          er[c] = cn;
        } else {
          el[c] = cn;
          er[c] = s;
        }
        ew[c] = x;
        c++;
        mw -= x;
        cnMissing -= x;
      }
    }
    return c;
  }
}
