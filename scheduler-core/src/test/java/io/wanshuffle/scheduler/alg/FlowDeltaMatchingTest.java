package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The JGraphT max-flow δ-port matching against a brute force over all edge subsets. */
class FlowDeltaMatchingTest {
  @Test
  void maximumAgainstBruteForce() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int n = 0; n < 2000; n++) {
      int rows = rnd.nextInt(1, 5);
      int cols = rnd.nextInt(1, 5);
      int[] ds = new int[rows];
      int[] dr = new int[cols];
      boolean onePort = n % 2 == 0;
      for (int i = 0; i < rows; i++) {
        ds[i] = onePort ? 1 : rnd.nextInt(1, 4);
      }
      for (int j = 0; j < cols; j++) {
        dr[j] = onePort ? 1 : rnd.nextInt(1, 4);
      }
      Platform p = Platform.of(64, 0, ds, dr); // k large: only δ limits the matching
      int[] src = new int[rows * cols];
      int[] dst = new int[rows * cols];
      int m = 0;
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (rnd.nextInt(3) > 0) {
            src[m] = i;
            dst[m++] = j;
          }
        }
      }
      int[] got = FlowDeltaMatching.maximum(src, dst, m, p);
      int[] su = new int[rows];
      int[] ru = new int[cols];
      for (int e : got) {
        assertTrue(++su[src[e]] <= ds[src[e]] && ++ru[dst[e]] <= dr[dst[e]], "δ violated");
      }
      assertEquals(bruteForceMaximum(src, dst, m, ds, dr), got.length, "instance " + n);
    }
  }

  private static int bruteForceMaximum(int[] src, int[] dst, int m, int[] ds, int[] dr) {
    int best = 0;
    for (int mask = 0; mask < 1 << m; mask++) {
      int[] su = new int[ds.length];
      int[] ru = new int[dr.length];
      boolean ok = true;
      for (int e = 0; e < m && ok; e++) {
        if ((mask & (1 << e)) != 0) {
          ok = ++su[src[e]] <= ds[src[e]] && ++ru[dst[e]] <= dr[dst[e]];
        }
      }
      if (ok) {
        best = Math.max(best, Integer.bitCount(mask));
      }
    }
    return best;
  }
}
