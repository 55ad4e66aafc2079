package io.wanshuffle.spark.measure;

import java.util.Arrays;

/**
 * Robust statistics the estimators use: the median, quantiles, and the Theil-Sen line fit (Sen,
 * "Estimates of the regression coefficient based on Kendall's tau", JASA 63, 1968): the slope is
 * the median of the slopes of all pairs of points, the intercept the median of y - slope x. Up to
 * 29 % of the points can be arbitrary (stragglers) without moving the fit far.
 */
public final class Robust {
  private Robust() {}

  /** A line y = intercept + slope x. */
  public record Line(double slope, double intercept) {}

  /**
   * @param v values (not modified), any length
   * @return their median (mean of the two middle values for an even count); NaN when empty
   */
  public static double median(double[] v) {
    return quantile(v, 0.5);
  }

  /**
   * @param v values (not modified)
   * @param q the quantile, in [0, 1]
   * @return the q-quantile, linear between order statistics; NaN when empty
   */
  public static double quantile(double[] v, double q) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    double pos = q * (s.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = (int) Math.ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  }

  /**
   * The Theil-Sen fit of y against x over the pairs of points whose x differ by at least {@code
   * minDx}. O(n²) in time and memory: callers keep n to a few hundred.
   *
   * @param x abscissae, same length as y
   * @param y ordinates
   * @param minDx smallest x difference a pair needs to count, at least 0
   * @return the fit, or null when no pair of points is that far apart
   * @throws IllegalArgumentException if the lengths differ
   */
  public static Line theilSen(double[] x, double[] y, double minDx) {
    return theilSen(x, y, x, minDx);
  }

  /**
   * The Theil-Sen fit of y against x over the pairs of points whose selector w differs by at least
   * {@code minDw} (and whose x differ): the slope is the median of those pairs' slopes, the
   * intercept the median over all points of y - slope x. With w = x it is {@link
   * #theilSen(double[], double[], double)}; a separate w lets a caller take the slope only from
   * pairs that differ in the variable that drives y (e.g. a flow's bytes), not in a noisy factor of
   * x. O(n²).
   *
   * @param x abscissae, same length as y and w
   * @param y ordinates
   * @param w per point the value pairs are selected by
   * @param minDw smallest w difference a pair needs to count, at least 0
   * @return the fit, or null when no pair qualifies
   * @throws IllegalArgumentException if the lengths differ
   */
  public static Line theilSen(double[] x, double[] y, double[] w, double minDw) {
    return theilSen(x, y, w, minDw, new int[x.length]);
  }

  /**
   * The Theil-Sen fit of y against x over the pairs of points of the same group whose selector w
   * differs by at least {@code minDw} (and whose x differ): the slope is the median of those pairs'
   * slopes, the intercept the median over all points of y - slope x. Points of different groups may
   * lie on parallel lines (the same slope, another intercept): pairing only within a group keeps
   * the groups' offset out of the slope. O(n²).
   *
   * @param x abscissae, same length as y, w and group
   * @param y ordinates
   * @param w per point the value pairs are selected by
   * @param minDw smallest w difference a pair needs to count, at least 0
   * @param group per point its group
   * @return the fit, or null when no pair qualifies
   * @throws IllegalArgumentException if the lengths differ
   */
  public static Line theilSen(double[] x, double[] y, double[] w, double minDw, int[] group) {
    if (x.length != y.length || x.length != w.length || x.length != group.length) {
      throw new IllegalArgumentException(
          "x, y, w and group differ in length: "
              + x.length
              + ", "
              + y.length
              + ", "
              + w.length
              + ", "
              + group.length);
    }
    int n = x.length;
    double[] slopes = new double[n * (n - 1) / 2];
    int m = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double dx = x[j] - x[i];
        if (group[i] == group[j] && Math.abs(w[j] - w[i]) >= minDw && dx != 0) {
          slopes[m++] = (y[j] - y[i]) / dx;
        }
      }
    }
    if (m == 0) {
      return null;
    }
    double slope = median(Arrays.copyOf(slopes, m));
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - slope * x[i];
    }
    return new Line(slope, median(r));
  }
}
