package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties of GGP, OGGP, DGGP and auto over thousands of random small instances (fixed seeds):
 * valid schedules, η ≤ cost, steps exactly as long as their longest transfer, the 2-approximation.
 */
class PropertyTest {

  /** The GGP family and auto, looked up through the registry as users do. */
  private static final java.util.List<String> NAMES =
      java.util.List.of(Auto.NAME, Ggp.NAME, Oggp.NAME, Dggp.NAME);

  private static Schedule run(String name, TrafficMatrix m, Platform p) {
    return Algorithms.byName(name).schedule(m, p);
  }

  private static void checkDurationsTight(String name, Schedule s) {
    for (Step step : s.steps()) {
      assertTrue(!step.transfers().isEmpty(), "empty step");
      double longest = 0;
      for (Transfer t : step.transfers()) {
        longest = Math.max(longest, t.amount());
      }
      assertEquals(longest, step.duration(), 1e-9 * Math.max(1, longest), "duration not tight");
    }
  }

  @Test
  void validTightAndAboveEtaOnOnePort() {
    Random rnd = new Random(1234L);
    for (int it = 0; it < 1500; it++) {
      int rows = 1 + rnd.nextInt(7);
      int cols = 1 + rnd.nextInt(7);
      TrafficMatrix m = Instances.matrix(rnd, rows, cols, 1 + rnd.nextInt(30), rnd.nextBoolean());
      double beta = rnd.nextInt(4) == 0 ? 0 : 0.1 + 3 * rnd.nextDouble();
      Platform p = Platform.onePort(1 + rnd.nextInt(8), beta, rows, cols);
      double eta = LowerBound.of(m, p).eta();
      for (String name : NAMES) {
        Schedule s = run(name, m, p);
        s.validate(m, p);
        checkDurationsTight(name, s);
        assertTrue(
            s.cost(beta) >= eta * (1 - 1e-9) - 1e-12,
            name + " cost " + s.cost(beta) + " below eta " + eta + " on instance " + it);
      }
    }
  }

  @Test
  void validTightAndAboveEtaOnDeltaPort() {
    Random rnd = new Random(777L);
    for (int it = 0; it < 1000; it++) {
      int rows = 1 + rnd.nextInt(6);
      int cols = 1 + rnd.nextInt(6);
      TrafficMatrix m = Instances.matrix(rnd, rows, cols, 1 + rnd.nextInt(30), rnd.nextBoolean());
      double beta = rnd.nextInt(4) == 0 ? 0 : 0.1 + 3 * rnd.nextDouble();
      Platform p = Instances.deltaPort(rnd, 1 + rnd.nextInt(8), beta, rows, cols, 4);
      double eta = LowerBound.of(m, p).eta();
      for (String name : NAMES) {
        Schedule s = run(name, m, p);
        s.validate(m, p);
        checkDurationsTight(name, s);
        assertTrue(s.cost(beta) >= eta * (1 - 1e-9) - 1e-12, name + " below eta");
      }
    }
  }

  /**
   * Theorem 3 of the GGP/OGGP paper with quantum β: cost ≤ 2·η_paper, where η_paper rounds P/k up
   * to whole multiples of β (see {@link Instances#paperEta}). Our own η (no rounding) can be
   * slightly lower, so 2·η alone is not guaranteed when P/(kβ) is fractional.
   */
  @Test
  void ggpFamilyIsATwoApproximation() {
    Random rnd = new Random(2006L);
    for (int it = 0; it < 1500; it++) {
      int rows = 1 + rnd.nextInt(7);
      int cols = 1 + rnd.nextInt(7);
      TrafficMatrix m = Instances.matrix(rnd, rows, cols, 1 + rnd.nextInt(40), rnd.nextBoolean());
      double beta = 0.2 + 3 * rnd.nextDouble();
      Platform p = Platform.onePort(1 + rnd.nextInt(8), beta, rows, cols);
      double bound = 2 * Instances.paperEta(m, p);
      for (var alg :
          new io.wanshuffle.scheduler.StepScheduler[] {new Ggp(), new Oggp(), new Dggp()}) {
        double c = alg.schedule(m, p).cost(beta);
        assertTrue(c <= bound * (1 + 1e-9), alg.name() + " cost " + c + " > 2η_paper " + bound);
      }
    }
  }

  @Test
  void dggpEqualsOggpOnOnePortAndGgpFamilyTreatsDeltaAsOne() {
    Random rnd = new Random(55L);
    for (int it = 0; it < 300; it++) {
      int rows = 1 + rnd.nextInt(6);
      int cols = 1 + rnd.nextInt(6);
      TrafficMatrix m = Instances.matrix(rnd, rows, cols, 20, true);
      Platform one = Platform.onePort(1 + rnd.nextInt(6), 1, rows, cols);
      assertEquals(new Oggp().schedule(m, one), new Dggp().schedule(m, one));
      Platform multi = Instances.deltaPort(rnd, one.k(), 1, rows, cols, 3);
      assertEquals(new Oggp().schedule(m, one), new Oggp().schedule(m, multi));
      assertEquals(new Ggp().schedule(m, one), new Ggp().schedule(m, multi));
    }
  }

  @Test
  void emptyMatrixGivesEmptySchedule() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{0, 0}, {0, 0}});
    Platform p = Platform.onePort(1, 1, 2, 2);
    for (String name : NAMES) {
      assertEquals(0, Algorithms.byName(name).schedule(m, p).stepCount(), name);
    }
  }

  @Test
  void shapeMismatchIsRejected() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 2}});
    Platform p = Platform.onePort(1, 1, 2, 2);
    for (String name : NAMES) {
      assertThrows(IllegalArgumentException.class, () -> Algorithms.byName(name).schedule(m, p));
    }
  }
}
