package io.wanshuffle.scheduler;

import java.util.List;

/**
 * A KPBS schedule: an ordered list of steps. Its cost is Σ over steps of (β + step duration), in
 * seconds (GGP/OGGP paper, sec. 2.2: "(Σ W_i) + s" in the normalised form where β = 1).
 *
 * @param steps the steps in execution order
 */
public record Schedule(List<Step> steps) {
  /** Relative tolerance of {@link #validate} on coverage (floating-point amounts). */
  public static final double TOLERANCE = 1e-9;

  /** Copies the list. */
  public Schedule {
    steps = List.copyOf(steps);
  }

  /**
   * @param beta setup delay per step, seconds
   * @return Σ (β + duration) over the steps, seconds
   */
  public double cost(double beta) {
    double c = 0;
    for (Step s : steps) {
      c += beta + s.duration();
    }
    return c;
  }

  /**
   * @return Σ duration over the steps (the "useful transmission cost"), seconds
   */
  public double transmissionTime() {
    double c = 0;
    for (Step s : steps) {
      c += s.duration();
    }
    return c;
  }

  /**
   * @return number of steps
   */
  public int stepCount() {
    return steps.size();
  }

  /**
   * Checks that this schedule solves the instance: in every step at most k transfers, no sender i
   * in more than δ(i) transfers and no receiver j in more than δ(j) (1-port when δ = 1), no pair
   * twice, every transfer on a pair with a non-zero amount, every pair with a non-zero amount in at
   * least one transfer, and every amount of the matrix covered by the sum of its pieces (relative
   * tolerance {@link #TOLERANCE} of the amount, absolute below min(1 s, the matrix's largest
   * amount): a pair of 1e-12 s must still appear, and a matrix in another unit is checked alike).
   * Durations ≥ amounts are guaranteed by {@link Step}.
   *
   * @param matrix the traffic matrix the schedule claims to carry (seconds)
   * @param platform k and δ of the instance
   * @throws InvalidScheduleException naming the first violated rule, the step and the transfer
   * @throws IllegalArgumentException if matrix and platform shapes differ
   */
  public void validate(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    int rows = matrix.rows();
    int cols = matrix.cols();
    // per non-zero cell (row-major position): every transfer of a valid schedule is on one
    double[] covered = new double[matrix.nonZeroCount()];
    int[] senderUse = new int[rows];
    int[] receiverUse = new int[cols];
    int[] lastStepOfPair = new int[matrix.nonZeroCount()];
    for (int s = 0; s < steps.size(); s++) {
      Step step = steps.get(s);
      if (step.transfers().size() > platform.k()) {
        throw new InvalidScheduleException(
            "step "
                + s
                + " has "
                + step.transfers().size()
                + " transfers, more than k = "
                + platform.k());
      }
      java.util.Arrays.fill(senderUse, 0);
      java.util.Arrays.fill(receiverUse, 0);
      for (Transfer t : step.transfers()) {
        if (t.src() >= rows || t.dst() >= cols) {
          throw new InvalidScheduleException(
              "step "
                  + s
                  + ": transfer "
                  + t.src()
                  + "->"
                  + t.dst()
                  + " is outside the "
                  + rows
                  + " x "
                  + cols
                  + " matrix");
        }
        if (matrix.amount(t.src(), t.dst()) <= 0) {
          throw new InvalidScheduleException(
              "step "
                  + s
                  + ": transfer "
                  + t.src()
                  + "->"
                  + t.dst()
                  + " has no demand in the matrix");
        }
        int pair = matrix.nonZeroPosition(t.src(), t.dst());
        if (lastStepOfPair[pair] == s + 1) {
          throw new InvalidScheduleException(
              "step " + s + ": pair " + t.src() + "->" + t.dst() + " appears twice");
        }
        lastStepOfPair[pair] = s + 1;
        if (++senderUse[t.src()] > platform.senderPorts(t.src())) {
          throw new InvalidScheduleException(
              "step "
                  + s
                  + ": sender "
                  + t.src()
                  + " takes part in more than δ = "
                  + platform.senderPorts(t.src())
                  + " transfers");
        }
        if (++receiverUse[t.dst()] > platform.receiverPorts(t.dst())) {
          throw new InvalidScheduleException(
              "step "
                  + s
                  + ": receiver "
                  + t.dst()
                  + " takes part in more than δ = "
                  + platform.receiverPorts(t.dst())
                  + " transfers");
        }
        covered[pair] += t.amount();
      }
    }
    // absolute below 1 s, or below the matrix's largest amount when that is smaller, so that the
    // check does not depend on the unit (a matrix of picoseconds is checked as one of seconds)
    double floor = Math.min(1.0, matrix.maxAmount());
    // a zero cell is on no transfer (those throw above): only the non-zero cells can be short
    int pair = 0;
    for (int i = 0; i < rows; i++) {
      for (int x = 0; x < matrix.rowDegree(i); x++, pair++) {
        int j = matrix.nonZeroCol(i, x);
        double need = matrix.nonZeroAmount(i, x);
        double got = covered[pair];
        if (need > 0 && lastStepOfPair[pair] == 0) {
          throw new InvalidScheduleException(
              "transfer " + i + "->" + j + " (" + need + " s) is in no step");
        }
        if (got < need - TOLERANCE * Math.max(need, floor)) {
          throw new InvalidScheduleException(
              "transfer " + i + "->" + j + " is covered for " + got + " s of its " + need + " s");
        }
      }
    }
  }
}
