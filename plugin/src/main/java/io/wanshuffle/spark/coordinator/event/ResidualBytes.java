package io.wanshuffle.spark.coordinator.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A plan's residual traffic matrix in bytes (sending host x receiving host), held as its non-zero
 * cells in row-major order: cell e moves {@link #bytes(int) bytes(e)} bytes from sender {@link
 * #row(int) row(e)} to receiver {@link #col(int) col(e)}. It takes 16 bytes per non-zero cell
 * whatever the number of hosts, so a residual of 2,000 x 2,000 hosts with 6,000 pairs takes 96 KB
 * instead of a 32 MB dense array. Immutable.
 *
 * <p>In JSON (Spark's event log, through Jackson) it is an object {@code {"rows": R, "cols": C,
 * "row": [..], "col": [..], "bytes": [..]}}; a dense array of rows ({@code [[..], ..]}) reads too.
 */
public final class ResidualBytes {
  private final int rows;
  private final int cols;
  private final int[] row;
  private final int[] col;
  private final long[] bytes;
  private final long total;

  private ResidualBytes(int rows, int cols, int[] row, int[] col, long[] bytes) {
    this.rows = rows;
    this.cols = cols;
    this.row = row;
    this.col = col;
    this.bytes = bytes;
    long t = 0;
    for (long b : bytes) {
      t = Math.addExact(t, b);
    }
    this.total = t;
  }

  /**
   * @param rows senders, at least 0
   * @param cols receivers, at least 0
   * @param cellRows the sender of each non-zero cell
   * @param cellCols the receiver of each non-zero cell
   * @param cellBytes the bytes of each cell, each &gt; 0
   * @return the matrix (the arrays are copied)
   * @throws IllegalArgumentException on arrays of different lengths, a negative shape, a cell
   *     outside the shape, cells not in strictly increasing row-major order (a cell given twice), a
   *     cell of 0 or fewer bytes, or bytes that add up to more than {@link Long#MAX_VALUE}
   */
  public static ResidualBytes ofCells(
      int rows, int cols, int[] cellRows, int[] cellCols, long[] cellBytes) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException("residual shape " + rows + " x " + cols);
    }
    if (cellRows.length != cellBytes.length || cellCols.length != cellBytes.length) {
      throw new IllegalArgumentException(
          "residual cells: "
              + cellRows.length
              + " rows, "
              + cellCols.length
              + " columns and "
              + cellBytes.length
              + " amounts");
    }
    long previous = -1;
    for (int e = 0; e < cellBytes.length; e++) {
      int i = cellRows[e];
      int j = cellCols[e];
      if (i < 0 || i >= rows || j < 0 || j >= cols) {
        throw new IllegalArgumentException(
            "residual cell (" + i + ", " + j + ") is outside " + rows + " x " + cols);
      }
      long key = (long) i * cols + j;
      if (key <= previous) {
        throw new IllegalArgumentException(
            "residual cell (" + i + ", " + j + ") is not after the one before in row-major order");
      }
      previous = key;
      if (cellBytes[e] <= 0) {
        throw new IllegalArgumentException(
            "residual cell (" + i + ", " + j + ") has " + cellBytes[e] + " bytes");
      }
    }
    try {
      return new ResidualBytes(rows, cols, cellRows.clone(), cellCols.clone(), cellBytes.clone());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("residual bytes add up to more than 2^63 - 1", e);
    }
  }

  /**
   * @param dense {@code dense[i][j]}: bytes from sender i to receiver j, each at least 0; every row
   *     the same length
   * @return its non-zero cells (a matrix without rows has no columns)
   * @throws IllegalArgumentException if the rows differ in length, a cell is negative, or the bytes
   *     add up to more than {@link Long#MAX_VALUE}
   */
  public static ResidualBytes ofDense(long[][] dense) {
    int rows = dense.length;
    int cols = rows == 0 ? 0 : dense[0].length;
    int n = 0;
    for (int i = 0; i < rows; i++) {
      if (dense[i].length != cols) {
        throw new IllegalArgumentException(
            "residual row " + i + " has " + dense[i].length + " columns, expected " + cols);
      }
      for (long b : dense[i]) {
        if (b < 0) {
          throw new IllegalArgumentException(
              "residual row " + i + " has a cell of " + b + " bytes");
        }
        n += b > 0 ? 1 : 0;
      }
    }
    int[] r = new int[n];
    int[] c = new int[n];
    long[] b = new long[n];
    int e = 0;
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        if (dense[i][j] > 0) {
          r[e] = i;
          c[e] = j;
          b[e++] = dense[i][j];
        }
      }
    }
    return ofCells(rows, cols, r, c, b);
  }

  /**
   * @return the JSON form: rows, cols and the cells' row, col and bytes arrays
   */
  @JsonValue
  Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rows", rows);
    m.put("cols", cols);
    m.put("row", row.clone());
    m.put("col", col.clone());
    m.put("bytes", bytes.clone());
    return m;
  }

  /**
   * @param n the JSON form of {@link #toJson()}, or a dense array of rows of bytes
   * @return the residual it holds
   * @throws IllegalArgumentException if it is neither, or holds an invalid matrix
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static ResidualBytes fromJson(JsonNode n) {
    if (n.isArray()) {
      long[][] d = new long[n.size()][];
      for (int i = 0; i < d.length; i++) {
        JsonNode r = n.get(i);
        d[i] = new long[r.size()];
        for (int j = 0; j < d[i].length; j++) {
          d[i][j] = r.get(j).asLong();
        }
      }
      return ofDense(d);
    }
    if (!n.isObject() || !n.has("row") || !n.has("col") || !n.has("bytes")) {
      throw new IllegalArgumentException("not a residual: " + n);
    }
    int size = n.get("bytes").size();
    int[] r = new int[size];
    int[] c = new int[size];
    long[] b = new long[size];
    for (int e = 0; e < size; e++) {
      r[e] = n.get("row").get(e).asInt();
      c[e] = n.get("col").get(e).asInt();
      b[e] = n.get("bytes").get(e).asLong();
    }
    return ofCells(n.get("rows").asInt(), n.get("cols").asInt(), r, c, b);
  }

  /**
   * @return the number of senders (rows)
   */
  public int rows() {
    return rows;
  }

  /**
   * @return the number of receivers (columns)
   */
  public int cols() {
    return cols;
  }

  /**
   * @return the number of non-zero cells (pairs with bytes to move)
   */
  public int cellCount() {
    return bytes.length;
  }

  /**
   * @param e a cell, 0 ≤ e &lt; {@link #cellCount()}
   * @return its sender's row
   */
  public int row(int e) {
    return row[e];
  }

  /**
   * @param e a cell, 0 ≤ e &lt; {@link #cellCount()}
   * @return its receiver's column
   */
  public int col(int e) {
    return col[e];
  }

  /**
   * @param e a cell, 0 ≤ e &lt; {@link #cellCount()}
   * @return its bytes, &gt; 0
   */
  public long bytes(int e) {
    return bytes[e];
  }

  /**
   * One cell by a binary search of the cells: O(log cellCount()).
   *
   * @param i sender row, 0 ≤ i &lt; rows()
   * @param j receiver column, 0 ≤ j &lt; cols()
   * @return bytes from sender i to receiver j, 0 when none
   * @throws IndexOutOfBoundsException if (i, j) is outside the matrix
   */
  public long bytesAt(int i, int j) {
    if (i < 0 || i >= rows || j < 0 || j >= cols) {
      throw new IndexOutOfBoundsException(
          "cell (" + i + ", " + j + ") is outside " + rows + " x " + cols);
    }
    long key = (long) i * cols + j;
    int lo = 0;
    int hi = bytes.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long k = (long) row[mid] * cols + col[mid];
      if (k < key) {
        lo = mid + 1;
      } else if (k > key) {
        hi = mid - 1;
      } else {
        return bytes[mid];
      }
    }
    return 0;
  }

  /**
   * @return the sum of every cell, bytes
   */
  public long total() {
    return total;
  }

  /**
   * @return a new dense copy, {@code [i][j]} bytes from sender i to receiver j: rows x cols longs
   *     (for small matrices: reports and tests)
   */
  public long[][] toDense() {
    long[][] d = new long[rows][cols];
    for (int e = 0; e < bytes.length; e++) {
      d[row[e]][col[e]] = bytes[e];
    }
    return d;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResidualBytes r
        && r.rows == rows
        && r.cols == cols
        && Arrays.equals(r.row, row)
        && Arrays.equals(r.col, col)
        && Arrays.equals(r.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * rows + cols) + Arrays.hashCode(col)) + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "ResidualBytes[" + rows + "x" + cols + ", " + bytes.length + " pairs, " + total + " B]";
  }
}
