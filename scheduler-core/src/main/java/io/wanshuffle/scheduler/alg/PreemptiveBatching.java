package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.List;

/**
 * Largest-first batching with preemption, one of {@link Auto}'s candidates: transfers longer than
 * a piece length T are cut into pieces of T ({@link SortedBatching#batchInPieces}) and the pieces
 * batched largest first, k per step; T is searched on a grid and the cheapest schedule kept.
 *
 * <p>Why: {@link SortedBatching} keeps every transfer whole, so a step lasts as long as its
 * longest transfer while its other k - 1 flows idle after their own, shorter ones. With amounts of
 * one order of magnitude the idle time is a small share, but with heavy-tailed amounts (a Pareto
 * distribution, a skewed shuffle) the first steps hold a few very long transfers next to much
 * shorter ones: measured on a 300 x 300 matrix of 27,000 Pareto(1.2) amounts, k = 40, β = 0.01 s,
 * whole-transfer batching cost 1.41 η against 1.03 η for OGGP (which preempts), and on instances
 * that large auto did not run OGGP. Cutting the long transfers into pieces of one length lets k of
 * them fill a step with no idle flow (preemption, as KPBS allows: GGP/OGGP paper, sec. 2); the
 * price is more steps, each paying β, so T is searched: T = a_max / 2, a_max / 4, ... (a_max the
 * longest transfer) while the pieces stay within {@value #PIECES_PER_TRANSFER} per transfer on
 * average (and m + {@value #MAX_EXTRA_PIECES}) and the work within {@value #WORK_PER_TRANSFER}
 * pieces per transfer in all, then
 * T x √2 and T / √2 around the best. T = a_max (no cut) is the first point, so the result is
 * never costlier than {@link SortedBatching}'s.
 *
 * <p>Not a published algorithm. O(G · M log M) for G grid points of M ≤
 * {@value #PIECES_PER_TRANSFER}·m + k pieces each (radix sort plus the batching's scans); memory
 * O(M) for one grid point at a time.
 */
final class PreemptiveBatching {
  /** Most pieces a grid point may cut the m transfers into, per transfer (plus k). */
  static final int PIECES_PER_TRANSFER = 2;
  /**
   * Most pieces a grid point may add to the m transfers, whatever m (heap: a batching holds about
   * 100 bytes per piece; measured on a dense 1000 x 1000 matrix, 2 million pieces per grid point
   * took auto's peak heap from 572 MB to 1075 MB).
   */
  static final int MAX_EXTRA_PIECES = 1 << 19;
  /** Most pieces batched over the whole search, per transfer. */
  static final int WORK_PER_TRANSFER = 16;

  private PreemptiveBatching() {}

  /**
   * @param m traffic matrix, seconds
   * @param p platform (k, β, δ)
   * @return a valid schedule (transfers cut into pieces where that made it cheaper); empty for a
   *     matrix without transfers
   */
  static Schedule schedule(TrafficMatrix m, Platform p) {
    int nz = m.nonZeroCount();
    if (nz == 0) {
      return new Schedule(List.of());
    }
    double beta = p.beta();
    double pieceLimit = Math.min((double) PIECES_PER_TRANSFER * nz, (double) nz + MAX_EXTRA_PIECES)
        + p.k();
    double workLimit = (double) WORK_PER_TRANSFER * nz;
    double bestPiece = Double.POSITIVE_INFINITY;
    double bestCost = SortedBatching.batchInPieces(m, p, bestPiece).cost(beta);
    double work = nz;
    for (double t = m.maxAmount() / 2; t > 0; t /= 2) {
      double pieces = pieces(m, t);
      if (pieces > pieceLimit || work + pieces > workLimit) {
        break;
      }
      work += pieces;
      double cost = SortedBatching.batchInPieces(m, p, t).cost(beta);
      if (cost < bestCost) {
        bestCost = cost;
        bestPiece = t;
      }
    }
    if (bestPiece < Double.POSITIVE_INFINITY) {
      double centre = bestPiece;
      for (double t : new double[] {centre * Math.sqrt(2), centre / Math.sqrt(2)}) {
        double pieces = pieces(m, t);
        if (pieces > pieceLimit || work + pieces > workLimit) {
          continue;
        }
        work += pieces;
        double cost = SortedBatching.batchInPieces(m, p, t).cost(beta);
        if (cost < bestCost) {
          bestCost = cost;
          bestPiece = t;
        }
      }
    }
    return SortedBatching.batchInPieces(m, p, bestPiece).toSchedule();
  }

  /** @return the pieces of length {@code maxPiece} the transfers are cut into (as a double: no overflow) */
  private static double pieces(TrafficMatrix m, double maxPiece) {
    double n = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        double a = m.amount(i, j);
        if (a > 0) {
          n += a <= maxPiece ? 1 : Math.ceil(a / maxPiece - 1e-6);
        }
      }
    }
    return n;
  }
}
