package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import java.util.Map;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.DinicMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Maximum-cardinality δ-port matching of a bipartite graph (a simple b-matching: sender i in at
 * most δ(i) edges, receiver j in at most δ(j), each edge at most once), computed as an integral
 * maximum flow with JGraphT's {@link DinicMFImpl}: source → sender i (capacity δ(i)), sender →
 * receiver (capacity 1 per edge), receiver j → sink (capacity δ(j)). With δ = 1 everywhere this is
 * the maximum-cardinality bipartite matching of the 1-port model.
 *
 * <p>The library oracle of {@link DynamicDeltaMatching} (the heuristics' hot loop) in the tests;
 * O(√n·m) per call (Dinic on a unit-capacity middle layer). Checked itself against a brute force
 * over edge subsets ({@code FlowDeltaMatchingTest}).
 */
final class FlowDeltaMatching {
  private FlowDeltaMatching() {}

  /**
   * @param src sender index of each candidate edge
   * @param dst receiver index of each candidate edge (same length as src); (src, dst) pairs are
   *     distinct
   * @param count number of candidate edges to use (prefix of src/dst)
   * @param platform δ per node (capped by k, {@link Platform#senderPorts(int)})
   * @return positions (into src/dst) of the edges of one maximum δ-port matching
   */
  static int[] maximum(int[] src, int[] dst, int count, Platform platform) {
    int rows = platform.senders();
    int source = 0;
    int sink = 1;
    Graph<Integer, DefaultWeightedEdge> g =
        new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
    g.addVertex(source);
    g.addVertex(sink);
    DefaultWeightedEdge[] middle = new DefaultWeightedEdge[count];
    for (int e = 0; e < count; e++) {
      int u = 2 + src[e];
      int v = 2 + rows + dst[e];
      if (g.addVertex(u)) {
        g.setEdgeWeight(g.addEdge(source, u), platform.senderPorts(src[e]));
      }
      if (g.addVertex(v)) {
        g.setEdgeWeight(g.addEdge(v, sink), platform.receiverPorts(dst[e]));
      }
      middle[e] = g.addEdge(u, v);
      g.setEdgeWeight(middle[e], 1.0);
    }
    if (count == 0) {
      return new int[0];
    }
    Map<DefaultWeightedEdge, Double> flow =
        new DinicMFImpl<>(g).getMaximumFlow(source, sink).getFlowMap();
    int[] chosen = new int[count];
    int n = 0;
    for (int e = 0; e < count; e++) {
      Double f = flow.get(middle[e]);
      if (f != null && f > 0.5) {
        chosen[n++] = e;
      }
    }
    return java.util.Arrays.copyOf(chosen, n);
  }
}
