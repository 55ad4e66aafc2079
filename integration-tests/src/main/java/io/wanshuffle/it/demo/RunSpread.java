package io.wanshuffle.it.demo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A figure measured over several runs of one variant: its median and its range.
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min the smallest run's value
 * @param max the largest run's value
 * @param runs how many runs
 */
public record RunSpread(double median, double min, double max, int runs) {

  /**
   * @param values one value per run, at least one, every one finite
   * @return their median and range
   * @throws IllegalArgumentException if {@code values} is empty or holds a value that is not finite
   */
  public static RunSpread of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no runs: a spread needs at least one value");
    }
    for (double v : values) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("a run's value is not a finite number: " + v);
      }
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    return new RunSpread(median, s[0], s[n - 1], n);
  }

  /**
   * @param values one value per run, at least one
   * @return {@link #of(double...)} of them
   */
  public static RunSpread of(List<Double> values) {
    return of(values.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * @return {@code max - min}, in the values' unit (0 for one run)
   */
  public double range() {
    return max - min;
  }

  /**
   * @param format a {@link String#format} pattern of one number, e.g. {@code %.2f}
   * @return {@code median (min-max)}, e.g. {@code 6.49 (6.31-6.60)}; the median alone for one run
   *     or when every run gave the same value
   */
  public String text(String format) {
    String m = String.format(Locale.ROOT, format, median);
    String lo = String.format(Locale.ROOT, format, min);
    String hi = String.format(Locale.ROOT, format, max);
    return lo.equals(hi) ? m : m + " (" + lo + "-" + hi + ")";
  }
}
