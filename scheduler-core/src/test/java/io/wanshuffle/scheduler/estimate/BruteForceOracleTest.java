package io.wanshuffle.scheduler.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.testing.Instance;
import io.wanshuffle.scheduler.testing.RandomInstances;
import io.wanshuffle.scheduler.testing.RandomInstances.Size;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast η_o simulation against {@link Fig5Reference}, the from-scratch transcription of the
 * paper's rounds: the same value to the last bit on random instances, 1-port and δ-port, with ties
 * (equal amounts, equal degrees) and without.
 */
class BruteForceOracleTest {
  @Test
  void sameAsTheFromScratchSimulationOnRandomInstances() {
    for (Size size : new Size[] {Size.TINY, Size.SMALL, Size.LARGE}) {
      for (Instance in :
          RandomInstances.mixed(70 + size.ordinal(), size == Size.LARGE ? 8 : 80, size)) {
        assertEquals(
            Fig5Reference.estimate(in.matrix(), in.platform()),
            BruteForceEstimator.estimate(in.matrix(), in.platform()),
            0.0,
            in.toString());
      }
    }
  }

  /**
   * Equal amounts on sparse random graphs: many transfers end in the same round and many nodes tie
   * on deg/δ, which exercises the batch removal and the tie order.
   */
  @Test
  void sameAsTheFromScratchSimulationWithTies() {
    Random random = new Random(5);
    for (int it = 0; it < 300; it++) {
      int rows = 1 + random.nextInt(12);
      int cols = 1 + random.nextInt(12);
      double[][] a = new double[rows][cols];
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (random.nextInt(3) == 0) {
            a[i][j] = 1 + random.nextInt(3);
          }
        }
      }
      int[] ds = new int[rows];
      int[] dr = new int[cols];
      for (int i = 0; i < rows; i++) {
        ds[i] = 1 + random.nextInt(3);
      }
      for (int j = 0; j < cols; j++) {
        dr[j] = 1 + random.nextInt(3);
      }
      int k = 1 + random.nextInt(Math.min(rows, cols) + 2);
      TrafficMatrix m = TrafficMatrix.of(a);
      Platform p = Platform.of(k, 0, ds, dr);
      assertEquals(
          Fig5Reference.estimate(m, p), BruteForceEstimator.estimate(m, p), 0.0, "instance " + it);
    }
  }
}
