package io.wanshuffle.bench.speed;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.SplittableRandom;

/**
 * The instances of the speed benchmark: a dense n x n traffic matrix (every entry non-zero) with
 * amounts uniform in 1..{@value #MAX_WEIGHT} seconds (the GGP/OGGP paper's sec. 8 "large weights"
 * range), on a 1-port platform with k = max(1, n/10) and β = 1 s. The same seed gives the same
 * matrix.
 */
public final class DenseInstances {
  /** Largest amount, seconds. */
  public static final int MAX_WEIGHT = 100_000;

  /** Setup delay β of the benchmark platform, seconds. */
  public static final double BETA = 1.0;

  private DenseInstances() {}

  /**
   * @param n senders and receivers, at least 1
   * @param seed random seed
   * @return the dense n x n matrix, amounts in seconds
   */
  public static TrafficMatrix matrix(int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, got " + n);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] a = new double[n * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = 1 + rnd.nextInt(MAX_WEIGHT);
    }
    return TrafficMatrix.ofRowMajor(n, n, a);
  }

  /**
   * @return k = max(1, n / 10)
   */
  public static int k(int n) {
    return Math.max(1, n / 10);
  }

  /**
   * @return the 1-port platform of an n x n instance: k = {@link #k(int)}, β = {@link #BETA}
   */
  public static Platform platform(int n) {
    return Platform.onePort(k(n), BETA, n, n);
  }
}
