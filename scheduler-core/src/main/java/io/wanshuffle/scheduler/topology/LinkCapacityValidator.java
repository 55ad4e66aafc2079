package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.InvalidScheduleException;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;

/**
 * Checks a KPBS schedule against a {@link LinkNetwork}: in every step no link carries more
 * transfers than its capacity (in flows), no pair appears twice in a step, every transfer is on a
 * pair with demand, and every amount of the matrix is covered (relative tolerance {@link
 * Schedule#TOLERANCE}). O(Σ steps · transfers · route length).
 */
public final class LinkCapacityValidator {
  private LinkCapacityValidator() {}

  /**
   * @param s the schedule
   * @param m the traffic matrix it claims to carry, seconds
   * @param net the link network, same shape
   * @throws InvalidScheduleException naming the step and the overloaded link, or the uncovered
   *     transfer
   * @throws IllegalArgumentException if shapes differ
   */
  public static void validate(Schedule s, TrafficMatrix m, LinkNetwork net) {
    net.requireShape(m);
    int[] use = new int[net.linkCount()];
    double[] covered = new double[m.rows() * m.cols()];
    int[] lastStep = new int[m.rows() * m.cols()];
    for (int x = 0; x < s.steps().size(); x++) {
      Step step = s.steps().get(x);
      java.util.Arrays.fill(use, 0);
      for (Transfer t : step.transfers()) {
        if (t.src() >= m.rows() || t.dst() >= m.cols()) {
          throw new InvalidScheduleException(
              "step "
                  + x
                  + ": transfer "
                  + t.src()
                  + "->"
                  + t.dst()
                  + " is outside the "
                  + m.rows()
                  + " x "
                  + m.cols()
                  + " matrix");
        }
        if (m.amount(t.src(), t.dst()) <= 0) {
          throw new InvalidScheduleException(
              "step "
                  + x
                  + ": transfer "
                  + t.src()
                  + "->"
                  + t.dst()
                  + " has no demand in the matrix");
        }
        int pair = t.src() * m.cols() + t.dst();
        if (lastStep[pair] == x + 1) {
          throw new InvalidScheduleException(
              "step " + x + ": pair " + t.src() + "->" + t.dst() + " appears twice");
        }
        lastStep[pair] = x + 1;
        covered[pair] += t.amount();
        for (int l : net.route(t.src(), t.dst())) {
          if (++use[l] > net.capacity(l)) {
            throw new InvalidScheduleException(
                "step "
                    + x
                    + ": link "
                    + net.linkName(l)
                    + " carries more than its capacity of "
                    + net.capacity(l)
                    + " flows");
          }
        }
      }
    }
    // a zero cell needs nothing: only the non-zero cells can be short
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        int j = m.nonZeroCol(i, x);
        double need = m.nonZeroAmount(i, x);
        double got = covered[i * m.cols() + j];
        if (got < need - Schedule.TOLERANCE * Math.max(1.0, need)) {
          throw new InvalidScheduleException(
              "transfer " + i + "->" + j + " is covered for " + got + " s of its " + need + " s");
        }
      }
    }
  }

  /**
   * @param s a schedule
   * @param net the link network
   * @return the number of (step, link) pairs where the step puts more transfers on the link than
   *     its capacity: how often a rack-blind schedule overloads a link
   */
  public static int overloads(Schedule s, LinkNetwork net) {
    int count = 0;
    int[] use = new int[net.linkCount()];
    for (Step step : s.steps()) {
      java.util.Arrays.fill(use, 0);
      for (Transfer t : step.transfers()) {
        for (int l : net.route(t.src(), t.dst())) {
          use[l]++;
        }
      }
      for (int l = 0; l < use.length; l++) {
        if (use[l] > net.capacity(l)) {
          count++;
        }
      }
    }
    return count;
  }
}
