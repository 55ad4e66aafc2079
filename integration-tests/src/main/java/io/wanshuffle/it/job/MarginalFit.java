package io.wanshuffle.it.job;

/**
 * Fits a traffic matrix known only approximately to exact row and column sums, by biproportional
 * scaling (iterative proportional fitting, the RAS method: rows and columns are scaled in turn
 * until both sums match).
 *
 * <p>Used for the shuffle matrix of a run: Spark's map output statistics keep each block's size
 * rounded up to a power of 1.1 ({@code CompressedMapStatus}), so every cell overstates its bytes by
 * 0-10 %, while the task metrics give exact bytes per host (written by each map host, read by each
 * reduce host) but not per host pair. The fit keeps the map statistics' proportions and zero cells
 * and takes its sums from the metrics.
 */
public final class MarginalFit {
  /**
   * Scaling rounds; each costs O(rows x cols); the sums agree to well under a byte per cell long
   * before.
   */
  static final int ROUNDS = 50;

  private MarginalFit() {}

  /**
   * @param approx {@code [rows][cols]} non-negative approximate bytes
   * @param rowSums exact bytes per row, {@code [rows]}, scaled to the column total if the two
   *     totals differ
   * @param colSums exact bytes per column, {@code [cols]}
   * @return {@code [rows][cols]} bytes whose column sums are {@code colSums} (up to rounding) and
   *     whose row sums are {@code rowSums} as far as the zero cells of {@code approx} allow; {@code
   *     approx} itself (a copy) when a non-zero sum falls on a row or column without a non-zero
   *     cell or the sums are all zero
   * @throws IllegalArgumentException if the shapes disagree or a value is negative
   */
  public static long[][] fit(long[][] approx, long[] rowSums, long[] colSums) {
    int n = approx.length;
    int m = n == 0 ? 0 : approx[0].length;
    if (rowSums.length != n || colSums.length != m) {
      throw new IllegalArgumentException(
          "sums of "
              + rowSums.length
              + " rows and "
              + colSums.length
              + " columns for a "
              + n
              + " x "
              + m
              + " matrix");
    }
    double[][] x = new double[n][m];
    double colTotal = 0;
    double rowTotal = 0;
    for (int j = 0; j < m; j++) {
      colTotal += nonNegative(colSums[j], "column sum");
    }
    for (int i = 0; i < n; i++) {
      rowTotal += nonNegative(rowSums[i], "row sum");
      if (approx[i].length != m) {
        throw new IllegalArgumentException(
            "row " + i + " has " + approx[i].length + " cells, not " + m);
      }
      for (int j = 0; j < m; j++) {
        x[i][j] = nonNegative(approx[i][j], "cell");
      }
    }
    if (colTotal == 0 || rowTotal == 0 || !supported(x, rowSums, colSums)) {
      return copy(approx);
    }
    double rowScale = colTotal / rowTotal;
    for (int round = 0; round < ROUNDS; round++) {
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < m; j++) {
          s += x[i][j];
        }
        if (s > 0) {
          double f = rowSums[i] * rowScale / s;
          for (int j = 0; j < m; j++) {
            x[i][j] *= f;
          }
        }
      }
      for (int j = 0; j < m; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
          s += x[i][j];
        }
        if (s > 0) {
          double f = colSums[j] / s;
          for (int i = 0; i < n; i++) {
            x[i][j] *= f;
          }
        }
      }
    }
    long[][] out = new long[n][m];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        out[i][j] = Math.round(x[i][j]);
      }
    }
    return out;
  }

  /**
   * @return false when a positive sum has no positive cell to carry it
   */
  private static boolean supported(double[][] x, long[] rowSums, long[] colSums) {
    for (int i = 0; i < x.length; i++) {
      double s = 0;
      for (double v : x[i]) {
        s += v;
      }
      if (rowSums[i] > 0 && s == 0) {
        return false;
      }
    }
    for (int j = 0; j < colSums.length; j++) {
      double s = 0;
      for (double[] row : x) {
        s += row[j];
      }
      if (colSums[j] > 0 && s == 0) {
        return false;
      }
    }
    return true;
  }

  private static double nonNegative(long v, String what) {
    if (v < 0) {
      throw new IllegalArgumentException("negative " + what + ": " + v);
    }
    return v;
  }

  private static long[][] copy(long[][] a) {
    long[][] c = new long[a.length][];
    for (int i = 0; i < a.length; i++) {
      c[i] = a[i].clone();
    }
    return c;
  }
}
