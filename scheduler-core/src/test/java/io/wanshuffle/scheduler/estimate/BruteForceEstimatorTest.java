package io.wanshuffle.scheduler.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.testing.Instance;
import io.wanshuffle.scheduler.testing.RandomInstances;
import io.wanshuffle.scheduler.testing.RandomInstances.Size;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BruteForceEstimatorTest {
  /**
   * RR-5361 (Wagner, Jeannot), sec. 3.1, Fig. 3-5: three disjoint transfers 1 s, 1 s, 2 s, k = 2:
   * all three at 2/3 speed for 1.5 s, then the last 1 s alone.
   */
  @Test
  void workedExampleGivesTwoAndAHalfSeconds() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}});
    Platform p = Platform.onePort(2, 0.0, 3, 3);
    assertEquals(2.5, BruteForceEstimator.estimate(m, p), 1e-12);
    // The naive bound max(P/k, W) = 2 underestimates it.
    assertEquals(2.0, LowerBound.of(m, p).etaD(), 1e-12);
  }

  /** One sender, 1-port, transfers of 1 s and 3 s: half speed each for 2 s, then 2 s alone. */
  @Test
  void nodeSharingByHand() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 3}});
    assertEquals(4.0, BruteForceEstimator.estimate(m, Platform.onePort(2, 1, 1, 2)), 1e-12);
  }

  /**
   * δ-port: a sender with δ = 2 and two 2 s transfers runs both at full speed (2 s) when k = 2;
   * with k = 1 the backbone halves both (4 s). A single flow never exceeds the base speed: δ = 2 on
   * both ends of one 2 s transfer still takes 2 s.
   */
  @Test
  void deltaPortSharingByHand() {
    TrafficMatrix two = TrafficMatrix.of(new double[][] {{2, 2}});
    int[] ds = {2};
    int[] dr = {1, 1};
    assertEquals(2.0, BruteForceEstimator.estimate(two, Platform.of(2, 0, ds, dr)), 1e-12);
    assertEquals(4.0, BruteForceEstimator.estimate(two, Platform.of(1, 0, ds, dr)), 1e-12);
    TrafficMatrix one = TrafficMatrix.of(new double[][] {{2}});
    assertEquals(
        2.0,
        BruteForceEstimator.estimate(one, Platform.of(4, 0, new int[] {2}, new int[] {2})),
        1e-12);
  }

  /**
   * Fair sharing is perfect on a complete bipartite graph with equal amounts (every node shares
   * equally, everything ends together) and on a perfect matching with equal amounts: η_o equals
   * max(P/k, W) there, for every k.
   */
  @Test
  void equalsTheBoundWhenFairSharingIsPerfect() {
    for (int n = 1; n <= 6; n++) {
      double[][] full = new double[n][n];
      double[][] diagonal = new double[n][n];
      for (int i = 0; i < n; i++) {
        Arrays.fill(full[i], 3.0);
        diagonal[i][i] = 3.0;
      }
      for (int k = 1; k <= n + 1; k++) {
        for (double[][] a : new double[][][] {full, diagonal}) {
          TrafficMatrix m = TrafficMatrix.of(a);
          Platform p = Platform.onePort(k, 0, n, n);
          double bound = Math.max(m.total() / k, maxNodeWeight(m));
          assertEquals(
              bound, BruteForceEstimator.estimate(m, p), 1e-9 * bound, "n=" + n + " k=" + k);
        }
      }
    }
  }

  /**
   * η_o ≥ max(P/k, w(v)/δ(v), largest amount) on 3000 random instances (1-port and δ-port): no
   * node, flow or backbone is ever over its capacity in the simulation. In the 1-port model this is
   * the paper's max(P/k, W) (sec. 3.1).
   */
  @Test
  void neverBelowTheTransmissionBound() {
    for (Size size : new Size[] {Size.TINY, Size.SMALL}) {
      for (Instance in : RandomInstances.mixed(40 + size.ordinal(), 250, size)) {
        double etaO = BruteForceEstimator.estimate(in.matrix(), in.platform());
        double etaD = LowerBound.of(in.matrix(), in.platform()).etaD();
        assertTrue(etaO >= etaD * (1 - 1e-9), "η_o = " + etaO + " < " + etaD + " on " + in);
        if (in.platform().isOnePort()) {
          double naive =
              Math.max(in.matrix().total() / in.platform().k(), maxNodeWeight(in.matrix()));
          assertTrue(etaO >= naive * (1 - 1e-9), in.toString());
        }
        // Sanity upper bound: sending everything one transfer at a time takes P seconds.
        assertTrue(etaO <= in.matrix().total() * (1 + 1e-9), in.toString());
      }
    }
  }

  /**
   * Where Fig. 5's rule over-commits a node: receivers R1, R2 have degree 5 and share 1/5 each;
   * senders u1, u2 (degree 3) then give their third transfer, to receiver y, 3/5 each, so y would
   * receive at 6/5 of its NIC. The repair caps y's transfers at 1/2 each; y's 2 s of data then take
   * at least 2 s.
   */
  @Test
  void overCommittedNodeStillRespectsItsCapacity() {
    // Senders: u1, u2, then three more for R1 and three more for R2. Receivers: R1, R2, y.
    double[][] a = new double[8][3];
    a[0] = new double[] {0.1, 0.1, 1};
    a[1] = new double[] {0.1, 0.1, 1};
    for (int i = 2; i < 5; i++) {
      a[i][0] = 0.1;
    }
    for (int i = 5; i < 8; i++) {
      a[i][1] = 0.1;
    }
    TrafficMatrix m = TrafficMatrix.of(a);
    double etaO = BruteForceEstimator.estimate(m, Platform.onePort(8, 0, 8, 3));
    assertTrue(etaO >= 2.0 - 1e-12, "η_o = " + etaO);
    assertTrue(etaO <= 2.5, "η_o = " + etaO);
  }

  @Test
  void zeroMatrixAndShapeMismatch() {
    TrafficMatrix zero = TrafficMatrix.of(new double[][] {{0, 0}});
    assertEquals(0.0, BruteForceEstimator.estimate(zero, Platform.onePort(1, 0, 1, 2)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BruteForceEstimator.estimate(zero, Platform.onePort(1, 0, 2, 2)));
    assertTrue(e.getMessage().contains("1 x 2"), e.getMessage());
  }

  private static double maxNodeWeight(TrafficMatrix m) {
    double w = 0;
    for (int i = 0; i < m.rows(); i++) {
      w = Math.max(w, m.rowSum(i));
    }
    for (int j = 0; j < m.cols(); j++) {
      w = Math.max(w, m.colSum(j));
    }
    return w;
  }
}
