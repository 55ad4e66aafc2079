package io.wanshuffle.it.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Synthetic cross-cluster traffic matrices of the end-to-end benchmark, in bytes, {@code [nA][nB]}, each
 * summing to the requested total.
 */
final class Patterns {
  private Patterns() {}

  /** Every A host sends the same amount to every B host (the brute force's best case). */
  static double[][] uniform(int nA, int nB, double total) {
    double[][] m = new double[nA][nB];
    for (double[] row : m) {
      java.util.Arrays.fill(row, total / (nA * nB));
    }
    return m;
  }

  /**
   * Zipf-skewed: the cells, in a fixed pseudo-random order (seed 42), get weights 1 / rank^s.
   *
   * @param s Zipf exponent (1.0 = classic Zipf)
   */
  static double[][] zipf(int nA, int nB, double total, double s) {
    List<Integer> cells = new ArrayList<>();
    for (int c = 0; c < nA * nB; c++) {
      cells.add(c);
    }
    Collections.shuffle(cells, new Random(42));
    double[] w = new double[nA * nB];
    double sum = 0;
    for (int r = 0; r < cells.size(); r++) {
      w[cells.get(r)] = 1.0 / Math.pow(r + 1, s);
      sum += w[cells.get(r)];
    }
    double[][] m = new double[nA][nB];
    for (int c = 0; c < w.length; c++) {
      m[c / nB][c % nB] = total * w[c] / sum;
    }
    return m;
  }

  /**
   * The pattern where fair sharing is poor (Wagner and Jeannot, "Predicting the redistribution time", RR-5361,
   * Fig. 3: with k = 2, transfers 1→a and 2→b of 1 s and 3→c of 2 s take 2.5 s when all start at once and share
   * the backbone fairly, 2 s when scheduled in two steps), scaled up: a diagonal of host pairs (i, i) whose
   * amounts repeat x, x, 2x.
   *
   * @throws IllegalArgumentException if either cluster has fewer than 3 hosts
   */
  static double[][] fairSharingPoor(int nA, int nB, double total) {
    int n = Math.min(nA, nB);
    if (n < 3) {
      throw new IllegalArgumentException("the fair-sharing-poor pattern needs at least 3 + 3 hosts, got " + nA
          + " + " + nB);
    }
    double units = 0;
    for (int i = 0; i < n; i++) {
      units += i % 3 == 2 ? 2 : 1;
    }
    double[][] m = new double[nA][nB];
    for (int i = 0; i < n; i++) {
      m[i][i] = total * (i % 3 == 2 ? 2 : 1) / units;
    }
    return m;
  }
}
