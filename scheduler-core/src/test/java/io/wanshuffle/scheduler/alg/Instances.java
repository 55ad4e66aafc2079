package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Random;

/** Random instances for property tests (fixed seeds by the callers). */
final class Instances {
  private Instances() {}

  /** A random rows x cols matrix with a random density and amounts uniform in (0, maxAmount]. */
  static TrafficMatrix matrix(Random rnd, int rows, int cols, double maxAmount, boolean integers) {
    double density = 0.1 + 0.9 * rnd.nextDouble();
    double[][] a = new double[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        if (rnd.nextDouble() < density) {
          a[i][j] =
              integers ? 1 + rnd.nextInt((int) maxAmount) : maxAmount * (1 - rnd.nextDouble());
        }
      }
    }
    return TrafficMatrix.of(a);
  }

  /** A δ-port platform with δ uniform in 1..maxDelta per node. */
  static Platform deltaPort(Random rnd, int k, double beta, int rows, int cols, int maxDelta) {
    int[] s = new int[rows];
    int[] r = new int[cols];
    for (int i = 0; i < rows; i++) {
      s[i] = 1 + rnd.nextInt(maxDelta);
    }
    for (int j = 0; j < cols; j++) {
      r[j] = 1 + rnd.nextInt(maxDelta);
    }
    return Platform.of(k, beta, s, r);
  }

  /**
   * The GGP/OGGP paper's η (sec. 5, Proposition 1) in seconds for a 1-port platform, with the
   * integer rounding of its normalised form: β·(max(W/β, ⌈P/(k·β)⌉) + max(Δ, ⌈m/k⌉)). Theorem 3
   * bounds GGP's (and OGGP's) cost by twice this value when the quantum is β.
   */
  static double paperEta(TrafficMatrix m, Platform p) {
    double beta = p.beta();
    int k = Math.min(p.k(), Math.min(m.rows(), m.cols()));
    double w = 0;
    long delta = 0;
    for (int i = 0; i < m.rows(); i++) {
      w = Math.max(w, m.rowSum(i));
      delta = Math.max(delta, m.rowDegree(i));
    }
    for (int j = 0; j < m.cols(); j++) {
      w = Math.max(w, m.colSum(j));
      delta = Math.max(delta, m.colDegree(j));
    }
    double etaD = Math.max(w / beta, Math.ceil(m.total() / (k * beta) - 1e-9));
    long etaS = Math.max(delta, (m.nonZeroCount() + p.k() - 1) / p.k());
    return beta * (etaD + etaS);
  }
}
