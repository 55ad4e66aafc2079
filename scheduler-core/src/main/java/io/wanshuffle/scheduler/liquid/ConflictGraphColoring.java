package io.wanshuffle.scheduler.liquid;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jgrapht.Graph;
import org.jgrapht.alg.color.SaturationDegreeColoring;
import org.jgrapht.alg.interfaces.VertexColoringAlgorithm;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * The fast fallback of the liquid-schedules paper (annex): colour the conflict graph (a vertex per
 * transfer, an edge between two transfers that share a link) with Brélaz's DSatur heuristic
 * (JGraphT's {@link SaturationDegreeColoring}); each colour is a time frame. O((n + e) log n) for n
 * transfers and e conflicts; not optimal in general (the paper's annex: 26% of the Swiss-T1
 * sub-topologies lose frames).
 */
public final class ConflictGraphColoring {
  private ConflictGraphColoring() {}

  /**
   * @param traffic the traffic
   * @return its conflict graph: vertices 0..size-1, an edge per pair of transfers sharing a link
   */
  public static Graph<Integer, DefaultEdge> conflictGraph(Traffic traffic) {
    Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
    for (int t = 0; t < traffic.size(); t++) {
      g.addVertex(t);
    }
    List<List<Integer>> onLink = new ArrayList<>();
    for (int l = 0; l < traffic.linkCount(); l++) {
      onLink.add(new ArrayList<>());
    }
    int[][] links = traffic.linksRef();
    for (int t = 0; t < links.length; t++) {
      for (int l : links[t]) {
        onLink.get(l).add(t);
      }
    }
    for (List<Integer> ts : onLink) {
      for (int a = 0; a < ts.size(); a++) {
        for (int b = a + 1; b < ts.size(); b++) {
          g.addEdge(ts.get(a), ts.get(b));
        }
      }
    }
    return g;
  }

  /**
   * @param traffic the traffic
   * @return the DSatur schedule: one frame per colour, colours in increasing order; {@code optimal}
   *     is true only when it is liquid (length = Λ)
   */
  public static LiquidSchedule dsatur(Traffic traffic) {
    VertexColoringAlgorithm.Coloring<Integer> c =
        new SaturationDegreeColoring<>(conflictGraph(traffic)).getColoring();
    List<List<Integer>> byColour = new ArrayList<>();
    for (int i = 0; i < c.getNumberColors(); i++) {
      byColour.add(new ArrayList<>());
    }
    for (Map.Entry<Integer, Integer> e : c.getColors().entrySet()) {
      byColour.get(e.getValue()).add(e.getKey());
    }
    List<int[]> frames = new ArrayList<>();
    for (List<Integer> f : byColour) {
      if (!f.isEmpty()) {
        frames.add(f.stream().mapToInt(Integer::intValue).sorted().toArray());
      }
    }
    return new LiquidSchedule(
        traffic, frames, traffic.duration(), frames.size() == traffic.duration());
  }
}
