package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * OGGP, Optimized GGP (Cohen, Jeannot, Padoy, Wagner, IEEE TPDS 2006, sec. 6.3, Fig. 9): GGP
 * ({@link Ggp}) where every peel takes the perfect matching whose smallest weight is largest (the
 * bottleneck matching), so that steps are as long as possible and fewer. Same 2-approximation bound
 * as GGP.
 *
 * <p>The bottleneck matching is computed incrementally ({@link
 * io.wanshuffle.scheduler.matching.Peeler}): O(√n·(m+n)³) worst case by the paper's count, far less
 * in practice.
 *
 * <p>1-port only: on a δ-port platform OGGP schedules as if δ = 1 everywhere (valid there too);
 * {@link Dggp} uses the ports.
 */
public final class Oggp implements StepScheduler {
  /** Name in {@link Algorithms}. */
  public static final String NAME = "oggp";

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
        matrix, platform.k(), Quantum.of(matrix, Ggp.onePort(platform)), true);
  }
}
