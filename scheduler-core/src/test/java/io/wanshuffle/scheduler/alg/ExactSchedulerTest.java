package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.testing.Instance;
import io.wanshuffle.scheduler.testing.RandomInstances;
import io.wanshuffle.scheduler.testing.RandomInstances.Ports;
import io.wanshuffle.scheduler.testing.RandomInstances.Size;
import io.wanshuffle.scheduler.testing.RandomInstances.Weights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.junit.jupiter.api.Test;

class ExactSchedulerTest {
  private final ExactScheduler exact = new ExactScheduler();

  private double optimum(TrafficMatrix m, Platform p) {
    Schedule s = exact.schedule(m, p);
    s.validate(m, p);
    return s.cost(p.beta());
  }

  /** DGGP paper sec. 2.3-2.5 (running example, Fig. 2-4): a schedule of cost 9 = η exists. */
  @Test
  void dggpRunningExampleReachesTheLowerBound() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{7, 3}, {0, 1}});
    Platform p = Platform.of(2, 1.0, new int[] {3, 2}, new int[] {1, 3});
    assertEquals(9.0, optimum(m, p), 1e-9);
  }

  /**
   * RR-5361 (Wagner, Jeannot), sec. 3.1, Fig. 3-4: 1->a 1 s, 2->b 1 s, c->3 2 s, k = 2. With β = 0
   * the optimum is 2 s; with β = 1 it is 4 (two steps of 1 s, c->3 preempted), where the best
   * schedule without preemption costs 5.
   */
  @Test
  void bruteForceExampleNeedsPreemption() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}});
    assertEquals(2.0, optimum(m, Platform.onePort(2, 0.0, 3, 3)), 1e-9);
    Schedule s = exact.schedule(m, Platform.onePort(2, 1.0, 3, 3));
    assertEquals(4.0, s.cost(1.0), 1e-9);
    assertEquals(2, s.stepCount());
  }

  @Test
  void smallHandInstances() {
    // One transfer: one step.
    assertEquals(
        1.5 + 7,
        optimum(TrafficMatrix.of(new double[][] {{7}}), Platform.onePort(1, 1.5, 1, 1)),
        1e-9);
    // Two transfers from one 1-port sender: two steps whatever k is.
    TrafficMatrix star = TrafficMatrix.of(new double[][] {{3, 5}});
    assertEquals(2 * 2.0 + 8, optimum(star, Platform.onePort(2, 2.0, 1, 2)), 1e-9);
    // The same sender with δ = 2 and k = 2: one step of 5.
    assertEquals(
        2.0 + 5, optimum(star, Platform.of(2, 2.0, new int[] {2}, new int[] {1, 1})), 1e-9);
    // k = 1 serialises everything: Σ w + m·β.
    TrafficMatrix diag = TrafficMatrix.of(new double[][] {{4, 0}, {0, 6}});
    assertEquals(10 + 2 * 0.5, optimum(diag, Platform.onePort(1, 0.5, 2, 2)), 1e-9);
  }

  @Test
  void refusesInstancesAboveTheTransferLimit() {
    double[][] a = new double[4][4];
    for (double[] row : a) {
      Arrays.fill(row, 1.0);
    }
    TrafficMatrix m = TrafficMatrix.of(a); // 16 transfers > 12
    Platform p = Platform.onePort(2, 1, 4, 4);
    assertFalse(exact.accepts(m, p));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> exact.schedule(m, p));
    assertTrue(
        e.getMessage().contains("at most " + ExactScheduler.MAX_TRANSFERS + " transfers"),
        e.getMessage());
    assertTrue(e.getMessage().contains("has 16"), e.getMessage());
  }

  /**
   * Amounts below the solver's precision ({@link ExactScheduler#MIN_RELATIVE_AMOUNT} x the largest;
   * at 1e-400 x its normalisation would turn them into 0) are refused with a message, and auto
   * plans them without the exact solver.
   */
  @Test
  void refusesAmountsBelowItsPrecisionAndAutoStillPlansThem() {
    Platform p = Platform.onePort(1, 1, 2, 2);
    for (double[][] a : new double[][][] {{{1e100, 1}, {1e-300, 0}}, {{1, 1e-12}, {0, 0}}}) {
      TrafficMatrix m = TrafficMatrix.of(a);
      assertFalse(exact.accepts(m, p));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> exact.schedule(m, p));
      assertTrue(
          e.getMessage()
              .contains("at least " + ExactScheduler.MIN_RELATIVE_AMOUNT + " x the largest"),
          e.getMessage());
      Schedule s = new Auto().schedule(m, p);
      s.validate(m, p);
    }
    TrafficMatrix within = TrafficMatrix.of(new double[][] {{1, 1e-8}, {0, 0}});
    assertTrue(exact.accepts(within, p));
    exact.schedule(within, p).validate(within, p);
  }

  @Test
  void refusesInstancesWithTooManyMatchings() {
    // 3 x 4, 12 transfers, δ = 3 everywhere, k = 3: every 3-edge subset respecting δ is maximal.
    double[][] a = new double[3][4];
    for (double[] row : a) {
      Arrays.fill(row, 2.0);
    }
    TrafficMatrix m = TrafficMatrix.of(a);
    Platform p = Platform.of(3, 1, new int[] {3, 3, 3}, new int[] {3, 3, 3, 3});
    assertFalse(exact.accepts(m, p));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> exact.schedule(m, p));
    assertTrue(
        e.getMessage()
            .contains("at most " + ExactScheduler.MAX_MATCHINGS + " maximal valid matchings"),
        e.getMessage());
  }

  /**
   * The solver's premise: restricting steps to maximal valid matchings, each used at most once,
   * loses nothing. Checked against a brute force over every set of valid matchings (maximal or not,
   * any size) on tiny graphs: min over sets S of β|S| + LP(S), LP solved independently here.
   */
  @Test
  void maximalMatchingsSufficeAgainstBruteForceOverAllMatchings() {
    List<Instance> instances = new ArrayList<>();
    long seed = 77;
    for (Weights w : Weights.values()) {
      for (Ports ports : Ports.values()) {
        for (Instance in : RandomInstances.sample(seed++, 60, Size.TINY, w, ports)) {
          if (in.matrix().nonZeroCount() <= 5 && validMatchings(in).size() <= 12) {
            instances.add(in);
          }
        }
      }
    }
    assertTrue(instances.size() >= 150, "only " + instances.size() + " tiny instances");
    for (Instance in : instances) {
      double brute = bruteForce(in);
      double opt = optimum(in.matrix(), in.platform());
      assertEquals(brute, opt, 1e-7 * Math.max(1, brute), in.toString());
    }
  }

  /** Every non-empty valid matching (≤ k edges, ≤ δ(v) per node) as an edge mask. */
  private static List<Integer> validMatchings(Instance in) {
    int[][] edges = edges(in.matrix());
    Platform p = in.platform();
    List<Integer> out = new ArrayList<>();
    for (int mask = 1; mask < 1 << edges.length; mask++) {
      if (Integer.bitCount(mask) > p.k()) {
        continue;
      }
      int[] su = new int[p.senders()];
      int[] ru = new int[p.receivers()];
      boolean ok = true;
      for (int e = 0; e < edges.length; e++) {
        if ((mask & (1 << e)) != 0) {
          ok &= ++su[edges[e][0]] <= p.senderPorts(edges[e][0]);
          ok &= ++ru[edges[e][1]] <= p.receiverPorts(edges[e][1]);
        }
      }
      if (ok) {
        out.add(mask);
      }
    }
    return out;
  }

  private static int[][] edges(TrafficMatrix m) {
    List<int[]> out = new ArrayList<>();
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        if (m.amount(i, j) > 0) {
          out.add(new int[] {i, j});
        }
      }
    }
    return out.toArray(new int[0][]);
  }

  private static double bruteForce(Instance in) {
    int[][] edges = edges(in.matrix());
    if (edges.length == 0) {
      return 0;
    }
    List<Integer> matchings = validMatchings(in);
    int all = (1 << edges.length) - 1;
    double best = Double.POSITIVE_INFINITY;
    for (int set = 1; set < 1 << matchings.size(); set++) {
      int covered = 0;
      List<Integer> chosen = new ArrayList<>();
      for (int x = 0; x < matchings.size(); x++) {
        if ((set & (1 << x)) != 0) {
          covered |= matchings.get(x);
          chosen.add(matchings.get(x));
        }
      }
      if (covered != all) {
        continue;
      }
      double cost = in.platform().beta() * chosen.size() + lp(in.matrix(), edges, chosen);
      best = Math.min(best, cost);
    }
    return best;
  }

  private static double lp(TrafficMatrix m, int[][] edges, List<Integer> chosen) {
    double[] ones = new double[chosen.size()];
    Arrays.fill(ones, 1);
    List<LinearConstraint> cs = new ArrayList<>();
    for (int e = 0; e < edges.length; e++) {
      double[] row = new double[chosen.size()];
      for (int x = 0; x < chosen.size(); x++) {
        row[x] = (chosen.get(x) & (1 << e)) != 0 ? 1 : 0;
      }
      cs.add(new LinearConstraint(row, Relationship.GEQ, m.amount(edges[e][0], edges[e][1])));
    }
    PointValuePair p =
        new SimplexSolver()
            .optimize(
                new LinearObjectiveFunction(ones, 0),
                new LinearConstraintSet(cs),
                GoalType.MINIMIZE,
                new NonNegativeConstraint(true));
    return p.getValue();
  }
}
