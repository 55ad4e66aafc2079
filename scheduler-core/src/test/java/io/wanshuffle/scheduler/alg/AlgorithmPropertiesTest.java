package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.wanshuffle.scheduler.InvalidScheduleException;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.testing.Instance;
import io.wanshuffle.scheduler.testing.RandomInstances;
import io.wanshuffle.scheduler.testing.RandomInstances.Size;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Properties every registered algorithm must have, over thousands of random instances with fixed
 * seeds ({@link RandomInstances}): the schedule validates, it costs at least η, and on tiny
 * instances the exact optimum lies between η and every algorithm's cost. Iterates over {@link
 * Algorithms#names()}, so algorithms registered later are covered too; the exact solver is skipped
 * on instances it refuses ({@link ExactScheduler#accepts}).
 */
class AlgorithmPropertiesTest {
  private static final double EPS = 1e-9;

  /**
   * Runs s on in and checks the schedule: valid, and cost ≥ η.
   *
   * @return the schedule, or null if s is the exact solver and it refused the instance (too large
   *     or too hard; any other exception fails the test)
   */
  private static Schedule validSchedule(StepScheduler s, Instance in) {
    if (s instanceof ExactScheduler ex && !ex.accepts(in.matrix(), in.platform())) {
      return null;
    }
    Schedule schedule;
    try {
      schedule = s.schedule(in.matrix(), in.platform());
    } catch (IllegalArgumentException e) {
      if (s instanceof ExactScheduler && e.getMessage().startsWith("exact solver gave up")) {
        return null;
      }
      throw new AssertionError(s.name() + " failed on " + in, e);
    } catch (RuntimeException e) {
      throw new AssertionError(s.name() + " failed on " + in, e);
    }
    try {
      schedule.validate(in.matrix(), in.platform());
    } catch (InvalidScheduleException e) {
      fail(s.name() + " gave an invalid schedule on " + in + ": " + e.getMessage());
    }
    double eta = LowerBound.of(in.matrix(), in.platform()).eta();
    double cost = schedule.cost(in.platform().beta());
    assertTrue(
        cost >= eta * (1 - EPS), s.name() + " costs " + cost + " < η = " + eta + " on " + in);
    return schedule;
  }

  @Test
  void ourAlgorithmsAreRegistered() {
    assertTrue(
        Algorithms.names()
            .containsAll(
                List.of(HeuristicOnWeights.NAME, HeuristicOnDegrees.NAME, ExactScheduler.NAME)));
    for (String name : Algorithms.names()) {
      assertEquals(name, Algorithms.byName(name.toUpperCase(Locale.ROOT)).name());
    }
  }

  /**
   * 900 instances of 2-8 nodes per side. The exact solver, slow by design, runs on every 10th (it
   * has the tiny instances of {@link #exactOptimumLiesBetweenLowerBoundAndEveryAlgorithm}).
   */
  @Test
  void everyAlgorithmGivesValidSchedulesOnSmallInstances() {
    List<Instance> instances = RandomInstances.mixed(1_000, 150, Size.SMALL);
    for (String name : Algorithms.names()) {
      StepScheduler s = Algorithms.byName(name);
      int stride = s instanceof ExactScheduler ? 10 : 1;
      for (int n = 0; n < instances.size(); n += stride) {
        validSchedule(s, instances.get(n));
      }
    }
  }

  /**
   * k far above the transfers (up to Integer.MAX_VALUE) acts as "no limit"; nothing is sized by k.
   */
  @Test
  void everyAlgorithmAcceptsAnyKUpToIntegerMax() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{5, 1, 2}, {3, 0, 4}, {1, 1, 1}});
    for (int k : new int[] {8, 1_000_000_000, Integer.MAX_VALUE}) {
      for (String name : Algorithms.names()) {
        validSchedule(
            Algorithms.byName(name), new Instance(m, Platform.onePort(k, 1, 3, 3), "k = " + k));
      }
    }
  }

  @Test
  void everyAlgorithmGivesValidSchedulesOnLargeInstances() {
    List<Instance> instances = RandomInstances.mixed(2_000, 1, Size.LARGE); // 6 of 20 x 20
    for (String name : Algorithms.names()) {
      StepScheduler s = Algorithms.byName(name);
      for (Instance in : instances) {
        validSchedule(s, in);
      }
    }
  }

  @Test
  void everyAlgorithmGivesAnEmptyScheduleForAnAllZeroMatrix() {
    TrafficMatrix zero = TrafficMatrix.of(new double[][] {{0, 0}, {0, 0}, {0, 0}});
    Platform p = Platform.of(2, 1.0, new int[] {1, 2, 1}, new int[] {2, 1});
    for (String name : Algorithms.names()) {
      Schedule s = Algorithms.byName(name).schedule(zero, p);
      assertEquals(0, s.stepCount(), name);
      assertEquals(0.0, s.cost(1.0), name);
    }
  }

  /**
   * η ≤ exact ≤ every algorithm on 1800 tiny instances (1-3 nodes per side, all weight ranges,
   * 1-port and δ-port); the exact solver must solve at least 98% of them. Prints the mean and max
   * optimality gap (cost / exact) per algorithm.
   */
  @Test
  void exactOptimumLiesBetweenLowerBoundAndEveryAlgorithm() {
    List<Instance> instances = RandomInstances.mixed(3_000, 300, Size.TINY);
    ExactScheduler exact = new ExactScheduler();
    // "model name" -> {sum of cost/exact, max, count, instances where the algorithm is not optimal}
    Map<String, double[]> gaps = new TreeMap<>();
    int solved = 0;
    for (Instance in : instances) {
      Schedule optimal = validSchedule(exact, in);
      if (optimal == null) {
        continue;
      }
      solved++;
      double beta = in.platform().beta();
      double opt = optimal.cost(beta);
      double eta = LowerBound.of(in.matrix(), in.platform()).eta();
      assertTrue(eta <= opt * (1 + EPS), "η = " + eta + " > exact " + opt + " on " + in);
      for (String name : Algorithms.names()) {
        double cost = validSchedule(Algorithms.byName(name), in).cost(beta);
        assertTrue(
            opt <= cost * (1 + EPS), "exact " + opt + " > " + name + " " + cost + " on " + in);
        double gap = opt == 0 ? 1 : cost / opt;
        String model = in.platform().isOnePort() ? "1-port" : "δ-port";
        double[] g = gaps.computeIfAbsent(model + " " + name, n -> new double[4]);
        g[0] += gap;
        g[1] = Math.max(g[1], gap);
        g[2]++;
        g[3] += gap > 1 + 1e-9 ? 1 : 0;
      }
    }
    assertTrue(
        solved >= instances.size() * 98 / 100,
        "exact solved only " + solved + " of " + instances.size() + " tiny instances");
    StringBuilder report = new StringBuilder("cost / exact on " + solved + " tiny instances:");
    gaps.forEach(
        (name, g) ->
            report.append(
                String.format(
                    Locale.ROOT,
                    "%n  %-25s mean %.4f  max %.4f  not optimal on %.1f%% of %d",
                    name,
                    g[0] / g[2],
                    g[1],
                    100 * g[3] / g[2],
                    (int) g[2])));
    System.out.println(report);
  }
}
