package io.wanshuffle.bench.quality;

/** Mean and maximum of cost/η ratios for one algorithm at one k. */
final class RatioStats {
  private double sum;
  private double max;
  private int count;

  void add(double ratio) {
    sum += ratio;
    max = Math.max(max, ratio);
    count++;
  }

  double mean() {
    return count == 0 ? Double.NaN : sum / count;
  }

  double max() {
    return max;
  }

  int count() {
    return count;
  }
}
