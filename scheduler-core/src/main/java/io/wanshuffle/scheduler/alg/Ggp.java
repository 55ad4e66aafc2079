package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * GGP, Generic Graph Peeling (Cohen, Jeannot, Padoy, Wagner, "Messages scheduling for parallel data
 * redistribution between clusters", IEEE TPDS 2006, sec. 6.1, Fig. 4 and Fig. 7): round weights up
 * to whole quanta ({@link Quantum}: multiples of β), extend the graph to a weight-regular one with
 * virtual nodes that enforce k (Lemma 2), and peel it into perfect matchings, any perfect matching
 * at each peel. A 2-approximation (Theorem 3): in units of the quantum q, cost ≤ 2·q·max(W(H),
 * ⌈P(H)/k⌉) where H is the rounded graph, which is at most 2·(max(W, q⌈P/(kq)⌉) + q·η_s) — twice
 * the paper's η with its integer-rounded P/k.
 *
 * <p>1-port only: on a δ-port platform GGP ignores the extra ports and schedules as if δ = 1
 * everywhere (the result is valid for the δ-port platform too); use {@code dggp} or {@code auto} to
 * use the ports.
 *
 * <p>Complexity: O(√n·(m+n)²) worst case (Proposition 4); the peeling reuses the previous matching
 * and repairs it, so a peel usually costs far less than a full matching.
 */
public final class Ggp implements StepScheduler {
  /** Name in {@link Algorithms}. */
  public static final String NAME = "ggp";

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix seconds at base speed
   * @param platform k, β; δ is treated as 1
   * @return a valid schedule (1-port)
   * @throws IllegalArgumentException if shapes differ
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    return GraphPeeling.peelMatrix(
        matrix, platform.k(), Quantum.of(matrix, onePort(platform)), false);
  }

  /**
   * @return p itself if it is 1-port, else the same k and β with δ = 1 everywhere
   */
  static Platform onePort(Platform p) {
    return p.isOnePort() ? p : Platform.onePort(p.k(), p.beta(), p.senders(), p.receivers());
  }
}
