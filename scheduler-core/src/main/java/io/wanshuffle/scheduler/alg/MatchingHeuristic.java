package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The loop both heuristics of the GGP/OGGP paper share (sec. 7, Fig. 10), δ-port aware:
 *
 * <ol>
 *   <li>find a maximum-cardinality δ-port matching of the remaining graph ({@link
 *       FlowDeltaMatching});
 *   <li>keep at most k of its edges, the first ones in the order a {@link Comparator} gives (the
 *       only difference between the two heuristics);
 *   <li>the step lasts as long as the lightest kept edge; every kept edge sends that much;
 *   <li>subtract and loop until no edge is left.
 * </ol>
 *
 * Every step removes at least one edge, so there are at most m(G) steps: O(m²·√n) time.
 */
final class MatchingHeuristic {
  /** Orders the edges of one matching, best first, looking at the remaining graph. */
  interface Ranking {
    /**
     * @param g the remaining graph before the step
     * @param platform δ and k
     * @return a comparator of edge ids of g; the heuristic keeps the k smallest
     */
    Comparator<Integer> order(RemainingGraph g, Platform platform);
  }

  private MatchingHeuristic() {}

  static Schedule run(TrafficMatrix matrix, Platform platform, Ranking ranking) {
    platform.requireShape(matrix);
    RemainingGraph g = new RemainingGraph(matrix);
    int[] src = new int[g.edgeCount()];
    int[] dst = new int[g.edgeCount()];
    int[] id = new int[g.edgeCount()];
    List<Step> steps = new ArrayList<>();
    while (g.aliveCount() > 0) {
      int n = 0;
      for (int e = 0; e < g.edgeCount(); e++) {
        if (g.isAlive(e)) {
          src[n] = g.src[e];
          dst[n] = g.dst[e];
          id[n++] = e;
        }
      }
      int[] matched = FlowDeltaMatching.maximum(src, dst, n, platform);
      Integer[] edges = new Integer[matched.length];
      for (int x = 0; x < matched.length; x++) {
        edges[x] = id[matched[x]];
      }
      Arrays.sort(edges, ranking.order(g, platform));
      int keep = Math.min(platform.k(), edges.length);
      double duration = Double.POSITIVE_INFINITY;
      for (int x = 0; x < keep; x++) {
        duration = Math.min(duration, g.remaining[edges[x]]);
      }
      List<Transfer> transfers = new ArrayList<>(keep);
      for (int x = 0; x < keep; x++) {
        int e = edges[x];
        transfers.add(new Transfer(g.src[e], g.dst[e], g.send(e, duration)));
      }
      steps.add(Step.of(transfers));
    }
    return new Schedule(steps);
  }
}
