package io.wanshuffle.scheduler.matching;

import java.util.Arrays;

/**
 * Bottleneck (max-min weight) perfect matching from scratch, the problem of Fig. 9 of the GGP/OGGP
 * paper (Cohen, Jeannot, Padoy, Wagner, sec. 6.3.1): binary search for the largest threshold t
 * among the sorted distinct edge weights such that the edges of weight ≥ t hold a perfect matching,
 * each probe a {@link HopcroftKarp} run. O(m·√n·log m) instead of Fig. 9's O(m²·√n). {@link Peeler}
 * uses it for the first peel and then continues incrementally.
 */
final class BottleneckMatching {
  private BottleneckMatching() {}

  /**
   * @param g a graph with as many left as right vertices (alive edges only are used)
   * @param mateL output: per left vertex the matched edge id
   * @param mateR output: per right vertex the matched edge id
   * @return the bottleneck value (smallest weight of the returned perfect matching, maximal over
   *     all perfect matchings), or -1 if the graph has no perfect matching (mates then hold a
   *     maximum matching)
   */
  static long perfect(BipartiteGraph g, int[] mateL, int[] mateR) {
    int n = g.nLeft;
    if (g.nRight != n) {
      return -1;
    }
    long[] ws = new long[g.aliveEdgeCount()];
    int c = 0;
    for (int x = 0; x < n; x++) {
      for (int p = g.adjStart[x], end = p + g.deg[x]; p < end; p++) {
        long w = g.weight[g.adj[p]];
        if (w > 0) {
          ws[c++] = w;
        }
      }
    }
    ws = Arrays.copyOf(ws, c);
    Arrays.sort(ws);
    int d = 0;
    for (int i = 0; i < ws.length; i++) {
      if (i == 0 || ws[i] != ws[i - 1]) {
        ws[d++] = ws[i];
      }
    }
    Arrays.fill(mateL, 0, n, -1);
    Arrays.fill(mateR, 0, n, -1);
    if (d == 0 || HopcroftKarp.maximumMatching(g, ws[0], mateL, mateR) < n) {
      return n == 0 ? 0 : -1;
    }
    int[] bestL = Arrays.copyOf(mateL, n);
    int[] bestR = Arrays.copyOf(mateR, n);
    int lo = 0; // feasible index
    int hi = d - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      // Warm start: keep the matched edges that survive the higher threshold.
      for (int x = 0; x < n; x++) {
        int e = bestL[x];
        if (g.weight[e] >= ws[mid]) {
          mateL[x] = e;
          mateR[g.right[e]] = e;
        } else {
          mateL[x] = -1;
        }
      }
      for (int y = 0; y < n; y++) {
        int e = bestR[y];
        if (g.weight[e] < ws[mid]) {
          mateR[y] = -1;
        }
      }
      if (HopcroftKarp.maximumMatching(g, ws[mid], mateL, mateR) == n) {
        lo = mid;
        System.arraycopy(mateL, 0, bestL, 0, n);
        System.arraycopy(mateR, 0, bestR, 0, n);
      } else {
        hi = mid - 1;
      }
    }
    System.arraycopy(bestL, 0, mateL, 0, n);
    System.arraycopy(bestR, 0, mateR, 0, n);
    return ws[lo];
  }
}
