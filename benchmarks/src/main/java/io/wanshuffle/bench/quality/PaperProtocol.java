package io.wanshuffle.bench.quality;

import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Random;

/**
 * The random instances of the GGP/OGGP paper's experiments (Cohen, Jeannot, Padoy, Wagner, sec.
 * 8.1): bipartite graphs with 20 nodes on each side; the number of edges is uniform in 1..400, the
 * edges are a uniform random subset of that size, and the weights are uniform integers in
 * 1..maxWeight (20 for "small", 100000 for "large"); β = 1.
 */
final class PaperProtocol {
  static final int SIDE = 20;

  private PaperProtocol() {}

  /**
   * @param rnd the random source (seeded by the caller)
   * @param maxWeight largest weight, seconds
   * @return a 20 x 20 traffic matrix with at least one transfer
   */
  static TrafficMatrix instance(Random rnd, int maxWeight) {
    int cells = SIDE * SIDE;
    int edges = 1 + rnd.nextInt(cells);
    int[] idx = new int[cells];
    for (int i = 0; i < cells; i++) {
      idx[i] = i;
    }
    double[] a = new double[cells];
    for (int e = 0; e < edges; e++) {
      int j = e + rnd.nextInt(cells - e);
      int t = idx[e];
      idx[e] = idx[j];
      idx[j] = t;
      a[idx[e]] = 1 + rnd.nextInt(maxWeight);
    }
    return TrafficMatrix.ofRowMajor(SIDE, SIDE, a);
  }
}
