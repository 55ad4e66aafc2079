package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GreedyFirstStepTest {

  @Test
  void scheduleIsValidAndTheFirstStepIsTheLargestFirstGreedySet() {
    Random rnd = new Random(11);
    GreedyFirstStep greedy = new GreedyFirstStep();
    GreedyTestScheduler oracle = new GreedyTestScheduler();
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
      assertEquals(pairs(oracle.schedule(m, p).steps().get(0).transfers()),
          pairs(s.steps().get(0).transfers()), "round " + round);
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
            assertTrue(first.size() == k || su[i] == sd[i] || ru[j] == rd[j],
                "pair " + i + ">" + j + " could have joined step 1");
          }
        }
      }
    }
  }

  private static Set<String> pairs(List<Transfer> ts) {
    Set<String> s = new HashSet<>();
    for (Transfer t : ts) {
      s.add(t.src() + ">" + t.dst());
    }
    return s;
  }
}
