package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * The weight quantum of GGP-family algorithms: step 1 of Fig. 4 (GGP/OGGP paper) rounds every
 * weight up to an integer in the normalised form where β = 1, i.e. to whole multiples of β, so that
 * no edge is cut into pieces shorter than the setup delay.
 *
 * <p>Our choice: quantum = max(β, η_d / 2^30). When β = 0 (or β is negligible next to the amounts)
 * setup costs nothing and preemption is free; the quantum then only has to keep the integer weights
 * of the peeled graph bounded (≤ about 2^30 per node, so that k·T fits a long), and η_d / 2^30
 * loses at most 2^-30 of η_d per edge.
 */
final class Quantum {
  /** 2^-30: relative resolution when β is negligible. */
  static final double RESOLUTION = 1.0 / (1 << 30);

  private Quantum() {}

  /**
   * @param m the traffic matrix (seconds)
   * @param p the platform
   * @return the quantum in seconds, &gt; 0 unless the matrix is all zero (then 1)
   */
  static double of(TrafficMatrix m, Platform p) {
    double etaD = LowerBound.of(m, p).etaD();
    double q = Math.max(p.beta(), etaD * RESOLUTION);
    return q > 0 ? q : 1;
  }

  /**
   * @param amount seconds, &gt; 0
   * @param quantum seconds per unit
   * @return ⌈amount / quantum⌉, at least 1, ignoring a relative excess below 1e-9 (floating-point
   *     noise on amounts that are whole multiples)
   */
  static long units(double amount, double quantum) {
    double r = amount / quantum;
    double f = Math.floor(r);
    long u = (r - f) <= 1e-9 * Math.max(1, r) ? (long) f : (long) f + 1;
    return Math.max(1, u);
  }
}
