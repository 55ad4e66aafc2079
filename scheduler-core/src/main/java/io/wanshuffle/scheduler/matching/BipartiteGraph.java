package io.wanshuffle.scheduler.matching;

/**
 * A weighted bipartite graph on primitive arrays, the input of the matching hot loops: edge e joins
 * left vertex {@code left(e)} to right vertex {@code right(e)} and has a remaining integer weight
 * (in whatever unit the caller chose, e.g. multiples of β). Adjacency is stored per left vertex in
 * CSR form, each list sorted by initial weight, heaviest first. Weights only decrease, so a scan
 * for edges of weight ≥ t may stop at the first edge whose <em>initial</em> weight is below t. An
 * edge whose weight reaches 0 is dead: scans skip it, and a vertex's list is compacted (order kept)
 * once half of it is dead.
 *
 * <p>Memory: 3 ints and 2 longs per edge, 3 ints per left vertex; a 1000 x 1000 dense graph takes
 * about 28 MB.
 */
public final class BipartiteGraph {
  final int nLeft;
  final int nRight;
  final int[] left;
  final int[] right;
  final long[] weight;
  final long[] initial;
  final int[] adjStart;
  final int[] deg;
  final int[] adj;
  final int[] dead;
  private int aliveEdges;

  /**
   * @param nLeft number of left vertices (≥ 0)
   * @param nRight number of right vertices (≥ 0)
   * @param left left endpoint of each edge, in [0, nLeft)
   * @param right right endpoint of each edge, in [0, nRight); same length as {@code left}
   * @param weight weight of each edge, ≥ 1 (the array is copied)
   * @throws IllegalArgumentException on mismatched lengths, an endpoint out of range or a weight
   *     below 1
   */
  public BipartiteGraph(int nLeft, int nRight, int[] left, int[] right, long[] weight) {
    if (left.length != right.length || left.length != weight.length) {
      throw new IllegalArgumentException(
          "edge arrays differ in length: "
              + left.length
              + ", "
              + right.length
              + ", "
              + weight.length);
    }
    this.nLeft = nLeft;
    this.nRight = nRight;
    int m = left.length;
    this.left = left.clone();
    this.right = right.clone();
    this.weight = weight.clone();
    this.initial = weight.clone();
    this.adjStart = new int[nLeft + 1];
    this.deg = new int[nLeft];
    this.adj = new int[m];
    this.dead = new int[nLeft];
    for (int e = 0; e < m; e++) {
      if (left[e] < 0 || left[e] >= nLeft || right[e] < 0 || right[e] >= nRight) {
        throw new IllegalArgumentException(
            "edge "
                + e
                + " ("
                + left[e]
                + ", "
                + right[e]
                + ") is outside "
                + nLeft
                + " x "
                + nRight);
      }
      if (weight[e] < 1) {
        throw new IllegalArgumentException("edge " + e + " weight must be >= 1, got " + weight[e]);
      }
      deg[left[e]]++;
    }
    for (int x = 0; x < nLeft; x++) {
      adjStart[x + 1] = adjStart[x] + deg[x];
    }
    // Counting sort by left vertex, then each list by weight, heaviest first.
    int[] fill = new int[nLeft];
    for (int e = 0; e < m; e++) {
      int x = left[e];
      adj[adjStart[x] + fill[x]++] = e;
    }
    long[] keys = new long[0];
    for (int x = 0; x < nLeft; x++) {
      int from = adjStart[x];
      int d = deg[x];
      if (d < 2) {
        continue;
      }
      if (keys.length < d) {
        keys = new long[Math.max(d, 2 * keys.length)];
      }
      boolean packable = true;
      for (int i = 0; i < d; i++) {
        long w = weight[adj[from + i]];
        if (w >= (1L << 31)) {
          packable = false;
          break;
        }
        // Ascending keys = descending weight, ties by edge id.
        keys[i] = (((1L << 31) - 1 - w) << 32) | adj[from + i];
      }
      if (packable) {
        java.util.Arrays.sort(keys, 0, d);
        for (int i = 0; i < d; i++) {
          adj[from + i] = (int) keys[i];
        }
      } else {
        Integer[] ids = new Integer[d];
        for (int i = 0; i < d; i++) {
          ids[i] = adj[from + i];
        }
        java.util.Arrays.sort(
            ids,
            (a, b) ->
                a.equals(b)
                    ? 0
                    : weight[b] != weight[a]
                        ? Long.compare(weight[b], weight[a])
                        : Integer.compare(a, b));
        for (int i = 0; i < d; i++) {
          adj[from + i] = ids[i];
        }
      }
    }
    aliveEdges = m;
  }

  /**
   * @return number of left vertices
   */
  public int leftCount() {
    return nLeft;
  }

  /**
   * @return number of right vertices
   */
  public int rightCount() {
    return nRight;
  }

  /**
   * @return number of edges given to the constructor (alive or not)
   */
  public int edgeCount() {
    return left.length;
  }

  /**
   * @return number of edges whose weight is still &gt; 0
   */
  public int aliveEdgeCount() {
    return aliveEdges;
  }

  /**
   * @return left endpoint of edge e
   */
  public int left(int e) {
    return left[e];
  }

  /**
   * @return right endpoint of edge e
   */
  public int right(int e) {
    return right[e];
  }

  /**
   * @return remaining weight of edge e (0 once removed)
   */
  public long weight(int e) {
    return weight[e];
  }

  /** Lowers edge e's weight by {@code amount}; marks it dead when it reaches 0. */
  void subtract(int e, long amount) {
    long nw = weight[e] - amount;
    if (nw < 0) {
      throw new IllegalStateException("edge " + e + " weight would become negative");
    }
    weight[e] = nw;
    if (nw == 0) {
      aliveEdges--;
      int x = left[e];
      if (++dead[x] * 2 > deg[x]) {
        compact(x);
      }
    }
  }

  /** Drops the dead edges of x's list, keeping the order. */
  private void compact(int x) {
    int from = adjStart[x];
    int to = from;
    for (int p = from, end = from + deg[x]; p < end; p++) {
      int e = adj[p];
      if (weight[e] > 0) {
        adj[to++] = e;
      }
    }
    for (int p = to; p < from + deg[x]; p++) {
      adj[p] = -1;
    }
    deg[x] = to - from;
    dead[x] = 0;
  }
}
