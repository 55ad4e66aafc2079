package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.demo.Prediction;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The fair-sharing-poor patterns are what their names claim, on the testbed's rates: scheduled in
 * steps they reach the η lower bound (the physical limit), while the brute force (all transfers at
 * once, fair sharing, RR-5361 Fig. 5 estimate) takes longer by the amount worked out by hand.
 */
class PatternsTest {
  private static final double TOTAL = 120e6;

  private static long[][] bytes(double[][] m) {
    return Arrays.stream(m)
        .map(r -> Arrays.stream(r).mapToLong(Math::round).toArray())
        .toArray(long[][]::new);
  }

  private static double sum(double[][] m) {
    return Arrays.stream(m).flatMapToDouble(Arrays::stream).sum();
  }

  private static TestbedSpec spec(int n, long backbone) {
    return new TestbedSpec(n, n, TestbedSpec.DEFAULT_NIC, backbone, 0);
  }

  /**
   * both-ways: half the bytes A to B (uniform), half B to A (Zipf), none within a cluster; its
   * physical limit is the busier direction of the backbone or the busiest NIC (sending or
   * receiving), and its setup time the larger direction's (they are scheduled apart, each with its
   * own k, and run at once).
   */
  @Test
  void bothWaysSendsHalfEachWayAndItsLimitIsTheBusierDirection() {
    int n = 3;
    double[][] m = Patterns.bothWays(n, n, TOTAL);
    assertEquals(2 * n, m.length);
    long[][] b = bytes(m);
    long[][] ab = io.wanshuffle.it.demo.Comparison.directions(b, n).get(0);
    long[][] ba = io.wanshuffle.it.demo.Comparison.directions(b, n).get(1);
    assertEquals(TOTAL / 2, Arrays.stream(ab).flatMapToLong(Arrays::stream).sum(), n * n);
    assertEquals(TOTAL / 2, Arrays.stream(ba).flatMapToLong(Arrays::stream).sum(), n * n);
    assertEquals(TOTAL, sum(m), 1, "nothing within a cluster");
    assertEquals(TOTAL / 2 / (n * n), m[0][n], 1, "A to B uniform");
    double largest = Arrays.stream(ba).flatMapToLong(Arrays::stream).max().orElseThrow();
    assertEquals(
        TOTAL
            / 2
            / (1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0 + 1 / 5.0 + 1 / 6.0 + 1 / 7.0 + 1 / 8.0 + 1 / 9.0),
        largest,
        1,
        "B to A Zipf, s = 1");
    TestbedSpec spec = spec(n, TestbedSpec.DEFAULT_BACKBONE);
    double limit = io.wanshuffle.it.demo.Comparison.physicalLimitBothWaysSeconds(b, spec);
    double each = TOTAL / 2 / spec.backboneBytesPerSecond();
    double busiestNic = 0;
    for (int h = 0; h < 2 * n; h++) {
      double sent = Arrays.stream(b[h]).sum();
      final int c = h;
      double received = Arrays.stream(b).mapToLong(r -> r[c]).sum();
      busiestNic = Math.max(busiestNic, Math.max(sent, received));
    }
    assertEquals(Math.max(each, busiestNic / spec.nicBytesPerSecond()), limit, 1e-9);
    assertTrue(limit < 2 * each, "both directions at once, not one after the other");
    double setup = E2eReport.setupSeconds(b, spec, 0.05);
    double abSetup = Prediction.of(ab, spec, "oggp", 0.05).steps() * 0.05;
    double baSetup = Prediction.of(ba, spec, "oggp", 0.05).steps() * 0.05;
    assertEquals(Math.max(abSetup, baSetup), setup, 1e-12);
  }

  @Test
  void figure3ScheduledReachesTheBoundAndBruteForceTakesAQuarterMore() {
    TestbedSpec spec = spec(3, TestbedSpec.DEFAULT_BACKBONE);
    double[][] m = Patterns.fairSharingPoor(3, 3, TOTAL);
    assertEquals(TOTAL, sum(m), 1);
    Prediction p = Prediction.of(bytes(m), spec, "oggp", 0);
    assertEquals(2, p.k());
    assertEquals(p.etaSeconds(), p.scheduleSeconds(), 1e-6 * p.etaSeconds());
    assertEquals(1.25, p.etaOSeconds() / p.etaSeconds(), 1e-3);
  }

  @Test
  void gridHasOneLongTransferAtTheNicBoundAndShortOnesFillingTheRestOfTheBackbone() {
    double[][] m = Patterns.fairSharingPoorGrid(3, 3, TOTAL, 2);
    assertEquals(TOTAL, sum(m), 1);
    double l = m[2][2];
    assertEquals(TOTAL / 2, l, 1);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        assertEquals(l / 4, m[i][j], 1, "short transfer " + i + "," + j);
      }
      assertEquals(0, m[i][2]);
      assertEquals(0, m[2][i]);
    }
    Prediction p = Prediction.of(bytes(m), spec(3, TestbedSpec.DEFAULT_BACKBONE), "oggp", 0);
    assertEquals(
        l * 8 / TestbedSpec.DEFAULT_NIC,
        p.etaSeconds(),
        1e-3,
        "η = the long transfer at its NIC rate");
    assertEquals(
        p.etaSeconds(), p.scheduleSeconds(), 1e-6 * p.etaSeconds(), "scheduled: at the bound");
    assertEquals(paperEstimate(2, 2), p.etaOSeconds() / p.etaSeconds(), 1e-3, "brute force vs η");
    assertEquals(1.25, paperEstimate(2, 2), 1e-9);
  }

  @Test
  void gridScalesWithKAndHosts() {
    // 4 + 4 hosts, backbone of 3 NICs: 9 short transfers fill 2 channels next to the long one
    TestbedSpec spec = spec(4, 3 * TestbedSpec.DEFAULT_NIC);
    double[][] m = Patterns.fairSharingPoorGrid(4, 4, TOTAL, 3);
    assertEquals(TOTAL, sum(m), 1);
    assertEquals(m[3][3] * 2 / 9, m[0][0], 1);
    Prediction p = Prediction.of(bytes(m), spec, "auto", 0);
    assertEquals("auto", p.algorithm());
    assertEquals(3, p.k());
    assertEquals(m[3][3] * 8 / TestbedSpec.DEFAULT_NIC, p.etaSeconds(), 1e-3);
    assertEquals(
        p.etaSeconds(), p.scheduleSeconds(), 1e-6 * p.etaSeconds(), "scheduled: at the bound");
    assertEquals(paperEstimate(3, 3), p.etaOSeconds() / p.etaSeconds(), 1e-3, "brute force vs η");
  }

  /**
   * RR-5361's brute-force estimate (Fig. 5) of the grid pattern over its limit, worked out by hand:
   * each short transfer's sender splits its NIC among its g flows, the g + 1 host-level shares are
   * slowed down by (g + 1) / k until the short transfers end, then the long one runs alone: {@code
   * 1 + (k - 1)(g + 1 - k) / (g k)}.
   *
   * @param g short transfers per sender (the grid is g x g)
   * @param k backbone flows
   */
  private static double paperEstimate(int g, int k) {
    return 1 + (k - 1.0) * (g + 1 - k) / (g * (double) k);
  }

  @Test
  void gridRefusesPlatformsItCannotFill() {
    assertThrows(
        IllegalArgumentException.class, () -> Patterns.fairSharingPoorGrid(3, 3, TOTAL, 1));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Patterns.fairSharingPoorGrid(2, 4, TOTAL, 3));
    assertTrue(e.getMessage().contains("2 + 4"), e.getMessage());
  }
}
