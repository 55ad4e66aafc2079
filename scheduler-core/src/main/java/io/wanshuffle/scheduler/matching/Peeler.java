package io.wanshuffle.scheduler.matching;

import java.util.Arrays;

/**
 * Peels a weight-regular bipartite graph into weighted perfect matchings (GGP/OGGP paper, Cohen,
 * Jeannot, Padoy, Wagner, sec. 6.1.1 and Fig. 4 step 5): pick a perfect matching, cut every edge of
 * it by the matching's smallest weight, drop edges that reach 0, repeat until the graph is empty.
 * Because the graph stays weight-regular, a perfect matching exists at every peel (the paper's
 * [8]).
 *
 * <p>Two ways to pick the matching:
 *
 * <ul>
 *   <li>any perfect matching (GGP): the previous peel's matching minus its removed edges is
 *       repaired with one augmenting-path search per freed vertex;
 *   <li>the bottleneck (max-min weight) perfect matching (OGGP, Fig. 9). Fig. 9 adds edges in
 *       decreasing weight order and re-runs a maximum matching after each; here the answer is
 *       computed incrementally. The bottleneck value never increases from one peel to the next
 *       (weights only decrease), so the previous value is an upper bound: matched edges that fell
 *       below it are unmatched, and each free vertex runs a widest-augmenting-path search that
 *       lowers the threshold only when the alternating tree proves (Hall's condition) that no
 *       perfect matching exists above it. The first matching comes from a binary search over the
 *       sorted distinct weights with {@link HopcroftKarp}.
 * </ul>
 *
 * <p>Cost per peel: O(f·m') where f is the number of freed vertices and m' the edges scanned by a
 * search (usually far below m on dense graphs, where augmenting paths are short). Not thread-safe;
 * one instance per peeling.
 */
public final class Peeler {
  private final BipartiteGraph g;
  private final boolean bottleneck;
  private final int n;
  private final int[] mateL;
  private final int[] mateR;
  private long threshold = Long.MAX_VALUE;
  private boolean started;
  private final int[] stamp;
  private int cur;
  private final int[] parentEdge;
  private final int[] queue;

  /**
   * @param g a square weight-regular graph (every vertex has the same total weight); it is
   *     consumed: its weights are lowered as peels proceed
   * @param bottleneck true for OGGP's max-min matching, false for any perfect matching (GGP)
   * @throws IllegalArgumentException if the graph is not square
   */
  public Peeler(BipartiteGraph g, boolean bottleneck) {
    if (g.nLeft != g.nRight) {
      throw new IllegalArgumentException(
          "peeling needs as many left as right vertices, got " + g.nLeft + " x " + g.nRight);
    }
    this.g = g;
    this.bottleneck = bottleneck;
    this.n = g.nLeft;
    this.mateL = new int[n];
    this.mateR = new int[n];
    Arrays.fill(mateL, -1);
    Arrays.fill(mateR, -1);
    this.stamp = new int[n];
    this.parentEdge = new int[n];
    this.queue = new int[n];
  }

  /**
   * @return true while some edge has weight left
   */
  public boolean hasEdges() {
    return g.aliveEdgeCount() > 0;
  }

  /**
   * Removes one perfect matching.
   *
   * @param matching output, length ≥ number of vertices per side: {@code matching[x]} receives the
   *     id of the edge matched to left vertex x
   * @return the peeled amount (the matching's smallest remaining weight; every edge of the matching
   *     lost that much), or 0 when the graph is already empty
   * @throws IllegalStateException if no perfect matching exists (the graph was not weight-regular)
   */
  public long peel(int[] matching) {
    if (!hasEdges()) {
      return 0;
    }
    if (!started) {
      started = true;
      initialMatching();
    }
    repair();
    long amount = Long.MAX_VALUE;
    for (int x = 0; x < n; x++) {
      amount = Math.min(amount, g.weight[mateL[x]]);
    }
    for (int x = 0; x < n; x++) {
      int e = mateL[x];
      matching[x] = e;
      g.subtract(e, amount);
      if (g.weight[e] == 0) {
        mateL[x] = -1;
        mateR[g.right[e]] = -1;
      }
    }
    threshold = amount;
    return amount;
  }

  private void initialMatching() {
    if (!bottleneck) {
      HopcroftKarp.maximumMatching(g, 1, mateL, mateR);
      return;
    }
    long t = BottleneckMatching.perfect(g, mateL, mateR);
    if (t < 0) {
      throw new IllegalStateException("graph has no perfect matching: it is not weight-regular");
    }
    threshold = t;
  }

  private void repair() {
    long[] w = g.weight;
    if (bottleneck) {
      for (int x = 0; x < n; x++) {
        int e = mateL[x];
        if (e >= 0 && w[e] < threshold) {
          mateL[x] = -1;
          mateR[g.right[e]] = -1;
        }
      }
    } else {
      threshold = 1;
    }
    for (int root = 0; root < n; root++) {
      if (mateL[root] >= 0) {
        continue;
      }
      int y = search(root);
      if (y < 0) {
        throw new IllegalStateException(
            "no perfect matching left while peeling: the graph was not weight-regular");
      }
      augment(y);
    }
  }

  /**
   * Augmenting-path search (BFS) from a free left vertex over the edges of weight ≥ the threshold;
   * in bottleneck mode, when the tree is exhausted, the threshold drops to the heaviest edge from
   * the tree to a right vertex outside it (the widest way to grow it) and the search goes on.
   * Returns the free right vertex reached, or -1.
   */
  private int search(int root) {
    int[] left = g.left;
    int[] right = g.right;
    long[] w = g.weight;
    long[] initial = g.initial;
    int[] start = g.adjStart;
    int[] deg = g.deg;
    int[] adj = g.adj;
    if (++cur == Integer.MAX_VALUE) {
      Arrays.fill(stamp, 0);
      cur = 1;
    }
    int qh = 0;
    int qt = 0;
    queue[qt++] = root;
    long t = threshold;
    while (true) {
      while (qh < qt) {
        int x = queue[qh++];
        for (int p = start[x], end = p + deg[x]; p < end; p++) {
          int e = adj[p];
          if (w[e] < t) {
            if (initial[e] < t) {
              break; // sorted by initial weight: nothing further reaches t
            }
            continue;
          }
          int y = right[e];
          if (stamp[y] == cur) {
            continue;
          }
          stamp[y] = cur;
          parentEdge[y] = e;
          int me = mateR[y];
          if (me < 0) {
            threshold = t;
            return y;
          }
          queue[qt++] = left[me];
        }
      }
      if (!bottleneck) {
        return -1;
      }
      // The tree proves (Hall) that no perfect matching uses only edges ≥ t: lower t to the
      // heaviest edge leaving the tree. Lowerings are rare (t never rises during a peeling), so
      // re-scanning the tree here is cheap overall.
      long next = -1;
      for (int i = 0; i < qt; i++) {
        int x = queue[i];
        for (int p = start[x], end = p + deg[x]; p < end; p++) {
          int e = adj[p];
          long we = w[e];
          if (we < t && we > next && stamp[right[e]] != cur) {
            next = we;
          }
        }
      }
      if (next < 0) {
        return -1;
      }
      t = next;
      qh = 0;
    }
  }

  private void augment(int y) {
    while (true) {
      int e = parentEdge[y];
      int x = g.left[e];
      int prev = mateL[x];
      mateL[x] = e;
      mateR[y] = e;
      if (prev < 0) {
        return;
      }
      y = g.right[prev];
    }
  }
}
