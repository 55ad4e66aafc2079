package io.wanshuffle.scheduler.matching;

/**
 * A weighted bipartite graph on primitive arrays, the input of the matching hot loops: edge e
 * joins left vertex {@code left(e)} to right vertex {@code right(e)} and has a remaining integer
 * weight (in whatever unit the caller chose, e.g. multiples of β). Adjacency is stored per left
 * vertex in CSR form; an edge whose weight drops to 0 is unlinked in O(1) (swap with the last
 * alive edge of its vertex), so that later scans never see it.
 *
 * <p>Memory: 5 ints and 1 long per edge, 3 ints per left vertex; a 1000 x 1000 dense graph takes
 * about 28 MB.
 */
public final class BipartiteGraph {
  final int nLeft;
  final int nRight;
  final int[] left;
  final int[] right;
  final long[] weight;
  final int[] adjStart;
  final int[] deg;
  final int[] adj;
  final int[] pos;
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
          "edge arrays differ in length: " + left.length + ", " + right.length + ", "
              + weight.length);
    }
    this.nLeft = nLeft;
    this.nRight = nRight;
    int m = left.length;
    this.left = left.clone();
    this.right = right.clone();
    this.weight = weight.clone();
    this.adjStart = new int[nLeft + 1];
    this.deg = new int[nLeft];
    this.adj = new int[m];
    this.pos = new int[m];
    for (int e = 0; e < m; e++) {
      if (left[e] < 0 || left[e] >= nLeft || right[e] < 0 || right[e] >= nRight) {
        throw new IllegalArgumentException(
            "edge " + e + " (" + left[e] + ", " + right[e] + ") is outside " + nLeft + " x "
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
    int[] fill = new int[nLeft];
    for (int e = 0; e < m; e++) {
      int x = left[e];
      int p = adjStart[x] + fill[x]++;
      adj[p] = e;
      pos[e] = p;
    }
    aliveEdges = m;
  }

  /** @return number of left vertices */
  public int leftCount() {
    return nLeft;
  }

  /** @return number of right vertices */
  public int rightCount() {
    return nRight;
  }

  /** @return number of edges given to the constructor (alive or not) */
  public int edgeCount() {
    return left.length;
  }

  /** @return number of edges whose weight is still &gt; 0 */
  public int aliveEdgeCount() {
    return aliveEdges;
  }

  /** @return left endpoint of edge e */
  public int left(int e) {
    return left[e];
  }

  /** @return right endpoint of edge e */
  public int right(int e) {
    return right[e];
  }

  /** @return remaining weight of edge e (0 once removed) */
  public long weight(int e) {
    return weight[e];
  }

  /** Lowers edge e's weight by {@code amount}; unlinks it when it reaches 0. */
  void subtract(int e, long amount) {
    long nw = weight[e] - amount;
    if (nw < 0) {
      throw new IllegalStateException("edge " + e + " weight would become negative");
    }
    weight[e] = nw;
    if (nw == 0) {
      unlink(e);
    }
  }

  private void unlink(int e) {
    int x = left[e];
    int last = adjStart[x] + deg[x] - 1;
    int p = pos[e];
    int other = adj[last];
    adj[p] = other;
    pos[other] = p;
    adj[last] = e;
    pos[e] = last;
    deg[x]--;
    aliveEdges--;
  }
}
