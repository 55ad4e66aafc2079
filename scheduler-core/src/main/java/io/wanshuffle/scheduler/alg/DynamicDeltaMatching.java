package io.wanshuffle.scheduler.alg;

import java.util.Arrays;

/**
 * A maximum-cardinality δ-port matching of a bipartite graph (a simple b-matching: sender i in at
 * most δ(i) matched edges, receiver j in at most δ(j), each edge at most once) kept maximum while
 * edges leave the graph: the hot loop of the GGP/OGGP paper's two heuristics (sec. 7, Fig. 10),
 * which take a maximum matching of the remaining graph at every step and remove the edges that step
 * finishes.
 *
 * <p>Instead of a new maximum flow per step, the matching of the previous step is kept without its
 * removed edges and repaired by augmenting paths (Berge: a matching is maximum iff it has no
 * augmenting path; for b-matchings the same holds of the flow network source → sender (δ) →
 * receiver (δ) → sink). Removing d matched edges loses d edges, so at most d augmentations restore
 * the maximum; each is one search from every node of one side that has a free port and an edge left
 * (a depth-first search on primitive arrays sharing its visited marks across those starts: O(n + m)
 * with m the edges left, adjacency lists dropping removed edges in O(1)), and a last search that
 * finds nothing proves the matching maximum. That search is skipped when one side has no free port
 * on a node with edges left (then no augmenting path can exist), which is the common case of a
 * dense traffic matrix. Per step: O((d + 1)·(n + m)) instead of O(m·√n) for a maximum flow from
 * scratch. The first maximum matching: greedy, then the same searches.
 *
 * <p>Checked against JGraphT's Dinic maximum flow on random graphs and removal sequences (tests).
 * Not thread-safe.
 */
final class DynamicDeltaMatching {
  /**
   * One side of the bipartite graph, so that the search runs the same code forward and backward.
   */
  private static final class Side {
    final int[] off; // adjacency segment start per node (CSR), size nodes + 1
    final int[] len; // edges left per node: its present edges are adj[off[v] .. off[v] + len[v])
    final int[] adj; // edge ids per node
    final int[] pos; // position of each edge in adj
    final int[] cap; // δ
    final int[] used; // matched edges per node
    final int[] endpoint; // endpoint on this side of each edge
    final int[] visited; // search stamp
    final int[] inEdge; // edge by which the search reached the node
    final int[] it; // next adjacency position to try

    Side(int nodes, int[] endpoint, int[] cap) {
      this.endpoint = endpoint;
      this.cap = cap;
      off = new int[nodes + 1];
      for (int x : endpoint) {
        off[x + 1]++;
      }
      for (int v = 0; v < nodes; v++) {
        off[v + 1] += off[v];
      }
      adj = new int[endpoint.length];
      pos = new int[endpoint.length];
      len = new int[nodes];
      for (int e = 0; e < endpoint.length; e++) {
        int v = endpoint[e];
        pos[e] = off[v] + len[v];
        adj[pos[e]] = e;
        len[v]++;
      }
      used = new int[nodes];
      visited = new int[nodes];
      inEdge = new int[nodes];
      it = new int[nodes];
    }

    /** Drops edge e from its node's list: swaps it with the node's last present edge. */
    void drop(int e) {
      int v = endpoint[e];
      int last = off[v] + --len[v];
      int p = pos[e];
      int other = adj[last];
      adj[p] = other;
      pos[other] = p;
      adj[last] = e;
      pos[e] = last;
    }

    /**
     * @return true if edge e is still in its node's list
     */
    boolean present(int e) {
      int v = endpoint[e];
      return pos[e] < off[v] + len[v];
    }

    /**
     * @return nodes with a free port and at least one edge left
     */
    int freeNodes(int[] out) {
      int n = 0;
      for (int v = 0; v < len.length; v++) {
        if (used[v] < cap[v] && len[v] > 0) {
          out[n++] = v;
        }
      }
      return n;
    }
  }

  private final Side senders;
  private final Side receivers;

  /** A matched edge was removed since the last {@link #restore()}. */
  private boolean broken;

  private final int[] startsA;
  private final int[] startsB;

  /** Matched edge ids, and each edge's position in it (-1: not matched). */
  private final int[] matchedList;

  private final int[] position;
  private int size;
  private int stamp;

  /** DFS stack: a sender s as s, a receiver r as ~r (forward); sides swapped backward. */
  private final int[] stack;

  /**
   * Builds the graph with every edge present and computes a maximum matching.
   *
   * @param src sender of each edge, in 0..senderPorts.length-1
   * @param dst receiver of each edge (same length), in 0..receiverPorts.length-1; (src, dst) pairs
   *     distinct
   * @param senderPorts δ of each sender, at least 1
   * @param receiverPorts δ of each receiver, at least 1
   */
  DynamicDeltaMatching(int[] src, int[] dst, int[] senderPorts, int[] receiverPorts) {
    int m = src.length;
    senders = new Side(senderPorts.length, src, senderPorts);
    receivers = new Side(receiverPorts.length, dst, receiverPorts);
    matchedList = new int[m];
    position = new int[m];
    Arrays.fill(position, -1);
    stack = new int[senderPorts.length + receiverPorts.length + 1];
    startsA = new int[senderPorts.length];
    startsB = new int[receiverPorts.length];
    for (int e = 0; e < m; e++) { // greedy start
      if (senders.used[src[e]] < senderPorts[src[e]]
          && receivers.used[dst[e]] < receiverPorts[dst[e]]) {
        match(e);
      }
    }
    broken = true;
    restore();
  }

  /**
   * @return the number of matched edges
   */
  int size() {
    return size;
  }

  /**
   * @return the matched edge ids (a copy; order unspecified)
   */
  int[] matchedEdges() {
    return Arrays.copyOf(matchedList, size);
  }

  /**
   * @param e an edge @return true if it is in the matching
   */
  boolean isMatched(int e) {
    return position[e] >= 0;
  }

  /**
   * Removes edge e from the graph (no effect if already removed). The matching stays valid but may
   * no longer be maximum until {@link #restore()}.
   *
   * @param e the edge
   */
  void remove(int e) {
    if (!senders.present(e)) {
      return;
    }
    senders.drop(e);
    receivers.drop(e);
    if (isMatched(e)) {
      unmatch(e);
      broken = true;
    }
  }

  /**
   * Makes the matching maximum again after removals (nothing to do when no matched edge was
   * removed).
   */
  void restore() {
    while (broken) {
      int nA = senders.freeNodes(startsA);
      int nB = receivers.freeNodes(startsB);
      if (nA == 0 || nB == 0) {
        break; // every augmenting path joins a free sender to a free receiver, both with edges left
      }
      boolean grown =
          nA <= nB
              ? augment(startsA, nA, senders, receivers)
              : augment(startsB, nB, receivers, senders);
      if (!grown) {
        break;
      }
    }
    broken = false;
  }

  private void match(int e) {
    senders.used[senders.endpoint[e]]++;
    receivers.used[receivers.endpoint[e]]++;
    position[e] = size;
    matchedList[size++] = e;
  }

  private void unmatch(int e) {
    senders.used[senders.endpoint[e]]--;
    receivers.used[receivers.endpoint[e]]--;
    int p = position[e];
    int last = matchedList[--size];
    matchedList[p] = last;
    position[last] = p;
    position[e] = -1;
  }

  /**
   * Depth-first search for one augmenting path from any of the given nodes of {@code a} (free
   * ports) to a node of {@code b} with a free port: unmatched edges from a to b, matched edges back
   * from b to a; the starts share their visited marks (a node a failed search reached leads to no
   * free port). Applies the path if found.
   *
   * @return true if the matching grew by one edge
   */
  private boolean augment(int[] starts, int count, Side a, Side b) {
    int mark = ++stamp;
    for (int x = 0; x < count; x++) {
      int start = starts[x];
      if (a.visited[start] != mark && augmentFrom(start, mark, a, b)) {
        return true;
      }
    }
    return false;
  }

  private boolean augmentFrom(int start, int mark, Side a, Side b) {
    int top = 0;
    a.visited[start] = mark;
    a.it[start] = a.off[start];
    stack[top++] = start;
    while (top > 0) {
      int node = stack[top - 1];
      if (node >= 0) { // a node of side a: leave by an unmatched edge
        int u = node;
        boolean pushed = false;
        while (a.it[u] < a.off[u] + a.len[u]) {
          int e = a.adj[a.it[u]++];
          if (isMatched(e)) {
            continue;
          }
          int v = b.endpoint[e];
          if (b.visited[v] == mark) {
            continue;
          }
          if (b.used[v] < b.cap[v]) {
            flip(e, start, a, b);
            return true;
          }
          b.visited[v] = mark;
          b.inEdge[v] = e;
          b.it[v] = b.off[v];
          stack[top++] = ~v;
          pushed = true;
          break;
        }
        if (!pushed) {
          top--;
        }
      } else { // a node of side b: come back by a matched edge
        int v = ~node;
        boolean pushed = false;
        while (b.it[v] < b.off[v] + b.len[v]) {
          int e = b.adj[b.it[v]++];
          if (!isMatched(e)) {
            continue;
          }
          int u = a.endpoint[e];
          if (a.visited[u] == mark) {
            continue;
          }
          a.visited[u] = mark;
          a.inEdge[u] = e;
          a.it[u] = a.off[u];
          stack[top++] = u;
          pushed = true;
          break;
        }
        if (!pushed) {
          top--;
        }
      }
    }
    return false;
  }

  /**
   * Applies the augmenting path that ends with unmatched edge {@code last}, walking back to {@code
   * start}.
   */
  private void flip(int last, int start, Side a, Side b) {
    int e = last;
    while (true) {
      match(e);
      int u = a.endpoint[e];
      if (u == start) {
        return;
      }
      int back = a.inEdge[u]; // matched edge (u, v) by which the search reached u
      unmatch(back);
      int v = b.endpoint[back];
      e = b.inEdge[v]; // unmatched edge by which the search reached v
    }
  }
}
