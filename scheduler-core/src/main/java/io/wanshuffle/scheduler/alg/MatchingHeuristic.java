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
 *   <li>take a maximum-cardinality δ-port matching of the remaining graph ({@link
 *       DynamicDeltaMatching}, kept maximum from step to step);
 *   <li>keep at most k of its edges, the first ones in the order a {@link Comparator} gives (the
 *       only difference between the two heuristics);
 *   <li>the step lasts as long as the lightest kept edge; every kept edge sends that much;
 *   <li>subtract and loop until no edge is left.
 * </ol>
 *
 * Every step removes at least one edge, so there are at most m(G) steps. Per step: sorting the
 * matching (at most min(Σδ) edges) and repairing it after the finished edges are removed (one
 * augmenting-path search per lost matched edge end, O(n + m) each); O(m·n) for the first matching.
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
    int[] senderPorts = new int[matrix.rows()];
    for (int i = 0; i < senderPorts.length; i++) {
      senderPorts[i] = platform.senderPorts(i);
    }
    int[] receiverPorts = new int[matrix.cols()];
    for (int j = 0; j < receiverPorts.length; j++) {
      receiverPorts[j] = platform.receiverPorts(j);
    }
    DynamicDeltaMatching matching =
        new DynamicDeltaMatching(g.src, g.dst, senderPorts, receiverPorts);
    List<Step> steps = new ArrayList<>();
    while (g.aliveCount() > 0) {
      int[] matched = matching.matchedEdges();
      Integer[] edges = new Integer[matched.length];
      for (int x = 0; x < matched.length; x++) {
        edges[x] = matched[x];
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
        if (!g.isAlive(e)) {
          matching.remove(e);
        }
      }
      matching.restore();
      steps.add(Step.of(transfers));
    }
    return new Schedule(steps);
  }
}
