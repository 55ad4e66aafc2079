package io.wanshuffle.scheduler.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link HopcroftKarp}, {@link BottleneckMatching} and {@link Peeler} against JGraphT's
 * HopcroftKarpMaximumCardinalityBipartiteMatching on thousands of random graphs (fixed seeds).
 */
class MatchingOracleTest {

  static BipartiteGraph randomGraph(Random rnd, int nl, int nr, double density, int maxW) {
    int[] l = new int[nl * nr];
    int[] r = new int[nl * nr];
    long[] w = new long[nl * nr];
    int m = 0;
    for (int x = 0; x < nl; x++) {
      for (int y = 0; y < nr; y++) {
        if (rnd.nextDouble() < density) {
          l[m] = x;
          r[m] = y;
          w[m] = 1 + rnd.nextInt(maxW);
          m++;
        }
      }
    }
    return new BipartiteGraph(
        nl, nr, Arrays.copyOf(l, m), Arrays.copyOf(r, m), Arrays.copyOf(w, m));
  }

  /** A weight-regular graph: a sum of random weighted permutation matrices. */
  static BipartiteGraph weightRegular(Random rnd, int n, int perms, int maxW) {
    long[][] acc = new long[n][n];
    for (int p = 0; p < perms; p++) {
      int[] perm = new int[n];
      for (int i = 0; i < n; i++) {
        perm[i] = i;
      }
      for (int i = n - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      long w = 1 + rnd.nextInt(maxW);
      for (int i = 0; i < n; i++) {
        acc[i][perm[i]] += w;
      }
    }
    int m = 0;
    int[] l = new int[n * n];
    int[] r = new int[n * n];
    long[] w = new long[n * n];
    for (int x = 0; x < n; x++) {
      for (int y = 0; y < n; y++) {
        if (acc[x][y] > 0) {
          l[m] = x;
          r[m] = y;
          w[m] = acc[x][y];
          m++;
        }
      }
    }
    return new BipartiteGraph(n, n, Arrays.copyOf(l, m), Arrays.copyOf(r, m), Arrays.copyOf(w, m));
  }

  static void assertMatching(BipartiteGraph g, int[] mateL, int[] mateR, long minWeight) {
    int size = 0;
    for (int x = 0; x < g.leftCount(); x++) {
      int e = mateL[x];
      if (e >= 0) {
        size++;
        assertEquals(x, g.left(e));
        assertEquals(e, mateR[g.right(e)], "mates disagree");
        assertTrue(g.weight(e) >= minWeight, "matched edge below threshold");
      }
    }
    int sizeR = 0;
    for (int y = 0; y < g.rightCount(); y++) {
      if (mateR[y] >= 0) {
        sizeR++;
      }
    }
    assertEquals(size, sizeR);
  }

  @Test
  void hopcroftKarpMatchesJGraphTOnRandomGraphs() {
    Random rnd = new Random(20240601L);
    for (int it = 0; it < 3000; it++) {
      int nl = 1 + rnd.nextInt(12);
      int nr = 1 + rnd.nextInt(12);
      BipartiteGraph g = randomGraph(rnd, nl, nr, rnd.nextDouble(), 5);
      long t = 1 + rnd.nextInt(3);
      int[] mateL = new int[nl];
      int[] mateR = new int[nr];
      Arrays.fill(mateL, -1);
      Arrays.fill(mateR, -1);
      int ours = HopcroftKarp.maximumMatching(g, t, mateL, mateR);
      assertMatching(g, mateL, mateR, t);
      assertEquals(JGraphTOracle.maximumMatchingSize(g, t), ours, "graph " + it);
    }
  }

  @Test
  void hopcroftKarpWarmStartKeepsMaximum() {
    Random rnd = new Random(7L);
    for (int it = 0; it < 1000; it++) {
      int n = 1 + rnd.nextInt(15);
      BipartiteGraph g = randomGraph(rnd, n, n, 0.1 + 0.5 * rnd.nextDouble(), 1);
      int[] mateL = new int[n];
      int[] mateR = new int[n];
      Arrays.fill(mateL, -1);
      Arrays.fill(mateR, -1);
      // Greedy start, then HK completes it.
      for (int e = 0; e < g.edgeCount(); e++) {
        if (mateL[g.left(e)] < 0 && mateR[g.right(e)] < 0 && rnd.nextBoolean()) {
          mateL[g.left(e)] = e;
          mateR[g.right(e)] = e;
        }
      }
      int ours = HopcroftKarp.maximumMatching(g, 1, mateL, mateR);
      assertMatching(g, mateL, mateR, 1);
      assertEquals(JGraphTOracle.maximumMatchingSize(g, 1), ours);
    }
  }

  @Test
  void bottleneckEqualsLargestThresholdWithAPerfectMatching() {
    Random rnd = new Random(99L);
    for (int it = 0; it < 2000; it++) {
      int n = 1 + rnd.nextInt(10);
      BipartiteGraph g = randomGraph(rnd, n, n, 0.2 + 0.8 * rnd.nextDouble(), 1 + rnd.nextInt(30));
      int[] mateL = new int[n];
      int[] mateR = new int[n];
      long ours = BottleneckMatching.perfect(g, mateL, mateR);
      long oracle = JGraphTOracle.bottleneck(g);
      assertEquals(oracle, ours, "graph " + it);
      if (ours > 0) {
        assertMatching(g, mateL, mateR, ours);
        long min = Long.MAX_VALUE;
        for (int x = 0; x < n; x++) {
          assertTrue(mateL[x] >= 0, "not perfect");
          min = Math.min(min, g.weight(mateL[x]));
        }
        assertEquals(ours, min);
      }
    }
  }

  private static void peelAndCheck(Random rnd, BipartiteGraph g, boolean bottleneck) {
    int n = g.leftCount();
    long regular = 0;
    for (int e = 0; e < g.edgeCount(); e++) {
      if (g.left(e) == 0) {
        regular += g.weight(e);
      }
    }
    Peeler peeler = new Peeler(g, bottleneck);
    int[] matching = new int[n];
    long peeled = 0;
    int peels = 0;
    while (peeler.hasEdges()) {
      long expected = bottleneck ? JGraphTOracle.bottleneck(g) : -1;
      long[] before = new long[g.edgeCount()];
      for (int e = 0; e < before.length; e++) {
        before[e] = g.weight(e);
      }
      long amount = peeler.peel(matching);
      assertTrue(amount > 0);
      boolean[] seenR = new boolean[n];
      long min = Long.MAX_VALUE;
      for (int x = 0; x < n; x++) {
        int e = matching[x];
        assertEquals(x, g.left(e), "perfect matching covers each left vertex once");
        assertTrue(!seenR[g.right(e)], "right vertex twice");
        seenR[g.right(e)] = true;
        assertTrue(before[e] > 0, "peeled a removed edge");
        min = Math.min(min, before[e]);
        assertEquals(before[e] - amount, g.weight(e));
      }
      assertEquals(min, amount, "a peel cuts by the matching's smallest weight");
      if (bottleneck) {
        assertEquals(expected, amount, "bottleneck value at peel " + peels);
      }
      peeled += amount;
      peels++;
    }
    assertEquals(regular, peeled, "peels add up to the regular weight");
  }

  @Test
  void peelingWeightRegularGraphsGivesPerfectAndBottleneckMatchings() {
    Random rnd = new Random(4242L);
    for (int it = 0; it < 600; it++) {
      int n = 1 + rnd.nextInt(9);
      BipartiteGraph g = weightRegular(rnd, n, 1 + rnd.nextInt(6), 1 + rnd.nextInt(20));
      peelAndCheck(rnd, g, it % 2 == 0);
    }
  }

  @Test
  void rejectsNonSquareGraphs() {
    BipartiteGraph g = new BipartiteGraph(2, 3, new int[] {0}, new int[] {0}, new long[] {1});
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> new Peeler(g, true));
  }
}
