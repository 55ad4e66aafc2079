package io.wanshuffle.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The per-node sums and degrees, the largest amount and m(G), computed once at construction, are
 * bit for bit what a pass over the cells in the same order gives (so every algorithm reading them
 * plans as before), on random sparse and dense matrices.
 */
class TrafficMatrixAggregatesTest {
  @Test
  void aggregatesEqualAPassOverTheCells() {
    Random rnd = new Random(20261127);
    for (int t = 0; t < 300; t++) {
      int rows = 1 + rnd.nextInt(60);
      int cols = 1 + rnd.nextInt(60);
      double density = rnd.nextDouble();
      double[][] a = new double[rows][cols];
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (rnd.nextDouble() < density) {
            // amounts of very different magnitudes: the order of summation shows in the last bits
            a[i][j] = rnd.nextDouble() * Math.pow(10, rnd.nextInt(12) - 6);
          }
        }
      }
      TrafficMatrix m = TrafficMatrix.of(a).inSecondsAt(1 + rnd.nextInt(1000));
      double max = 0;
      int nz = 0;
      for (int i = 0; i < rows; i++) {
        double s = 0;
        int deg = 0;
        for (int j = 0; j < cols; j++) {
          s += m.amount(i, j);
          deg += m.amount(i, j) > 0 ? 1 : 0;
          max = Math.max(max, m.amount(i, j));
          nz += m.amount(i, j) > 0 ? 1 : 0;
        }
        assertEquals(s, m.rowSum(i), 0.0, "w(" + i + ") of matrix " + t);
        assertEquals(deg, m.rowDegree(i), "deg(" + i + ") of matrix " + t);
      }
      for (int j = 0; j < cols; j++) {
        double s = 0;
        int deg = 0;
        for (int i = 0; i < rows; i++) {
          s += m.amount(i, j);
          deg += m.amount(i, j) > 0 ? 1 : 0;
        }
        assertEquals(s, m.colSum(j), 0.0, "w(" + j + ") of matrix " + t);
        assertEquals(deg, m.colDegree(j), "deg(" + j + ") of matrix " + t);
      }
      assertEquals(max, m.maxAmount(), 0.0, "largest amount of matrix " + t);
      assertEquals(nz, m.nonZeroCount(), "m(G) of matrix " + t);
    }
  }

  @Test
  void aMatrixOfItsCellsIsTheDenseMatrix() {
    Random rnd = new Random(7);
    for (int t = 0; t < 100; t++) {
      int rows = 1 + rnd.nextInt(30);
      int cols = 1 + rnd.nextInt(30);
      double[] dense = new double[rows * cols];
      int n = rnd.nextInt(rows * cols + 1);
      int[] r = new int[n];
      int[] c = new int[n];
      double[] a = new double[n];
      int e = 0;
      for (int cell = 0; cell < rows * cols && e < n; cell++) {
        if (rnd.nextInt(rows * cols) < n) {
          r[e] = cell / cols;
          c[e] = cell % cols;
          a[e] = 1 + rnd.nextDouble();
          dense[cell] = a[e];
          e++;
        }
      }
      TrafficMatrix m =
          TrafficMatrix.ofCells(
              rows,
              cols,
              java.util.Arrays.copyOf(r, e),
              java.util.Arrays.copyOf(c, e),
              java.util.Arrays.copyOf(a, e));
      assertEquals(TrafficMatrix.ofRowMajor(rows, cols, dense), m, "matrix " + t);
    }
  }

  @Test
  void cellsOutsideTheShapeTwiceOrNegativeAreRefused() {
    int[] zero = {0};
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.ofCells(1, 1, new int[] {1}, zero, new double[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.ofCells(1, 1, new int[] {0, 0}, new int[] {0, 0}, new double[] {1, 2}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.ofCells(1, 1, zero, zero, new double[] {-1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.ofCells(1, 2, zero, zero, new double[] {1, 2}));
  }
}
