package io.wanshuffle.spark.coordinator.event;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The residual of a plan as its non-zero cells reads as the dense matrix it holds. */
class ResidualBytesTest {
  @Test
  void cellsReadAsTheDenseMatrixOnRandomResiduals() {
    Random rnd = new Random(11);
    for (int t = 0; t < 200; t++) {
      int rows = rnd.nextInt(25);
      int cols = rows == 0 ? 0 : 1 + rnd.nextInt(25);
      double density = rnd.nextDouble();
      long[][] d = new long[rows][cols];
      long total = 0;
      int cells = 0;
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (rnd.nextDouble() < density) {
            d[i][j] = 1 + (rnd.nextLong() >>> 20);
            total += d[i][j];
            cells++;
          }
        }
      }
      ResidualBytes r = ResidualBytes.ofDense(d);
      assertEquals(rows, r.rows());
      assertEquals(cols, r.cols());
      assertEquals(cells, r.cellCount());
      assertEquals(total, r.total());
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          assertEquals(d[i][j], r.bytesAt(i, j), "matrix " + t + " cell " + i + ", " + j);
        }
      }
      for (int e = 0; e < r.cellCount(); e++) {
        assertEquals(d[r.row(e)][r.col(e)], r.bytes(e));
      }
      assertArrayEquals(d, r.toDense());
      assertEquals(r, ResidualBytes.ofDense(r.toDense()));
      assertEquals(r.hashCode(), ResidualBytes.ofDense(r.toDense()).hashCode());
    }
  }

  @Test
  void cellsMustBeInRowMajorOrderWithinTheShapeAndPositive() {
    assertEquals(
        "residual cell (1, 0) is not after the one before in row-major order",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ResidualBytes.ofCells(
                        2, 2, new int[] {1, 1}, new int[] {1, 0}, new long[] {5, 6}))
            .getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ResidualBytes.ofCells(2, 2, new int[] {0, 0}, new int[] {1, 1}, new long[] {5, 6}),
        "a cell given twice");
    assertThrows(
        IllegalArgumentException.class,
        () -> ResidualBytes.ofCells(2, 2, new int[] {2}, new int[] {0}, new long[] {5}));
    assertThrows(
        IllegalArgumentException.class,
        () -> ResidualBytes.ofCells(2, 2, new int[] {0}, new int[] {0}, new long[] {0}));
    assertThrows(
        IllegalArgumentException.class,
        () -> ResidualBytes.ofCells(2, 2, new int[] {0}, new int[] {0, 1}, new long[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            ResidualBytes.ofCells(
                1, 2, new int[] {0, 0}, new int[] {0, 1}, new long[] {Long.MAX_VALUE, 1}));
    assertThrows(
        IllegalArgumentException.class, () -> ResidualBytes.ofDense(new long[][] {{1}, {-1}}));
    assertThrows(
        IndexOutOfBoundsException.class, () -> ResidualBytes.ofDense(new long[1][1]).bytesAt(0, 1));
  }

  @Test
  void jsonHoldsTheCellsAndADenseArrayReadsToo() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ResidualBytes r = ResidualBytes.ofDense(new long[][] {{0, 5}, {7, 0}, {0, 0}});
    String text = json.writeValueAsString(r);
    assertEquals("{\"rows\":3,\"cols\":2,\"row\":[0,1],\"col\":[1,0],\"bytes\":[5,7]}", text);
    assertEquals(r, json.readValue(text, ResidualBytes.class));
    assertEquals(r, json.readValue("[[0,5],[7,0],[0,0]]", ResidualBytes.class));
  }

  @Test
  void theCellsAreCopied() {
    int[] r = {0};
    int[] c = {1};
    long[] b = {9};
    ResidualBytes m = ResidualBytes.ofCells(1, 2, r, c, b);
    b[0] = 10;
    c[0] = 0;
    assertEquals(9, m.bytesAt(0, 1));
    assertNotEquals(m, ResidualBytes.ofCells(1, 2, r, c, b));
  }
}
