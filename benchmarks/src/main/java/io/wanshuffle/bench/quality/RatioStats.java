package io.wanshuffle.bench.quality;

/** Mean and maximum of cost/η ratios (and mean run time) of one algorithm on one instance set. */
final class RatioStats {
  private double sum;
  private double max;
  private int count;
  private long nanos;

  /**
   * @param ratio cost / η of one instance (≥ 1)
   * @param runNanos time the algorithm took on it, nanoseconds
   */
  void add(double ratio, long runNanos) {
    sum += ratio;
    max = Math.max(max, ratio);
    count++;
    nanos += runNanos;
  }

  /**
   * @return mean ratio, NaN when empty
   */
  double mean() {
    return count == 0 ? Double.NaN : sum / count;
  }

  /**
   * @return largest ratio
   */
  double max() {
    return max;
  }

  /**
   * @return number of instances
   */
  int count() {
    return count;
  }

  /**
   * @return mean run time, milliseconds
   */
  double meanMillis() {
    return count == 0 ? Double.NaN : nanos / 1e6 / count;
  }
}
