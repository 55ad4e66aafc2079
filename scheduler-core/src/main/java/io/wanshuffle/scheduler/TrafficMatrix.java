package io.wanshuffle.scheduler;

import java.util.Arrays;

/**
 * An immutable traffic matrix: {@code rows()} sender nodes by {@code cols()} receiver nodes, entry
 * (i, j) the amount sender i must move to receiver j. In this library amounts are seconds at base
 * speed; the CLI and the plugin convert bytes with {@link #inSecondsAt(double)}.
 *
 * <p>Stored dense, row-major, so that a 1000 x 1000 matrix takes 8 MB; {@link #nonZeroCount()} and
 * the per-node degrees let algorithms work on the bipartite graph of its non-zero entries (the
 * graph G of the GGP/OGGP paper, sec. 2.2: an edge per non-zero entry, weighted by its amount). The
 * per-node sums w(v) and degrees, the largest amount and m(G) are computed once, in the one pass of
 * construction (O(rows·cols)); reading them costs O(1), so that a lower bound or a node ranking of
 * a sparse n x n matrix costs O(n) instead of O(n²) per call.
 */
public final class TrafficMatrix {
  private final int rows;
  private final int cols;
  private final double[] amounts;

  /** P(G), summed once: the constructor needs it to reject an overflowing matrix. */
  private final double total;

  /** w(i) per sender, summed in column order. */
  private final double[] rowSums;

  /** w(j) per receiver, summed in row order. */
  private final double[] colSums;

  /** Non-zero entries per sender. */
  private final int[] rowDegrees;

  /** Non-zero entries per receiver. */
  private final int[] colDegrees;

  private final double max;
  private final int nonZeros;

  /**
   * The columns of the non-zero cells, row by row ({@link #nonZeroCol}); built on first use (benign
   * race: every thread builds the same arrays).
   */
  private volatile NonZeros nonZeroIndex;

  /** Row i's non-zero columns are {@code cols[start[i]] .. cols[start[i + 1] - 1]}, ascending. */
  private record NonZeros(int[] start, int[] cols) {}

  private TrafficMatrix(int rows, int cols, double[] amounts) {
    this.rows = rows;
    this.cols = cols;
    this.amounts = amounts;
    this.rowSums = new double[rows];
    this.colSums = new double[cols];
    this.rowDegrees = new int[rows];
    this.colDegrees = new int[cols];
    double sum = 0;
    double m = 0;
    int n = 0;
    for (int i = 0; i < rows; i++) {
      int base = i * cols;
      double rs = 0;
      for (int j = 0; j < cols; j++) {
        double a = amounts[base + j];
        sum += a;
        rs += a;
        colSums[j] += a;
        m = Math.max(m, a);
        if (a > 0) {
          n++;
          rowDegrees[i]++;
          colDegrees[j]++;
        }
      }
      rowSums[i] = rs;
    }
    this.total = sum;
    this.max = m;
    this.nonZeros = n;
    if (Double.isInfinite(total)) {
      throw new IllegalArgumentException(
          "traffic matrix total overflows: its amounts add up to more than "
              + Double.MAX_VALUE
              + "; give them in a larger unit");
    }
  }

  /**
   * Builds a matrix from rows of amounts.
   *
   * @param amounts {@code amounts[i][j]} = amount from sender i to receiver j (seconds), at least
   *     one row and one column, all rows the same length
   * @return the matrix (the array is copied)
   * @throws IllegalArgumentException if the matrix is empty, ragged, or holds a negative, NaN or
   *     infinite amount (the message names the row and column, zero-based), or if its amounts add
   *     up to more than the largest double
   */
  public static TrafficMatrix of(double[][] amounts) {
    if (amounts.length == 0 || amounts[0].length == 0) {
      throw new IllegalArgumentException("traffic matrix is empty");
    }
    int r = amounts.length;
    int c = amounts[0].length;
    double[] flat = new double[r * c];
    for (int i = 0; i < r; i++) {
      if (amounts[i].length != c) {
        throw new IllegalArgumentException(
            "traffic matrix row " + i + " has " + amounts[i].length + " columns, expected " + c);
      }
      for (int j = 0; j < c; j++) {
        double a = amounts[i][j];
        checkAmount(a, i, j);
        flat[i * c + j] = a;
      }
    }
    return new TrafficMatrix(r, c, flat);
  }

  /**
   * Builds a matrix from a row-major array.
   *
   * @param rows number of senders, at least 1
   * @param cols number of receivers, at least 1
   * @param rowMajor {@code rows * cols} amounts in seconds, entry (i, j) at {@code i * cols + j}
   * @return the matrix (the array is copied)
   * @throws IllegalArgumentException on a size mismatch or a negative, NaN or infinite amount, or
   *     if the amounts add up to more than the largest double
   */
  public static TrafficMatrix ofRowMajor(int rows, int cols, double[] rowMajor) {
    if (rows < 1 || cols < 1) {
      throw new IllegalArgumentException("traffic matrix is empty");
    }
    if (rowMajor.length != rows * cols) {
      throw new IllegalArgumentException(
          "traffic matrix needs " + rows * cols + " amounts, got " + rowMajor.length);
    }
    for (int i = 0; i < rowMajor.length; i++) {
      checkAmount(rowMajor[i], i / cols, i % cols);
    }
    return new TrafficMatrix(rows, cols, rowMajor.clone());
  }

  /**
   * Builds a matrix from its non-zero cells: the dense array is filled here, with no copy, so that
   * a sparse residual of n x n hosts costs one O(n²) array rather than a caller's array and its
   * copy.
   *
   * @param rows number of senders, at least 1
   * @param cols number of receivers, at least 1
   * @param cellRows the row of each given cell
   * @param cellCols the column of each given cell, each (row, column) at most once
   * @param amounts the amount of each given cell, seconds; every other cell is 0
   * @return the matrix
   * @throws IllegalArgumentException on an empty shape, arrays of different lengths, a cell out of
   *     the shape, a non-zero cell given twice, a negative, NaN or infinite amount, or amounts that
   *     add up to more than the largest double
   */
  public static TrafficMatrix ofCells(
      int rows, int cols, int[] cellRows, int[] cellCols, double[] amounts) {
    if (rows < 1 || cols < 1) {
      throw new IllegalArgumentException("traffic matrix is empty");
    }
    if (cellRows.length != amounts.length || cellCols.length != amounts.length) {
      throw new IllegalArgumentException(
          "traffic matrix cells: "
              + cellRows.length
              + " rows, "
              + cellCols.length
              + " columns and "
              + amounts.length
              + " amounts");
    }
    double[] flat = new double[Math.multiplyExact(rows, cols)];
    for (int e = 0; e < amounts.length; e++) {
      int i = cellRows[e];
      int j = cellCols[e];
      if (i < 0 || i >= rows || j < 0 || j >= cols) {
        throw new IllegalArgumentException(
            "traffic matrix cell (" + i + ", " + j + ") is outside " + rows + " x " + cols);
      }
      if (flat[i * cols + j] != 0) {
        throw new IllegalArgumentException(
            "traffic matrix cell (" + i + ", " + j + ") given twice");
      }
      checkAmount(amounts[e], i, j);
      flat[i * cols + j] = amounts[e];
    }
    return new TrafficMatrix(rows, cols, flat);
  }

  private static void checkAmount(double a, int i, int j) {
    if (!(a >= 0) || Double.isInfinite(a)) {
      throw new IllegalArgumentException(
          "traffic matrix entry ("
              + i
              + ", "
              + j
              + ") must be a finite non-negative number, got "
              + a);
    }
  }

  /**
   * @return number of senders (rows, V1 in the papers)
   */
  public int rows() {
    return rows;
  }

  /**
   * @return number of receivers (columns, V2 in the papers)
   */
  public int cols() {
    return cols;
  }

  /**
   * @param i sender index, 0 ≤ i &lt; rows()
   * @param j receiver index, 0 ≤ j &lt; cols()
   * @return amount from i to j in seconds (0 when there is no transfer)
   */
  public double amount(int i, int j) {
    return amounts[i * cols + j];
  }

  /**
   * @return a copy of the amounts, row-major ({@code i * cols() + j})
   */
  public double[] toRowMajor() {
    return amounts.clone();
  }

  /**
   * @return w(i): the total amount sender i sends (seconds)
   */
  public double rowSum(int i) {
    return rowSums[i];
  }

  /**
   * @return w(j): the total amount receiver j receives (seconds)
   */
  public double colSum(int j) {
    return colSums[j];
  }

  /**
   * @return the number of non-zero entries of row i (degree of sender i in G)
   */
  public int rowDegree(int i) {
    return rowDegrees[i];
  }

  /**
   * @return the number of non-zero entries of column j (degree of receiver j in G)
   */
  public int colDegree(int j) {
    return colDegrees[j];
  }

  /**
   * The x-th non-zero cell of row i, for passes over the non-zero cells only: {@code for x <
   * rowDegree(i)} visits row i's non-zero columns in ascending order, so a pass over every row so
   * visits the cells in the order of a dense row-major pass, skipping the zeros. The index is built
   * once, on first use, in O(rows·cols).
   *
   * @param i sender index, 0 ≤ i &lt; rows()
   * @param x 0 ≤ x &lt; {@link #rowDegree}(i)
   * @return the column of row i's x-th non-zero cell
   * @throws IndexOutOfBoundsException if x is not below the row's degree
   */
  public int nonZeroCol(int i, int x) {
    if (x < 0 || x >= rowDegrees[i]) {
      throw new IndexOutOfBoundsException(
          "row " + i + " has " + rowDegrees[i] + " non-zero cells, asked for the " + x + "-th");
    }
    NonZeros nz = nonZeros();
    return nz.cols[nz.start[i] + x];
  }

  /**
   * @param i sender index
   * @param j receiver index
   * @return the position of cell (i, j) among the non-zero cells in row-major order, 0 ≤ position
   *     &lt; {@link #nonZeroCount()}; -1 when the cell is 0. O(log rowDegree(i)).
   */
  public int nonZeroPosition(int i, int j) {
    NonZeros nz = nonZeros();
    int at = java.util.Arrays.binarySearch(nz.cols, nz.start[i], nz.start[i + 1], j);
    return at >= 0 ? at : -1;
  }

  private NonZeros nonZeros() {
    NonZeros nz = nonZeroIndex;
    if (nz == null) {
      int[] start = new int[rows + 1];
      int[] c = new int[nonZeros];
      int e = 0;
      for (int i = 0; i < rows; i++) {
        start[i] = e;
        int base = i * cols;
        for (int j = 0; j < cols; j++) {
          if (amounts[base + j] > 0) {
            c[e++] = j;
          }
        }
      }
      start[rows] = e;
      nz = new NonZeros(start, c);
      nonZeroIndex = nz;
    }
    return nz;
  }

  /**
   * @return P(G): the sum of all amounts (seconds)
   */
  public double total() {
    return total;
  }

  /**
   * @return the largest single amount (seconds), 0 for an all-zero matrix
   */
  public double maxAmount() {
    return max;
  }

  /**
   * @return m(G): the number of non-zero entries (transfers)
   */
  public int nonZeroCount() {
    return nonZeros;
  }

  /**
   * @param bytesPerSecond a finite positive rate, bytes/s (one flow at base speed)
   * @return this matrix of bytes in seconds at that rate: every amount divided by the rate (exactly
   *     rounded, so 35000000 B at 12500000 B/s is 2.8 s)
   * @throws IllegalArgumentException if the rate is not finite and positive, if a positive amount
   *     becomes 0 (below the smallest double), or if the seconds add up to more than the largest
   *     double
   */
  public TrafficMatrix inSecondsAt(double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("rate must be finite and positive, got " + bytesPerSecond);
    }
    double[] s = new double[amounts.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = amounts[i] / bytesPerSecond;
      if (s[i] == 0 && amounts[i] > 0) {
        throw new IllegalArgumentException(
            "amount "
                + amounts[i]
                + " of pair ("
                + i / cols
                + ", "
                + i % cols
                + ") at "
                + bytesPerSecond
                + " bytes/s is below the smallest double");
      }
    }
    return new TrafficMatrix(rows, cols, s);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TrafficMatrix t
        && t.rows == rows
        && t.cols == cols
        && Arrays.equals(t.amounts, amounts);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * rows + cols) + Arrays.hashCode(amounts);
  }

  @Override
  public String toString() {
    return "TrafficMatrix["
        + rows
        + "x"
        + cols
        + ", "
        + nonZeroCount()
        + " transfers, total "
        + total()
        + " s]";
  }
}
