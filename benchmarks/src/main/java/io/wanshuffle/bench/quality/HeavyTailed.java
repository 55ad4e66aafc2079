package io.wanshuffle.bench.quality;

import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Random;

/**
 * Large traffic matrices with heavy-tailed amounts, the case where keeping transfers whole costs
 * most (a few long transfers beside many short ones in one step): n x n, each pair present with
 * probability {@value #DENSITY}, amounts Pareto-distributed with shape {@value #ALPHA} and minimum
 * 1 s (mean 6 s; the largest of thousands is hundreds of seconds), as skewed shuffles are.
 */
final class HeavyTailed {
  /** Share of the pairs with a transfer. */
  static final double DENSITY = 0.3;

  /** Pareto shape α (a finite mean, an infinite variance). */
  static final double ALPHA = 1.2;

  private HeavyTailed() {}

  /**
   * @param rnd the random source (seeded by the caller)
   * @param n senders and receivers
   * @return an n x n traffic matrix, seconds (may have no transfer only if n is tiny)
   */
  static TrafficMatrix instance(Random rnd, int n) {
    double[] a = new double[n * n];
    for (int i = 0; i < a.length; i++) {
      if (rnd.nextDouble() < DENSITY) {
        a[i] = Math.pow(1 - rnd.nextDouble(), -1 / ALPHA); // inverse CDF, 1 - U in (0, 1]
      }
    }
    return TrafficMatrix.ofRowMajor(n, n, a);
  }
}
