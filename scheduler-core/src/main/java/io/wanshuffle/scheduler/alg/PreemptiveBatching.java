package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * Largest-first batching with preemption, one of {@link Auto}'s candidates: transfers longer than a
 * piece length T are cut into pieces of T ({@link SortedBatching#batchInPieces}) and the pieces
 * batched largest first, k per step; T is searched on a grid and the cheapest schedule kept.
 *
 * <p>Why: {@link SortedBatching} keeps every transfer whole, so a step lasts as long as its longest
 * transfer while its other k - 1 flows idle after their own, shorter ones. With amounts of one
 * order of magnitude the idle time is a small share, but with heavy-tailed amounts (a Pareto
 * distribution, a skewed shuffle) the first steps hold a few very long transfers next to much
 * shorter ones: on 300 x 300 matrices of about 27,000 Pareto(1.2) amounts, k = 40, β = 0.01 s,
 * whole-transfer batching costs up to 1.7 η against 1.005 η for OGGP (which preempts), and on
 * larger instances auto does not run OGGP ({@link Auto#GAP_PEELING_LIMIT}). Cutting the long
 * transfers into pieces of one length lets k of them fill a step with no idle flow (preemption, as
 * KPBS allows: GGP/OGGP paper, sec. 2); the price is more steps, each paying β, so T is searched: T
 * = a_max / 2, a_max / 4, ... (a_max the longest transfer) while the pieces stay within {@value
 * #PIECES_PER_TRANSFER} per transfer on average (and m + {@value #MAX_EXTRA_PIECES}) and the work
 * within {@value #WORK_PER_TRANSFER} pieces per transfer in all, then T x √2 and T / √2 around the
 * best. T = a_max (no cut, the caller's whole batching) is the first point, so the result is never
 * costlier than {@link SortedBatching}'s.
 *
 * <p>Not a published algorithm. O(G · M log M) for G grid points of M ≤ {@value
 * #PIECES_PER_TRANSFER}·m + k pieces each (radix sort plus the batching's scans); memory O(M) for
 * one grid point at a time.
 */
final class PreemptiveBatching {
  /** Most pieces a grid point may cut the m transfers into, per transfer (plus k). */
  static final int PIECES_PER_TRANSFER = 2;

  /**
   * Most pieces a grid point may add to the m transfers, whatever m (heap: a batching holds about
   * 100 bytes per piece, so 2 million pieces per grid point would about double auto's peak heap on
   * a dense 1000 x 1000 matrix, 572 MB in docs/benchmarks/scheduler-speed.md).
   */
  static final int MAX_EXTRA_PIECES = 1 << 19;

  /** Most pieces batched over the whole search, per transfer. */
  static final int WORK_PER_TRANSFER = 16;

  private PreemptiveBatching() {}

  /**
   * @param m traffic matrix, seconds
   * @param p platform (k, β, δ)
   * @param whole {@link SortedBatching#schedule(TrafficMatrix, Platform)} of {@code m} on {@code
   *     p}: the search's first point (T = a_max, no cut), which the caller already has
   * @return the cheapest of {@code whole} (the same object) and the batchings of cut transfers; a
   *     valid schedule
   */
  static Schedule schedule(TrafficMatrix m, Platform p, Schedule whole) {
    Search search = new Search(m, p, whole.cost(p.beta()));
    double t = m.maxAmount() / 2; // 0 without transfers: no search
    while (t > 0 && search.tryPiece(t)) {
      t /= 2;
    }
    if (search.bestPiece < Double.POSITIVE_INFINITY) {
      double centre = search.bestPiece;
      search.tryPiece(centre * Math.sqrt(2));
      search.tryPiece(centre / Math.sqrt(2));
    }
    // the best point is batched again rather than kept: one grid point's pieces in memory at a time
    return search.bestPiece < Double.POSITIVE_INFINITY
        ? SortedBatching.batchInPieces(m, p, search.bestPiece).toSchedule()
        : whole;
  }

  /** The search over piece lengths: the best so far and the work spent. */
  private static final class Search {
    private final TrafficMatrix m;
    private final Platform p;
    private final double pieceLimit;
    private final double workLimit;
    private double work;
    private double bestCost;
    private double bestPiece = Double.POSITIVE_INFINITY;

    Search(TrafficMatrix m, Platform p, double wholeCost) {
      this.m = m;
      this.p = p;
      int nz = m.nonZeroCount();
      pieceLimit =
          Math.min((double) PIECES_PER_TRANSFER * nz, (double) nz + MAX_EXTRA_PIECES) + p.k();
      workLimit = (double) WORK_PER_TRANSFER * nz;
      work = nz; // the whole batching
      bestCost = wholeCost;
    }

    /**
     * Batches the transfers cut into pieces of {@code t} and keeps it if it is the cheapest yet.
     *
     * @param t piece length, seconds
     * @return false, without batching, when pieces of {@code t} exceed the piece or work limit
     */
    boolean tryPiece(double t) {
      double pieces = 0;
      // a zero cell has no piece: the non-zero cells in row-major order give the same sum
      for (int i = 0; i < m.rows(); i++) {
        for (int x = 0; x < m.rowDegree(i); x++) {
          pieces += SortedBatching.pieces(m.nonZeroAmount(i, x), t);
        }
      }
      if (pieces > pieceLimit || work + pieces > workLimit) {
        return false;
      }
      work += pieces;
      double cost = SortedBatching.batchInPieces(m, p, t).cost(p.beta());
      if (cost < bestCost) {
        bestCost = cost;
        bestPiece = t;
      }
      return true;
    }
  }
}
