package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Comparator;

/**
 * The heuristic on weights of Cohen, Jeannot, Padoy and Wagner (GGP/OGGP paper, sec. 7, Fig. 10),
 * δ-port aware. Each step: take a maximum-cardinality matching of the remaining traffic graph (a
 * δ-port matching: node v in at most δ(v) transfers), keep the k edges (or fewer) with the largest
 * remaining amounts, give every kept edge the amount of the lightest one, subtract, repeat until
 * nothing is left.
 *
 * <p>Not an approximation algorithm (the paper measures cost/η below 2.4 on random 20 x 20 graphs);
 * it is a fast baseline. Ties between equal amounts go to the lower edge index (row-major order of
 * the matrix), so the result is deterministic.
 *
 * <p>Complexity: at most m(G) steps; the maximum matching is kept from step to step and repaired by
 * augmenting paths from the endpoints of the edges a step finishes ({@link DynamicDeltaMatching}):
 * O(n·m) for the first matching, O(d·(n + m)) for a step that finishes d edges, plus sorting the
 * matching.
 */
public final class HeuristicOnWeights implements StepScheduler {
  /** The name the registry and the CLI use. */
  public static final String NAME = "heuristic-weights";

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
    return MatchingHeuristic.run(matrix, platform, HeuristicOnWeights::heaviestFirst);
  }

  private static Comparator<Integer> heaviestFirst(RemainingGraph g, Platform platform) {
    return Comparator.<Integer>comparingDouble(e -> -g.remaining[e])
        .thenComparingInt(Integer::intValue);
  }
}
