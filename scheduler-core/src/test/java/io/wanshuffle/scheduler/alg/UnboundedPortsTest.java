package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Platforms whose k and δ are far above what the matrix can use (an unlimited NIC gives k = δ =
 * {@link Integer#MAX_VALUE}; rates with a tiny common divisor give millions): every algorithm plans
 * them in memory and time of the matrix, not of δ (no node is copied δ times).
 */
class UnboundedPortsTest {
  private static final TrafficMatrix M =
      TrafficMatrix.of(new double[][] {{1000, 0, 300}, {0, 2000, 10}, {500, 500, 0}});

  private static Platform ports(int k, int delta) {
    int[] d = new int[3];
    Arrays.fill(d, delta);
    return Platform.of(k, 0.5, d, d);
  }

  @Test
  void everyAlgorithmPlansHugeKAndDeltaWithinTwiceTheBound() {
    Platform huge = ports(Integer.MAX_VALUE, Integer.MAX_VALUE);
    for (String name : Algorithms.names()) {
      Schedule s = Algorithms.byName(name).schedule(M, huge);
      s.validate(M, huge);
      assertTrue(s.cost(0.5) <= 2 * LowerBound.of(M, huge).eta() + 1e-9, name);
    }
  }

  @Test
  void dggpWithDeltaInTheHundredMillionsOnTwoTransfers() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1000, 0}, {0, 2000}});
    Platform p = Platform.of(100_000_000, 0, new int[] {100_000_000, 1}, new int[] {1, 1});
    Schedule s = new Dggp().schedule(m, p);
    s.validate(m, p);
    assertEquals(2000, s.cost(0), 1e-9);
  }
}
