package io.wanshuffle.scheduler.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The re-planning fallback: valid schedules, and a first step equal to largest-first greedy. */
class GreedyFirstStepTest {

  @Test
  void scheduleIsValidAndTheFirstStepIsTheLargestFirstGreedySet() {
    Random rnd = new Random(11);
    GreedyFirstStep greedy = new GreedyFirstStep();
    for (int round = 0; round < 300; round++) {
      int rows = 1 + rnd.nextInt(12);
      int cols = 1 + rnd.nextInt(12);
      double[][] a = new double[rows][cols];
      for (double[] r : a) {
        for (int j = 0; j < cols; j++) {
          r[j] = rnd.nextInt(3) == 0 ? 0 : 0.001 + rnd.nextDouble() * 10;
        }
      }
      int k = 1 + rnd.nextInt(6);
      int[] sd = new int[rows];
      int[] rd = new int[cols];
      for (int i = 0; i < rows; i++) {
        sd[i] = 1 + rnd.nextInt(3);
      }
      for (int j = 0; j < cols; j++) {
        rd[j] = 1 + rnd.nextInt(3);
      }
      TrafficMatrix m = TrafficMatrix.of(a);
      Platform p = Platform.of(k, 0.05, sd, rd);
      Schedule s = greedy.schedule(m, p);
      s.validate(m, p);
      if (m.nonZeroCount() == 0) {
        assertEquals(0, s.stepCount());
        continue;
      }
      // the same first step as the straightforward largest-first greedy (distinct amounts)
      assertEquals(oracleFirstStep(a, p), pairs(s.steps().get(0).transfers()), "round " + round);
      // maximal: every pair left out of step 1 is blocked by k or a port
      List<Transfer> first = s.steps().get(0).transfers();
      int[] su = new int[rows];
      int[] ru = new int[cols];
      for (Transfer t : first) {
        su[t.src()]++;
        ru[t.dst()]++;
      }
      Set<String> in = pairs(first);
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (a[i][j] > 0 && !in.contains(i + ">" + j)) {
            assertTrue(
                first.size() == k || su[i] == sd[i] || ru[j] == rd[j],
                "pair " + i + ">" + j + " could have joined step 1");
          }
        }
      }
    }
  }

  /** Straightforward largest-first greedy over a sorted list of boxed pairs. */
  private static Set<String> oracleFirstStep(double[][] a, Platform p) {
    List<int[]> cells = new ArrayList<>();
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < a[i].length; j++) {
        if (a[i][j] > 0) {
          cells.add(new int[] {i, j});
        }
      }
    }
    cells.sort((x, y) -> Double.compare(a[y[0]][y[1]], a[x[0]][x[1]]));
    int[] su = new int[a.length];
    int[] ru = new int[a[0].length];
    Set<String> out = new HashSet<>();
    for (int[] c : cells) {
      if (out.size() < p.k()
          && su[c[0]] < p.senderPorts(c[0])
          && ru[c[1]] < p.receiverPorts(c[1])) {
        su[c[0]]++;
        ru[c[1]]++;
        out.add(c[0] + ">" + c[1]);
      }
    }
    return out;
  }

  private static Set<String> pairs(List<Transfer> ts) {
    Set<String> s = new HashSet<>();
    for (Transfer t : ts) {
      s.add(t.src() + ">" + t.dst());
    }
    return s;
  }
}
