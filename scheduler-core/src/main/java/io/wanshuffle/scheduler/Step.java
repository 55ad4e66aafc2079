package io.wanshuffle.scheduler;

import java.util.List;

/**
 * One communication step: a set of transfers that run together and a duration. The step's time is β
 * + {@code duration()}; {@code duration()} is at least the longest transfer amount.
 *
 * @param duration seconds, ≥ every transfer's amount
 * @param transfers the transfers of the step (a matching of the traffic graph under the 1-port or
 *     δ-port model, at most k of them; checked by {@link Schedule#validate})
 */
public record Step(double duration, List<Transfer> transfers) {
  /**
   * @throws IllegalArgumentException if the duration is shorter than a transfer or not finite
   */
  public Step {
    transfers = List.copyOf(transfers);
    if (!(duration >= 0) || Double.isInfinite(duration)) {
      throw new IllegalArgumentException("step duration must be finite and >= 0, got " + duration);
    }
    for (Transfer t : transfers) {
      if (t.amount() > duration * (1 + 1e-12)) {
        throw new IllegalArgumentException(
            "transfer " + t + " is longer than its step duration " + duration);
      }
    }
  }

  /**
   * @param transfers transfers of the step
   * @return a step whose duration is the longest transfer's amount (seconds)
   */
  public static Step of(List<Transfer> transfers) {
    double d = 0;
    for (Transfer t : transfers) {
      d = Math.max(d, t.amount());
    }
    return new Step(d, transfers);
  }
}
