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
 */
record Plan(MatrixFile input, TrafficMatrix seconds, Platform platform, String algorithm,
    Schedule schedule, LowerBound bound) {

  /** @return Σ (β + duration) over the steps, seconds */
  double cost() {
    return schedule.cost(platform.beta());
  }
}
