package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Comparator;

/**
 * The heuristic on degrees of Cohen, Jeannot, Padoy and Wagner (GGP/OGGP paper, sec. 7: Fig. 10
 * with line 2 replaced by "keep only the k edges with highest degrees"), δ-port aware. Each step:
 * take a maximum-cardinality δ-port matching of the remaining traffic graph, keep the k edges (or
 * fewer) of highest degree, give every kept edge the amount of the lightest kept one, subtract,
 * repeat until nothing is left.
 *
 * <p>The paper does not define the degree of an edge; here it is the sum of its endpoints'
 * remaining degrees, each divided by the node's δ: deg(u)/δ(u) + deg(v)/δ(v) (deg(u) + deg(v) in
 * the 1-port model). That is how many steps the two endpoints still need at least, so busy nodes
 * are served first. Ties go to the larger remaining amount, then to the lower edge index.
 *
 * <p>Complexity: at most m(G) steps; the maximum matching is kept from step to step and repaired by
 * augmenting paths from the endpoints of the edges a step finishes ({@link DynamicDeltaMatching}):
 * O(n·m) for the first matching, O(d·(n + m)) for a step that finishes d edges, plus sorting the
 * matching.
 */
public final class HeuristicOnDegrees implements StepScheduler {
  /** The name the registry and the CLI use. */
  public static final String NAME = "heuristic-degrees";

  /**
   * @return {@value #NAME}
   */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k, β (seconds), δ per node; shape must match the matrix
   * @return a valid schedule with at most m(G) steps (empty for an all-zero matrix)
   * @throws IllegalArgumentException if the shapes differ
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    return MatchingHeuristic.run(matrix, platform, HeuristicOnDegrees::busiestFirst);
  }

  private static Comparator<Integer> busiestFirst(RemainingGraph g, Platform p) {
    return Comparator.<Integer>comparingDouble(
            e ->
                -((double) g.senderDegree[g.src[e]] / p.senderPorts(g.src[e])
                    + (double) g.receiverDegree[g.dst[e]] / p.receiverPorts(g.dst[e])))
        .thenComparingDouble(e -> -g.remaining[e])
        .thenComparingInt(Integer::intValue);
  }
}
