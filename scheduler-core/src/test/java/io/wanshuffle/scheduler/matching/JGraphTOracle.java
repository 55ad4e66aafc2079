package io.wanshuffle.scheduler.matching;

import java.util.HashSet;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.alg.matching.HopcroftKarpMaximumCardinalityBipartiteMatching;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/** JGraphT as the oracle for our primitive-array matchings. */
final class JGraphTOracle {
  private JGraphTOracle() {}

  /** Maximum matching size over the alive edges of g with weight ≥ minWeight. */
  static int maximumMatchingSize(BipartiteGraph g, long minWeight) {
    Graph<Integer, DefaultEdge> jg = new SimpleGraph<>(DefaultEdge.class);
    Set<Integer> l = new HashSet<>();
    Set<Integer> r = new HashSet<>();
    for (int x = 0; x < g.leftCount(); x++) {
      jg.addVertex(x);
      l.add(x);
    }
    for (int y = 0; y < g.rightCount(); y++) {
      jg.addVertex(g.leftCount() + y);
      r.add(g.leftCount() + y);
    }
    for (int e = 0; e < g.edgeCount(); e++) {
      if (g.weight(e) >= Math.max(1, minWeight)) {
        jg.addEdge(g.left(e), g.leftCount() + g.right(e));
      }
    }
    return new HopcroftKarpMaximumCardinalityBipartiteMatching<>(jg, l, r)
        .getMatching()
        .getEdges()
        .size();
  }

  /**
   * The bottleneck value by definition: the largest edge weight t such that the edges of weight ≥ t
   * hold a perfect matching, or -1 when there is none.
   */
  static long bottleneck(BipartiteGraph g) {
    java.util.TreeSet<Long> ws = new java.util.TreeSet<>();
    for (int e = 0; e < g.edgeCount(); e++) {
      if (g.weight(e) > 0) {
        ws.add(g.weight(e));
      }
    }
    int n = g.leftCount();
    for (long t : ws.descendingSet()) {
      if (maximumMatchingSize(g, t) == n) {
        return t;
      }
    }
    return -1;
  }
}
