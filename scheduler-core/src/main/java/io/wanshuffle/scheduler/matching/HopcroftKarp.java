package io.wanshuffle.scheduler.matching;

import java.util.Arrays;

/**
 * Hopcroft-Karp maximum-cardinality bipartite matching on primitive arrays (Hopcroft and Karp, "An
 * n^{5/2} algorithm for maximum matchings in bipartite graphs", SIAM J. Comput. 1973), O(m·√n). It
 * works on the CSR adjacency of a {@link BipartiteGraph} restricted to the edges whose weight is at
 * least a threshold, and starts from whatever matching the mate arrays already hold (warm start),
 * so that it can repair a matching a peel has broken.
 *
 * <p>Package-private: the oracle test compares it with JGraphT's {@code
 * HopcroftKarpMaximumCardinalityBipartiteMatching}.
 */
final class HopcroftKarp {
  private static final int INF = Integer.MAX_VALUE;

  private HopcroftKarp() {}

  /**
   * Grows the matching held in {@code mateL}/{@code mateR} to a maximum matching of the edges of
   * {@code g} with weight ≥ {@code minWeight}.
   *
   * @param g the graph (alive edges only are scanned)
   * @param minWeight smallest edge weight allowed in the matching (1 = every alive edge)
   * @param mateL per left vertex the matched edge id or -1; must be a valid matching of edges with
   *     weight ≥ minWeight on entry
   * @param mateR per right vertex the matched edge id or -1, consistent with mateL
   * @return the matching's cardinality on exit
   */
  static int maximumMatching(BipartiteGraph g, long minWeight, int[] mateL, int[] mateR) {
    int nl = g.leftCount();
    int[] dist = new int[nl];
    int[] queue = new int[nl];
    int[] stackV = new int[nl + 1];
    int[] iter = new int[nl];
    int size = 0;
    for (int x = 0; x < nl; x++) {
      if (mateL[x] >= 0) {
        size++;
      }
    }
    int[] start = g.adjStart;
    int[] deg = g.deg;
    int[] adj = g.adj;
    int[] right = g.right;
    int[] left = g.left;
    long[] w = g.weight;
    long[] initial = g.initial;
    while (true) {
      // BFS layering from free left vertices.
      int qh = 0;
      int qt = 0;
      Arrays.fill(dist, INF);
      for (int x = 0; x < nl; x++) {
        if (mateL[x] < 0) {
          dist[x] = 0;
          queue[qt++] = x;
        }
      }
      int limit = INF;
      while (qh < qt) {
        int x = queue[qh++];
        if (dist[x] >= limit) {
          continue;
        }
        for (int p = start[x], end = start[x] + deg[x]; p < end; p++) {
          int e = adj[p];
          if (w[e] < minWeight) {
            if (initial[e] < minWeight) {
              break; // lists are sorted by initial weight, which bounds the current one
            }
            continue;
          }
          int me = mateR[right[e]];
          if (me < 0) {
            if (limit == INF) {
              limit = dist[x] + 1;
            }
          } else {
            int x2 = left[me];
            if (dist[x2] == INF) {
              dist[x2] = dist[x] + 1;
              queue[qt++] = x2;
            }
          }
        }
      }
      if (limit == INF) {
        return size;
      }
      // DFS along the layers, one vertex-disjoint shortest augmenting path per free vertex.
      for (int x = 0; x < nl; x++) {
        iter[x] = start[x];
      }
      for (int root = 0; root < nl; root++) {
        if (mateL[root] >= 0 || dist[root] != 0) {
          continue;
        }
        int sp = 0;
        stackV[sp++] = root;
        boolean found = false;
        while (sp > 0 && !found) {
          int x = stackV[sp - 1];
          int end = start[x] + deg[x];
          boolean advanced = false;
          while (iter[x] < end) {
            int e = adj[iter[x]];
            if (w[e] < minWeight) {
              if (initial[e] < minWeight) {
                iter[x] = end;
                break;
              }
              iter[x]++;
              continue;
            }
            int me = mateR[right[e]];
            if (me < 0) {
              if (dist[x] + 1 == limit) {
                found = true;
                break;
              }
              iter[x]++;
              continue;
            }
            int x2 = left[me];
            if (dist[x2] == dist[x] + 1 && dist[x2] < limit) {
              stackV[sp++] = x2;
              advanced = true;
              break;
            }
            iter[x]++;
          }
          if (found) {
            // Augment along the stack: each stacked vertex takes the edge iter points at.
            for (int i = sp - 1; i >= 0; i--) {
              int v = stackV[i];
              int e = adj[iter[v]];
              mateL[v] = e;
              mateR[right[e]] = e;
              iter[v]++;
            }
            size++;
            break;
          }
          if (!advanced) {
            dist[x] = INF; // dead end for this phase
            sp--;
            if (sp > 0) {
              iter[stackV[sp - 1]]++;
            }
          }
        }
      }
    }
  }
}
