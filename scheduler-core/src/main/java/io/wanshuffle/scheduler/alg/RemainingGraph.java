package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * The bipartite graph G of a traffic matrix (an edge per non-zero amount, GGP/OGGP paper sec. 2.2)
 * with the amounts still to send, as the matching heuristics peel it step by step. Edges are
 * numbered 0..{@link #edgeCount()}-1 in row-major order of the matrix.
 */
final class RemainingGraph {
  /**
   * An edge is finished when what is left of it is at most this fraction of its original amount
   * (floating-point residue of repeated subtraction; far below {@code Schedule.TOLERANCE}).
   */
  static final double FINISHED = 1e-12;

  final int[] src;
  final int[] dst;
  final double[] original;
  final double[] remaining;
  final int[] senderDegree;
  final int[] receiverDegree;
  private final boolean[] alive;
  private int aliveCount;

  RemainingGraph(TrafficMatrix m) {
    int n = m.nonZeroCount();
    src = new int[n];
    dst = new int[n];
    original = new double[n];
    remaining = new double[n];
    alive = new boolean[n];
    senderDegree = new int[m.rows()];
    receiverDegree = new int[m.cols()];
    int e = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        int j = m.nonZeroCol(i, x);
        double a = m.nonZeroAmount(i, x);
        src[e] = i;
        dst[e] = j;
        original[e] = a;
        remaining[e] = a;
        alive[e] = true;
        senderDegree[i]++;
        receiverDegree[j]++;
        e++;
      }
    }
    aliveCount = n;
  }

  int edgeCount() {
    return src.length;
  }

  int aliveCount() {
    return aliveCount;
  }

  boolean isAlive(int e) {
    return alive[e];
  }

  /**
   * Sends {@code amount} seconds on edge e.
   *
   * @return the amount actually sent: {@code amount}, or everything left when the rest would be
   *     floating-point residue (the edge is then removed)
   */
  double send(int e, double amount) {
    double left = remaining[e] - amount;
    if (left <= FINISHED * original[e]) {
      double sent = remaining[e];
      remaining[e] = 0;
      alive[e] = false;
      aliveCount--;
      senderDegree[src[e]]--;
      receiverDegree[dst[e]]--;
      return sent;
    }
    remaining[e] = left;
    return amount;
  }
}
