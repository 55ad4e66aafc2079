package io.wanshuffle.it.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

class MarginalFitTest {
  /** Spark's CompressedMapStatus: a size kept as 1.1^ceil(log_1.1 size). */
  private static long compressed(long size) {
    return size == 0 ? 0 : (long) Math.pow(1.1, Math.ceil(Math.log(size) / Math.log(1.1)));
  }

  @Test
  void recoversTheExactMatrixFromRoundedUpCellsAndExactHostSums() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 20; trial++) {
      int n = 2 + rnd.nextInt(4);
      int m = 2 + rnd.nextInt(4);
      long[][] exact = new long[n][m];
      long[][] approx = new long[n][m];
      long[] rows = new long[n];
      long[] cols = new long[m];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
          // a rank-one matrix (sender share x receiver share), as a hash partitioner gives
          exact[i][j] = (long) ((1 + i) * 1_000_000L * (1 + 3 * j) * (0.5 + (trial % 3)));
          approx[i][j] = compressed(exact[i][j]);
          rows[i] += exact[i][j];
          cols[j] += exact[i][j];
        }
      }
      long[][] fit = MarginalFit.fit(approx, rows, cols);
      for (int i = 0; i < n; i++) {
        long s = 0;
        for (int j = 0; j < m; j++) {
          s += fit[i][j];
        }
        assertEquals(rows[i], s, m, "row " + i + " of trial " + trial);
      }
      for (int j = 0; j < m; j++) {
        long s = 0;
        for (int i = 0; i < n; i++) {
          s += fit[i][j];
        }
        assertEquals(cols[j], s, n, "column " + j + " of trial " + trial);
      }
    }
  }

  @Test
  void keepsZeroCellsAndPassesThroughWhatCannotBeFitted() {
    long[][] diagonal = {{110, 0}, {0, 220}};
    assertArrayEquals(
        new long[] {100, 0},
        MarginalFit.fit(diagonal, new long[] {100, 200}, new long[] {100, 200})[0]);
    // a positive column sum on an all-zero column: no fit, the approximation is returned
    long[][] approx = {{10, 0}, {10, 0}};
    assertArrayEquals(approx[0], MarginalFit.fit(approx, new long[] {5, 5}, new long[] {5, 5})[0]);
    assertThrows(
        IllegalArgumentException.class,
        () -> MarginalFit.fit(approx, new long[] {1}, new long[] {1, 1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> MarginalFit.fit(approx, new long[] {1, -1}, new long[] {0, 0}));
  }
}
