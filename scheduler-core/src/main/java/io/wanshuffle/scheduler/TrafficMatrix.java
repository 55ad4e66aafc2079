package io.wanshuffle.scheduler;

import java.util.Arrays;

/**
 * An immutable traffic matrix: {@code rows()} sender nodes by {@code cols()} receiver nodes, entry
 * (i, j) the amount sender i must move to receiver j. In this library amounts are seconds at base
 * speed; the CLI and the plugin convert bytes with {@link #inSecondsAt(double)}.
 *
 * <p>Stored sparse, as its non-zero cells in compressed rows (CSR): per row, the columns of its
 * non-zero cells in ascending order and their amounts, so that it takes O(rows + m(G)) memory (12
 * bytes per non-zero cell) whatever its shape; a 2,000 x 2,000 residual of 6,000 transfers takes 80
 * KB instead of 32 MB. Algorithms work on the bipartite graph of its non-zero entries (the graph G
 * of the GGP/OGGP paper, sec. 2.2: an edge per non-zero entry, weighted by its amount) by passing
 * over each row's non-zero cells ({@link #rowDegree}, {@link #nonZeroCol}, {@link #nonZeroAmount}),
 * which visits them in the order of a dense row-major pass skipping the zeros. The per-node sums
 * w(v) and degrees, the largest amount and m(G) are computed once, in the pass of construction, in
 * that same order (so a sum is bit for bit a dense pass's); reading them costs O(1). A single cell
 * costs O(log rowDegree(i)) ({@link #amount}).
 */
public final class TrafficMatrix {
  private final int rows;
  private final int cols;

  /** Row i's non-zero cells are at positions {@code start[i] .. start[i + 1] - 1}. */
  private final int[] start;

  /** The column of each non-zero cell, ascending within a row. */
  private final int[] col;

  /** The amount of each non-zero cell, seconds, &gt; 0. */
  private final double[] value;

  /** P(G), summed once: the constructor needs it to reject an overflowing matrix. */
  private final double total;

  /** w(i) per sender, summed in column order. */
  private final double[] rowSums;

  /** w(j) per receiver, summed in row order. */
  private final double[] colSums;

  /** Non-zero entries per receiver. */
  private final int[] colDegrees;

  private final double max;

  /**
   * @param start row starts, {@code rows + 1} entries, owned by the matrix
   * @param col columns of the non-zero cells, ascending within a row, owned by the matrix
   * @param value amounts of the non-zero cells, each finite and &gt; 0, owned by the matrix
   */
  private TrafficMatrix(int rows, int cols, int[] start, int[] col, double[] value) {
    this.rows = rows;
    this.cols = cols;
    this.start = start;
    this.col = col;
    this.value = value;
    this.rowSums = new double[rows];
    this.colSums = new double[cols];
    this.colDegrees = new int[cols];
    double sum = 0;
    double m = 0;
    for (int i = 0; i < rows; i++) {
      double rs = 0;
      for (int e = start[i]; e < start[i + 1]; e++) {
        double a = value[e];
        int j = col[e];
        sum += a;
        rs += a;
        colSums[j] += a;
        m = Math.max(m, a);
        colDegrees[j]++;
      }
      rowSums[i] = rs;
    }
    this.total = sum;
    this.max = m;
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
   * @return the matrix (the array is not kept)
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
    int nz = 0;
    for (int i = 0; i < r; i++) {
      if (amounts[i].length != c) {
        throw new IllegalArgumentException(
            "traffic matrix row " + i + " has " + amounts[i].length + " columns, expected " + c);
      }
      for (int j = 0; j < c; j++) {
        double a = amounts[i][j];
        checkAmount(a, i, j);
        nz += a > 0 ? 1 : 0;
      }
    }
    int[] start = new int[r + 1];
    int[] col = new int[nz];
    double[] value = new double[nz];
    int e = 0;
    for (int i = 0; i < r; i++) {
      start[i] = e;
      for (int j = 0; j < c; j++) {
        if (amounts[i][j] > 0) {
          col[e] = j;
          value[e++] = amounts[i][j];
        }
      }
    }
    start[r] = e;
    return new TrafficMatrix(r, c, start, col, value);
  }

  /**
   * Builds a matrix from a row-major array.
   *
   * @param rows number of senders, at least 1
   * @param cols number of receivers, at least 1
   * @param rowMajor {@code rows * cols} amounts in seconds, entry (i, j) at {@code i * cols + j}
   * @return the matrix (the array is not kept)
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
    int nz = 0;
    for (int x = 0; x < rowMajor.length; x++) {
      checkAmount(rowMajor[x], x / cols, x % cols);
      nz += rowMajor[x] > 0 ? 1 : 0;
    }
    int[] start = new int[rows + 1];
    int[] col = new int[nz];
    double[] value = new double[nz];
    int e = 0;
    for (int i = 0; i < rows; i++) {
      start[i] = e;
      for (int j = 0, x = i * cols; j < cols; j++, x++) {
        if (rowMajor[x] > 0) {
          col[e] = j;
          value[e++] = rowMajor[x];
        }
      }
    }
    start[rows] = e;
    return new TrafficMatrix(rows, cols, start, col, value);
  }

  /**
   * Builds a matrix from its non-zero cells, in any order, in O(rows + n log n) for n cells; no
   * rows x cols array is allocated.
   *
   * @param rows number of senders, at least 1
   * @param cols number of receivers, at least 1
   * @param cellRows the row of each given cell
   * @param cellCols the column of each given cell, each (row, column) at most once
   * @param amounts the amount of each given cell, seconds; every other cell is 0
   * @return the matrix (the arrays are not kept)
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
    // count the non-zero cells per row, checking each cell
    int[] start = new int[rows + 1];
    int nz = 0;
    for (int e = 0; e < amounts.length; e++) {
      int i = cellRows[e];
      int j = cellCols[e];
      if (i < 0 || i >= rows || j < 0 || j >= cols) {
        throw new IllegalArgumentException(
            "traffic matrix cell (" + i + ", " + j + ") is outside " + rows + " x " + cols);
      }
      checkAmount(amounts[e], i, j);
      if (amounts[e] > 0) {
        start[i + 1]++;
        nz++;
      }
    }
    for (int i = 0; i < rows; i++) {
      start[i + 1] += start[i];
    }
    // place each cell in its row (a counting sort by row), then sort each row by column
    long[] keyed = new long[nz];
    int[] fill = Arrays.copyOf(start, rows);
    for (int e = 0; e < amounts.length; e++) {
      if (amounts[e] > 0) {
        keyed[fill[cellRows[e]]++] = ((long) cellCols[e] << 32) | e;
      }
    }
    int[] col = new int[nz];
    double[] value = new double[nz];
    for (int i = 0; i < rows; i++) {
      boolean sorted = true;
      for (int x = start[i] + 1; x < start[i + 1] && sorted; x++) {
        sorted = keyed[x - 1] < keyed[x];
      }
      if (!sorted) {
        Arrays.sort(keyed, start[i], start[i + 1]);
      }
      for (int x = start[i]; x < start[i + 1]; x++) {
        int j = (int) (keyed[x] >>> 32);
        if (x > start[i] && col[x - 1] == j) {
          throw new IllegalArgumentException(
              "traffic matrix cell (" + i + ", " + j + ") given twice");
        }
        col[x] = j;
        value[x] = amounts[(int) keyed[x]];
      }
    }
    return new TrafficMatrix(rows, cols, start, col, value);
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
   * One cell, by a binary search of its row's non-zero columns: O(log rowDegree(i)). A pass over
   * the non-zero cells reads {@link #nonZeroAmount} instead.
   *
   * @param i sender index, 0 ≤ i &lt; rows()
   * @param j receiver index, 0 ≤ j &lt; cols()
   * @return amount from i to j in seconds (0 when there is no transfer)
   * @throws IndexOutOfBoundsException if i or j is outside the matrix
   */
  public double amount(int i, int j) {
    int at = nonZeroPosition(i, j);
    return at >= 0 ? value[at] : 0;
  }

  /**
   * @return a new dense copy of the amounts, row-major ({@code i * cols() + j}), seconds: rows x
   *     cols doubles
   */
  public double[] toRowMajor() {
    double[] dense = new double[Math.multiplyExact(rows, cols)];
    for (int i = 0; i < rows; i++) {
      for (int e = start[i]; e < start[i + 1]; e++) {
        dense[i * cols + col[e]] = value[e];
      }
    }
    return dense;
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
    return start[i + 1] - start[i];
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
   * visits the cells in the order of a dense row-major pass, skipping the zeros. O(1).
   *
   * @param i sender index, 0 ≤ i &lt; rows()
   * @param x 0 ≤ x &lt; {@link #rowDegree}(i)
   * @return the column of row i's x-th non-zero cell
   * @throws IndexOutOfBoundsException if x is not below the row's degree
   */
  public int nonZeroCol(int i, int x) {
    return col[cell(i, x)];
  }

  /**
   * The amount of the x-th non-zero cell of row i (the cell of {@link #nonZeroCol}(i, x)). O(1).
   *
   * @param i sender index, 0 ≤ i &lt; rows()
   * @param x 0 ≤ x &lt; {@link #rowDegree}(i)
   * @return its amount, seconds, &gt; 0
   * @throws IndexOutOfBoundsException if x is not below the row's degree
   */
  public double nonZeroAmount(int i, int x) {
    return value[cell(i, x)];
  }

  private int cell(int i, int x) {
    int n = start[i + 1] - start[i];
    if (x < 0 || x >= n) {
      throw new IndexOutOfBoundsException(
          "row " + i + " has " + n + " non-zero cells, asked for the " + x + "-th");
    }
    return start[i] + x;
  }

  /**
   * @param i sender index
   * @param j receiver index
   * @return the position of cell (i, j) among the non-zero cells in row-major order, 0 ≤ position
   *     &lt; {@link #nonZeroCount()}; -1 when the cell is 0. O(log rowDegree(i)).
   * @throws IndexOutOfBoundsException if i or j is outside the matrix
   */
  public int nonZeroPosition(int i, int j) {
    if (j < 0 || j >= cols) {
      throw new IndexOutOfBoundsException("column " + j + " of " + cols);
    }
    int at = Arrays.binarySearch(col, start[i], start[i + 1], j);
    return at >= 0 ? at : -1;
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
    return col.length;
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
    double[] s = new double[value.length];
    for (int i = 0; i < rows; i++) {
      for (int e = start[i]; e < start[i + 1]; e++) {
        s[e] = value[e] / bytesPerSecond;
        if (s[e] == 0) {
          throw new IllegalArgumentException(
              "amount "
                  + value[e]
                  + " of pair ("
                  + i
                  + ", "
                  + col[e]
                  + ") at "
                  + bytesPerSecond
                  + " bytes/s is below the smallest double");
        }
      }
    }
    return new TrafficMatrix(rows, cols, start, col, s);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TrafficMatrix t
        && t.rows == rows
        && t.cols == cols
        && Arrays.equals(t.start, start)
        && Arrays.equals(t.col, col)
        && Arrays.equals(t.value, value);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * rows + cols) + Arrays.hashCode(col)) + Arrays.hashCode(value);
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
