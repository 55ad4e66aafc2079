package io.wanshuffle.bench.replan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Residual traffic matrices as the plugin's coordinator plans them at a step boundary: n sending
 * hosts of one cluster x n receiving hosts of the other, amounts in seconds at base speed (bytes /
 * base speed), on the platform of the default configuration (10 gbit/s backbone, 1 gbit/s NICs: δ =
 * 1 per host) with k free flows and β = {@value #BETA} s (the default {@code
 * spark.wanshuffle.beta}).
 *
 * <p>Shapes:
 *
 * <ul>
 *   <li>{@link Shape#DENSE}: every pair has data, amounts uniform in [{@value #MIN_SECONDS},
 *       {@value #MAX_SECONDS}] s (a shuffle whose every reducer reads every mapper's host).
 *   <li>{@link Shape#SPARSE}: each pair has data with probability {@value #SPARSE_DENSITY}, same
 *       amounts (partial residual: many pairs already done).
 *   <li>{@link Shape#SKEWED}: each pair has data with probability {@value #SKEWED_DENSITY}; the
 *       amount is {@value #MAX_SECONDS} s / (rank of the sender x rank of the receiver)^0.8 with
 *       ranks 1..n in a random order (Zipf-like hot senders and receivers, a data-skewed join).
 * </ul>
 *
 * The same (shape, n, seed) gives the same matrix.
 */
public final class ResidualInstances {
  /** β of the platform, seconds. */
  public static final double BETA = 0.05;

  /** Smallest amount of a dense or sparse pair, seconds. */
  public static final double MIN_SECONDS = 0.01;

  /** Largest amount of a pair, seconds. */
  public static final double MAX_SECONDS = 4.0;

  /** Probability that a pair has data in a sparse matrix. */
  public static final double SPARSE_DENSITY = 0.1;

  /** Probability that a pair has data in a skewed matrix. */
  public static final double SKEWED_DENSITY = 0.3;

  /** The residual matrix shapes. */
  public enum Shape {
    DENSE,
    SPARSE,
    SKEWED;

    /**
     * @return the lower-case name used on the command line and in the report
     */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param s a label ({@code dense}, {@code sparse}, {@code skewed}), any case
     * @return the shape
     * @throws IllegalArgumentException naming the label and the known ones
     */
    public static Shape of(String s) {
      for (Shape v : values()) {
        if (v.label().equalsIgnoreCase(s.trim())) {
          return v;
        }
      }
      throw new IllegalArgumentException("unknown shape '" + s + "'; known: dense, sparse, skewed");
    }
  }

  private ResidualInstances() {}

  /**
   * @param shape the shape
   * @param n hosts per cluster (rows and columns), at least 1
   * @param seed random seed
   * @return the n x n residual matrix, seconds at base speed; never all zero
   * @throws IllegalArgumentException if n &lt; 1
   */
  public static TrafficMatrix matrix(Shape shape, int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, got " + n);
    }
    SplittableRandom rnd = new SplittableRandom(seed ^ (31L * n + shape.ordinal()));
    double[] a = new double[n * n];
    int[] rowRank = permutation(n, rnd);
    int[] colRank = permutation(n, rnd);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double v =
            switch (shape) {
              case DENSE -> uniform(rnd);
              case SPARSE -> rnd.nextDouble() < SPARSE_DENSITY ? uniform(rnd) : 0;
              case SKEWED ->
                  rnd.nextDouble() < SKEWED_DENSITY
                      ? Math.max(
                          MIN_SECONDS,
                          MAX_SECONDS / Math.pow((double) (rowRank[i] + 1) * (colRank[j] + 1), 0.8))
                      : 0;
            };
        a[i * n + j] = v;
      }
    }
    if (shape != Shape.DENSE) {
      // every row and column has at least one pair: a host in the residual has something to do
      for (int i = 0; i < n; i++) {
        int j = rnd.nextInt(n);
        if (a[i * n + j] == 0) {
          a[i * n + j] = uniform(rnd);
        }
        int r = rnd.nextInt(n);
        if (a[r * n + i] == 0) {
          a[r * n + i] = uniform(rnd);
        }
      }
    }
    return TrafficMatrix.ofRowMajor(n, n, a);
  }

  /**
   * @param n hosts per cluster
   * @param k free flows (capped by n, as δ = 1 allows at most n flows at once)
   * @return the 1-port platform with {@code min(k, n)} flows and β = {@value #BETA} s
   */
  public static Platform platform(int n, int k) {
    return Platform.onePort(Math.min(k, n), BETA, n, n);
  }

  private static double uniform(SplittableRandom rnd) {
    return MIN_SECONDS + rnd.nextDouble() * (MAX_SECONDS - MIN_SECONDS);
  }

  private static int[] permutation(int n, SplittableRandom rnd) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
