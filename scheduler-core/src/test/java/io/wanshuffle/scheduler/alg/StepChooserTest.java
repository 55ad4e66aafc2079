package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The min-cost-flow step choice against brute force over all subsets of pairs. */
class StepChooserTest {

  /** Senders in racks under one backbone side, receivers likewise; random capacities. */
  private static LinkNetwork randomTree(Random rnd, int rows, int cols) {
    LinkNetwork.Builder b = new LinkNetwork.Builder(rows, cols);
    int out = b.addLink("out", 1 + rnd.nextInt(4));
    int in = b.addLink("in", 1 + rnd.nextInt(4));
    int[] srack = {b.addLink("up0", 1 + rnd.nextInt(2)), b.addLink("up1", 1 + rnd.nextInt(2))};
    int[] drack = {b.addLink("down0", 1 + rnd.nextInt(2)), b.addLink("down1", 1 + rnd.nextInt(2))};
    int[] nicUp = new int[rows];
    int[] nicDown = new int[cols];
    int[] rackOfS = new int[rows];
    int[] rackOfD = new int[cols];
    for (int i = 0; i < rows; i++) {
      nicUp[i] = b.addLink("nu" + i, 1 + rnd.nextInt(2));
      rackOfS[i] = rnd.nextInt(2);
    }
    for (int j = 0; j < cols; j++) {
      nicDown[j] = b.addLink("nd" + j, 1 + rnd.nextInt(2));
      rackOfD[j] = rnd.nextInt(2);
    }
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        b.route(
            i,
            j,
            new int[] {nicUp[i], srack[rackOfS[i]], out},
            new int[] {in, drack[rackOfD[j]], nicDown[j]});
      }
    }
    return b.build(1, new int[rows], new int[cols], 0);
  }

  @Test
  void flowChoiceIsAMaximumWeightFeasibleSet() {
    Random rnd = new Random(3);
    for (int round = 0; round < 200; round++) {
      int rows = 1 + rnd.nextInt(3);
      int cols = 1 + rnd.nextInt(4);
      LinkNetwork net = randomTree(rnd, rows, cols);
      StepChooser c = new StepChooser(net, true);
      assertTrue(c.isTree());
      int pairs = rows * cols;
      double[] w = new double[pairs];
      boolean[] enabled = new boolean[pairs];
      for (int p = 0; p < pairs; p++) {
        enabled[p] = rnd.nextInt(4) != 0;
        w[p] = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 3;
      }
      boolean[] got = c.choose(w, enabled);
      assertTrue(feasible(net, got, enabled), "chosen set overloads a link");
      double best = 0;
      for (int mask = 0; mask < (1 << pairs); mask++) {
        boolean[] set = new boolean[pairs];
        for (int p = 0; p < pairs; p++) {
          set[p] = (mask >> p & 1) == 1;
        }
        if (feasible(net, set, enabled)) {
          best = Math.max(best, value(set, w));
        }
      }
      assertEquals(best, value(got, w), 1e-6, "round " + round);
      // the greedy fallback is feasible too
      assertTrue(feasible(net, c.chooseGreedy(w, enabled), enabled));
    }
  }

  private static boolean feasible(LinkNetwork net, boolean[] set, boolean[] enabled) {
    int[] use = new int[net.linkCount()];
    for (int p = 0; p < set.length; p++) {
      if (set[p]) {
        if (!enabled[p]) {
          return false;
        }
        for (int l : net.route(p / net.cols(), p % net.cols())) {
          if (++use[l] > net.capacity(l)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static double value(boolean[] set, double[] w) {
    double v = 0;
    for (int p = 0; p < set.length; p++) {
      if (set[p]) {
        v += 1 + w[p];
      }
    }
    return v;
  }
}
