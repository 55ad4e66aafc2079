package io.wanshuffle.scheduler.testing;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random KPBS instances for property tests, reproducible from a seed. The traffic graph follows the
 * protocol of the GGP/OGGP paper (sec. 8): a random number of edges chosen uniformly, then the
 * edges, then weights uniform in a range (small: 1..20, large: 1..100000, both integers; real:
 * uniform in (0, 10] with fractions). k is drawn in 1..min(rows, cols) + 1 (sometimes above the
 * node count), β in {0, 0.1, 1, 1, 5} · the weight scale of the range, δ = 1 for the 1-port model
 * or uniform in 1..3 per node for the δ-port model.
 */
public final class RandomInstances {
  /** Node counts per side. */
  public enum Size {
    /** 1..3 nodes per side: small enough for the exact solver (usually). */
    TINY(1, 3),
    /** 2..8 nodes per side. */
    SMALL(2, 8),
    /** 20 nodes per side, the papers' benchmark size. */
    LARGE(20, 20);

    final int min;
    final int max;

    Size(int min, int max) {
      this.min = min;
      this.max = max;
    }
  }

  /** Weight distributions. */
  public enum Weights {
    /** Integers 1..20 (the papers' small weights). */
    SMALL,
    /** Integers 1..100000 (the papers' large weights). */
    LARGE,
    /** Uniform in (0, 10], fractional. */
    REAL
  }

  /** Port models. */
  public enum Ports {
    /** δ = 1 everywhere (GGP/OGGP paper). */
    ONE_PORT,
    /** δ uniform in 1..3 per node (DGGP paper). */
    DELTA_PORT
  }

  private RandomInstances() {}

  /**
   * @param seed fixed seed
   * @param count number of instances
   * @param size node counts
   * @param weights weight range
   * @param ports port model
   * @return {@code count} instances, the same for the same arguments
   */
  public static List<Instance> sample(
      long seed, int count, Size size, Weights weights, Ports ports) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Instance> out = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      out.add(
          next(
              rnd,
              size,
              weights,
              ports,
              "seed=" + seed + " #" + n + " " + size + "/" + weights + "/" + ports));
    }
    return out;
  }

  /**
   * Every combination of weights and ports, {@code countEach} instances each.
   *
   * @param seed fixed seed
   * @param countEach instances per combination
   * @param size node counts
   * @return 6 · countEach instances
   */
  public static List<Instance> mixed(long seed, int countEach, Size size) {
    List<Instance> out = new ArrayList<>();
    long s = seed;
    for (Weights w : Weights.values()) {
      for (Ports p : Ports.values()) {
        out.addAll(sample(s++, countEach, size, w, p));
      }
    }
    return out;
  }

  private static Instance next(
      SplittableRandom rnd, Size size, Weights weights, Ports ports, String description) {
    int rows = rnd.nextInt(size.min, size.max + 1);
    int cols = rnd.nextInt(size.min, size.max + 1);
    int cells = rows * cols;
    int edges = rnd.nextInt(1, cells + 1);
    // Choose `edges` distinct cells (partial Fisher-Yates).
    int[] cell = new int[cells];
    for (int c = 0; c < cells; c++) {
      cell[c] = c;
    }
    double[] amounts = new double[cells];
    for (int e = 0; e < edges; e++) {
      int pick = rnd.nextInt(e, cells);
      int t = cell[e];
      cell[e] = cell[pick];
      cell[pick] = t;
      amounts[cell[e]] = weight(rnd, weights);
    }
    int k = rnd.nextInt(1, Math.min(rows, cols) + 2);
    double scale =
        switch (weights) {
          case SMALL, REAL -> 1.0;
          case LARGE -> 1000.0;
        };
    double[] betas = {0, 0.1, 1, 1, 5};
    double beta = betas[rnd.nextInt(betas.length)] * scale;
    int[] ds = new int[rows];
    int[] dr = new int[cols];
    for (int i = 0; i < rows; i++) {
      ds[i] = ports == Ports.ONE_PORT ? 1 : rnd.nextInt(1, 4);
    }
    for (int j = 0; j < cols; j++) {
      dr[j] = ports == Ports.ONE_PORT ? 1 : rnd.nextInt(1, 4);
    }
    return new Instance(
        TrafficMatrix.ofRowMajor(rows, cols, amounts), Platform.of(k, beta, ds, dr), description);
  }

  private static double weight(SplittableRandom rnd, Weights weights) {
    return switch (weights) {
      case SMALL -> rnd.nextInt(1, 21);
      case LARGE -> rnd.nextInt(1, 100_001);
      case REAL -> 10.0 - rnd.nextDouble(10.0); // (0, 10]
    };
  }
}
