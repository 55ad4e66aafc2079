package io.wanshuffle.cli.plan;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.estimate.BruteForceEstimator;
import io.wanshuffle.scheduler.estimate.LinkFairShareEstimator;
import io.wanshuffle.scheduler.topology.LinkNetwork;

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
 * @param bruteForceEstimate η_o, seconds: how long Spark's default (every transfer at once, fair
 *     sharing of the NICs and of k on the backbone, {@link BruteForceEstimator}; with {@code
 *     --topology} max-min fair sharing of every link, {@link LinkFairShareEstimator}) would take;
 *     null when the matrix has more than {@link #BRUTE_FORCE_LIMIT} transfers
 */
record Plan(
    MatrixFile input,
    TrafficMatrix seconds,
    Platform platform,
    String algorithm,
    Schedule schedule,
    LowerBound bound,
    Integer linkOverloads,
    Double bruteForceEstimate) {
  /**
   * Most transfers for which η_o is computed: its fair-sharing simulation runs one round per
   * transfer end, each over every remaining transfer (quadratic in transfers; about a second at
   * this size).
   */
  static final int BRUTE_FORCE_LIMIT = 16_384;

  /**
   * η_o of an instance when it is within {@link #BRUTE_FORCE_LIMIT}.
   *
   * @param seconds the matrix in seconds at base speed
   * @param platform k and δ (β does not enter: nothing is scheduled)
   * @return η_o, seconds, or null for a matrix of more than {@link #BRUTE_FORCE_LIMIT} transfers
   */
  static Double bruteForce(TrafficMatrix seconds, Platform platform) {
    return seconds.nonZeroCount() <= BRUTE_FORCE_LIMIT
        ? BruteForceEstimator.estimate(seconds, platform)
        : null;
  }

  /**
   * η_o of an instance on a link network when it is within {@link #BRUTE_FORCE_LIMIT}.
   *
   * @param seconds the matrix in seconds at base speed
   * @param network routes and capacities (flows) of every link
   * @return η_o on the links, seconds, or null for a matrix of more than {@link #BRUTE_FORCE_LIMIT}
   *     transfers
   */
  static Double bruteForce(TrafficMatrix seconds, LinkNetwork network) {
    return seconds.nonZeroCount() <= BRUTE_FORCE_LIMIT
        ? LinkFairShareEstimator.estimate(seconds, network)
        : null;
  }

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
