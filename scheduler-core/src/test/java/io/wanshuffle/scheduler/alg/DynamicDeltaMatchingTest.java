package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The heuristics' kept-maximum δ-port matching against JGraphT's maximum flow ({@link
 * FlowDeltaMatching}).
 */
class DynamicDeltaMatchingTest {
  /**
   * Random bipartite graphs (1-port and δ-port) whose edges are removed in random batches, as the
   * heuristics do: after every repair the matching uses only present edges, respects every δ, and
   * is as large as the maximum flow's on the present edges.
   */
  @Test
  void staysMaximumAsEdgesAreRemovedAgainstJgraphtMaxFlow() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int n = 0; n < 400; n++) {
      int rows = rnd.nextInt(1, 13);
      int cols = rnd.nextInt(1, 13);
      boolean onePort = n % 2 == 0;
      int[] ds = new int[rows];
      int[] dr = new int[cols];
      for (int i = 0; i < rows; i++) {
        ds[i] = onePort ? 1 : rnd.nextInt(1, 4);
      }
      for (int j = 0; j < cols; j++) {
        dr[j] = onePort ? 1 : rnd.nextInt(1, 4);
      }
      double density = rnd.nextDouble(0.1, 1.0);
      List<int[]> pairs = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (rnd.nextDouble() < density) {
            pairs.add(new int[] {i, j});
          }
        }
      }
      int m = pairs.size();
      int[] src = new int[m];
      int[] dst = new int[m];
      for (int e = 0; e < m; e++) {
        src[e] = pairs.get(e)[0];
        dst[e] = pairs.get(e)[1];
      }
      DynamicDeltaMatching dm = new DynamicDeltaMatching(src, dst, ds, dr);
      boolean[] present = new boolean[m];
      java.util.Arrays.fill(present, true);
      assertMaximum(dm, src, dst, present, ds, dr, "instance " + n + " initial");
      List<Integer> order = new ArrayList<>();
      for (int e = 0; e < m; e++) {
        order.add(e);
      }
      Collections.shuffle(order, new Random(n));
      int x = 0;
      while (x < m) {
        // a batch like a heuristic's step: mostly matched edges, sometimes others
        int batch = rnd.nextInt(1, 4);
        for (int b = 0; b < batch && x < m; b++, x++) {
          int e = order.get(x);
          if (rnd.nextInt(3) > 0) {
            int[] mt = dm.matchedEdges();
            if (mt.length > 0) {
              e = mt[rnd.nextInt(mt.length)];
              order.remove(Integer.valueOf(e));
              order.add(x, e);
            }
          }
          present[e] = false;
          dm.remove(e);
          assertFalse(dm.isMatched(e), "a removed edge is not matched");
        }
        dm.restore();
        assertMaximum(dm, src, dst, present, ds, dr, "instance " + n + " after " + x + " removals");
      }
      assertEquals(0, dm.size());
    }
  }

  private static void assertMaximum(
      DynamicDeltaMatching dm,
      int[] src,
      int[] dst,
      boolean[] present,
      int[] ds,
      int[] dr,
      String what) {
    int[] su = new int[ds.length];
    int[] ru = new int[dr.length];
    boolean[] seen = new boolean[src.length];
    for (int e : dm.matchedEdges()) {
      assertTrue(present[e], what + ": matched edge " + e + " was removed");
      assertFalse(seen[e], what + ": edge " + e + " twice");
      seen[e] = true;
      assertTrue(++su[src[e]] <= ds[src[e]] && ++ru[dst[e]] <= dr[dst[e]], what + ": δ exceeded");
    }
    int[] ps = new int[src.length];
    int[] pd = new int[src.length];
    int c = 0;
    for (int e = 0; e < src.length; e++) {
      if (present[e]) {
        ps[c] = src[e];
        pd[c++] = dst[e];
      }
    }
    int want = FlowDeltaMatching.maximum(ps, pd, c, Platform.of(1 << 20, 0, ds, dr)).length;
    assertEquals(want, dm.size(), what + ": not maximum");
  }

  /**
   * A repair whose only augmenting path runs through every node (40,001 edges long) is found
   * without deep recursion: senders s0..s(n-1) with edges si-ri and si-r(i+1), plus sender sn with
   * one edge sn-r0. Greedy matches every si-ri; removing s(n-1)-r(n-1) frees r(n-1), reachable from
   * sn only along the whole chain.
   */
  @Test
  void aLongAugmentingPathIsFoundWithoutRecursion() {
    int n = 20_000;
    int[] src = new int[2 * n];
    int[] dst = new int[2 * n];
    int e = 0;
    int last = -1;
    for (int i = 0; i < n; i++) {
      src[e] = i;
      dst[e] = i;
      if (i == n - 1) {
        last = e;
      }
      e++;
      if (i + 1 < n) {
        src[e] = i;
        dst[e++] = i + 1;
      }
    }
    src[e] = n;
    dst[e] = 0;
    int[] senderPorts = new int[n + 1];
    int[] receiverPorts = new int[n];
    java.util.Arrays.fill(senderPorts, 1);
    java.util.Arrays.fill(receiverPorts, 1);
    DynamicDeltaMatching dm = new DynamicDeltaMatching(src, dst, senderPorts, receiverPorts);
    assertEquals(n, dm.size());
    assertTrue(dm.isMatched(last));
    dm.remove(last);
    assertEquals(n - 1, dm.size());
    dm.restore();
    assertEquals(n, dm.size(), "sn takes r0 and every si shifts to r(i+1)");
    assertTrue(dm.isMatched(2 * n - 1), "sn-r0 is matched");
  }
}
