package io.wanshuffle.scheduler.estimate;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Arrays;

/**
 * The oracle for {@link BruteForceEstimator}: a direct transcription of η_o's simulation (Wagner,
 * Jeannot, INRIA RR-5361, sec. 3.1, Fig. 5, with the δ-port generalisation and the repair described
 * on {@link BruteForceEstimator}) that rebuilds the remaining graph, its node order and every share
 * from scratch in every round. Slow (every round costs O(m + n log n) over all m transfers, dead or
 * alive) but obviously the paper's rule; the fast estimator must give the same η_o.
 */
final class Fig5Reference {
  /**
   * What is left of a transfer below this fraction of its amount counts as finished (floating-point
   * residue).
   */
  private static final double FINISHED = 1e-12;

  private Fig5Reference() {}

  /**
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k (the backbone carries k full-speed flows) and δ per node; β is ignored
   * @return η_o, seconds; 0 for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ
   */
  static double estimate(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    int rows = matrix.rows();
    int cols = matrix.cols();
    int m = matrix.nonZeroCount();
    int[] src = new int[m];
    int[] dst = new int[m];
    double[] left = new double[m];
    double[] original = new double[m];
    int e0 = 0;
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        if (matrix.amount(i, j) > 0) {
          src[e0] = i;
          dst[e0] = j;
          left[e0] = matrix.amount(i, j);
          original[e0] = left[e0];
          e0++;
        }
      }
    }
    // Nodes 0..rows-1 are senders, rows..rows+cols-1 receivers.
    int nodes = rows + cols;
    double[] capacity = new double[nodes];
    for (int i = 0; i < rows; i++) {
      capacity[i] = platform.senderPorts(i);
    }
    for (int j = 0; j < cols; j++) {
      capacity[rows + j] = platform.receiverPorts(j);
    }
    boolean[] alive = new boolean[m];
    Arrays.fill(alive, true);
    int aliveCount = m;
    int[] degree = new int[nodes];
    double[] share = new double[m];
    double eta = 0;
    while (aliveCount > 0) {
      // Adjacency of the remaining graph.
      Arrays.fill(degree, 0);
      for (int e = 0; e < m; e++) {
        if (alive[e]) {
          degree[src[e]]++;
          degree[rows + dst[e]]++;
        }
      }
      int[][] adjacent = new int[nodes][];
      for (int v = 0; v < nodes; v++) {
        adjacent[v] = new int[degree[v]];
      }
      int[] fill = new int[nodes];
      for (int e = 0; e < m; e++) {
        if (alive[e]) {
          adjacent[src[e]][fill[src[e]]++] = e;
          adjacent[rows + dst[e]][fill[rows + dst[e]]++] = e;
        }
      }
      Integer[] order = new Integer[nodes];
      for (int v = 0; v < nodes; v++) {
        order[v] = v;
      }
      // Decreasing deg(v)/δ(v), compared exactly as deg(a)·δ(b) vs deg(b)·δ(a); stable on index.
      Arrays.sort(
          order, (a, b) -> Double.compare(degree[b] * capacity[a], degree[a] * capacity[b]));
      // Step 2.a-c: shares.
      Arrays.fill(share, 0);
      for (int v : order) {
        if (degree[v] == 0) {
          continue;
        }
        double free = capacity[v];
        int unshared = 0;
        for (int e : adjacent[v]) {
          if (share[e] > 0) {
            free -= share[e];
          } else {
            unshared++;
          }
        }
        if (free < 0 || (free == 0 && unshared > 0)) {
          // The paper's rule over-commits v (see the class comment): equal shares at v instead.
          double equal = Math.min(1.0, capacity[v] / degree[v]);
          for (int e : adjacent[v]) {
            share[e] = share[e] > 0 ? Math.min(share[e], equal) : equal;
          }
        } else if (unshared > 0) {
          double each = Math.min(1.0, free / unshared);
          for (int e : adjacent[v]) {
            if (share[e] == 0) {
              share[e] = each;
            }
          }
        }
      }
      // Step 2.d-e: the first transfer to finish, in share time.
      double t = Double.POSITIVE_INFINITY;
      double total = 0;
      for (int e = 0; e < m; e++) {
        if (alive[e]) {
          t = Math.min(t, left[e] / share[e]);
          total += share[e];
        }
      }
      // Step 2.f: the backbone slows everyone down when the shares exceed k.
      eta += t * Math.max(total / platform.k(), 1.0);
      // Step 2.g-h.
      for (int e = 0; e < m; e++) {
        if (alive[e]) {
          left[e] -= t * share[e];
          if (left[e] <= FINISHED * original[e] || left[e] / share[e] <= t * FINISHED) {
            alive[e] = false;
            aliveCount--;
          }
        }
      }
    }
    return eta;
  }
}
