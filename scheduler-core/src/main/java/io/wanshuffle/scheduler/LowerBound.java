package io.wanshuffle.scheduler;

/**
 * The lower bound η = η_d + β·η_s on the cost of any schedule of an instance (GGP/OGGP paper, sec.
 * 5, Proposition 1; δ-port form from the DGGP paper, sec. 2.4).
 *
 * @param etaD lower bound on the transmission time Σ durations, seconds: max over nodes v of
 *     w(v)/δ(v), P/k and the largest single amount
 * @param etaS lower bound on the number of steps: max over nodes of ⌈deg(v)/δ(v)⌉ and ⌈m/k⌉
 * @param beta the setup delay the bound was computed with, seconds
 */
public record LowerBound(double etaD, long etaS, double beta) {
  /**
   * @return η = η_d + β·η_s, seconds
   */
  public double eta() {
    return etaD + beta * etaS;
  }

  /**
   * Computes η for an instance in O(rows·cols).
   *
   * @param m traffic matrix, seconds
   * @param p platform; its shape must match m
   * @return the bound; η = 0 for an all-zero matrix
   * @throws IllegalArgumentException if shapes differ
   */
  public static LowerBound of(TrafficMatrix m, Platform p) {
    p.requireShape(m);
    double etaD = Math.max(m.total() / p.k(), m.maxAmount());
    long etaS = ceilDiv(m.nonZeroCount(), p.k());
    for (int i = 0; i < m.rows(); i++) {
      etaD = Math.max(etaD, m.rowSum(i) / p.senderPorts(i));
      etaS = Math.max(etaS, ceilDiv(m.rowDegree(i), p.senderPorts(i)));
    }
    for (int j = 0; j < m.cols(); j++) {
      etaD = Math.max(etaD, m.colSum(j) / p.receiverPorts(j));
      etaS = Math.max(etaS, ceilDiv(m.colDegree(j), p.receiverPorts(j)));
    }
    return new LowerBound(etaD, etaS, p.beta());
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
