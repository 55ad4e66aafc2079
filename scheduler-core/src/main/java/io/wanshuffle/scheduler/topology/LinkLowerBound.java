package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * The η lower bound of the GGP/OGGP paper (sec. 5) generalised from the backbone and the NICs to
 * every link of a {@link LinkNetwork}: a link of capacity c(l) flows that must carry load(l)
 * seconds (at base speed) over flows(l) distinct transfers needs at least load(l)/c(l) seconds of
 * steps and ⌈flows(l)/c(l)⌉ steps. So η_d ≥ max_l load(l)/c(l) (and ≥ the largest amount: a
 * transfer runs at base speed), η_s ≥ max_l ⌈flows(l)/c(l)⌉, and η = η_d + β·η_s. On {@link
 * LinkNetwork#flat} networks it equals {@link LowerBound#of} (backbone = P/k and ⌈m/k⌉, NICs =
 * w(v)/δ(v) and ⌈deg(v)/δ(v)⌉). O(pairs · route length).
 */
public final class LinkLowerBound {
  private LinkLowerBound() {}

  /**
   * @param m traffic matrix, seconds at base speed
   * @param net the link network, same shape
   * @param beta setup delay per step, seconds
   * @return the bound (η_d seconds, η_s steps)
   * @throws IllegalArgumentException if shapes differ
   */
  public static LowerBound of(TrafficMatrix m, LinkNetwork net, double beta) {
    net.requireShape(m);
    double[] load = new double[net.linkCount()];
    long[] flows = new long[net.linkCount()];
    double etaD = m.maxAmount();
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        double a = m.nonZeroAmount(i, x);
        for (int l : net.route(i, m.nonZeroCol(i, x))) {
          load[l] += a;
          flows[l]++;
        }
      }
    }
    long etaS = m.nonZeroCount() > 0 ? 1 : 0;
    for (int l = 0; l < load.length; l++) {
      etaD = Math.max(etaD, load[l] / net.capacity(l));
      etaS = Math.max(etaS, (flows[l] + net.capacity(l) - 1) / net.capacity(l));
    }
    return new LowerBound(etaD, etaS, beta);
  }
}
