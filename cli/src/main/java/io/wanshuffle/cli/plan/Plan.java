package io.wanshuffle.cli.plan;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;

/**
 * One computed plan: the instance (in seconds), the algorithm that scheduled it, its validated
 * schedule and the η lower bound.
 *
 * @param input the matrix file as read (amounts in the file's unit, host names)
 * @param seconds the matrix in seconds at base speed
 * @param platform k, β (seconds), δ
 * @param algorithm the scheduler's name
 * @param schedule a schedule that passed {@link Schedule#validate}
 * @param bound η = η_d + β·η_s for the instance
 * @param linkOverloads with {@code --topology} and an algorithm that plans on k and δ only: the
 *     (step, link) pairs where the step puts more flows on a link of the topology than it carries
 *     ({@link io.wanshuffle.scheduler.topology.LinkCapacityValidator#overloads}); 0 for {@code
 *     liquid}; null without a topology
 */
record Plan(
    MatrixFile input,
    TrafficMatrix seconds,
    Platform platform,
    String algorithm,
    Schedule schedule,
    LowerBound bound,
    Integer linkOverloads) {
  /** Relative difference below which a bound above the cost is floating-point rounding. */
  static final double ROUNDING = 1e-9;

  /**
   * η as reported: the bound, lowered to the cost where it exceeds the cost by floating-point
   * rounding only (the bound and the cost add the same amounts in different orders; no schedule
   * beats η).
   *
   * @return η, seconds
   * @throws IllegalStateException if the cost is below η by more than rounding (a bug)
   */
  double eta() {
    double eta = bound.eta();
    double cost = cost();
    if (eta <= cost) {
      return eta;
    }
    if (eta - cost <= ROUNDING * eta) {
      return cost;
    }
    throw new IllegalStateException(
        "algorithm " + algorithm + " costs " + cost + " s, below the η lower bound " + eta + " s");
  }

  /**
   * @return Σ (β + duration) over the steps, seconds
   */
  double cost() {
    return schedule.cost(platform.beta());
  }
}
