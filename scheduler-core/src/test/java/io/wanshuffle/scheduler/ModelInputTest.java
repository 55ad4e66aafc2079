package io.wanshuffle.scheduler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ModelInputTest {
  @Test
  void matrixRejectsBadInputNamingTheEntry() {
    assertThrows(IllegalArgumentException.class, () -> TrafficMatrix.of(new double[0][]));
    IllegalArgumentException ragged =
        assertThrows(
            IllegalArgumentException.class, () -> TrafficMatrix.of(new double[][] {{1, 2}, {3}}));
    assertTrue(ragged.getMessage().contains("row 1"), ragged.getMessage());
    IllegalArgumentException neg =
        assertThrows(
            IllegalArgumentException.class, () -> TrafficMatrix.of(new double[][] {{1, -2}}));
    assertTrue(neg.getMessage().contains("(0, 1)"), neg.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> TrafficMatrix.of(new double[][] {{Double.NaN}}));
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.of(new double[][] {{Double.POSITIVE_INFINITY}}));
    // finite cells whose total is not: every cost would be infinite
    IllegalArgumentException total =
        assertThrows(
            IllegalArgumentException.class,
            () -> TrafficMatrix.of(new double[][] {{1e308, 1e308}}));
    assertTrue(total.getMessage().contains("total overflows"), total.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.of(new double[][] {{1e300, 1}}).inSecondsAt(1e-10));
  }

  @Test
  void aNegativeZeroBetaIsZero() {
    assertEquals("0.0", String.valueOf(Platform.onePort(1, -0.0, 1, 1).beta()));
  }

  @Test
  void bytesBecomeSecondsByExactDivision() {
    TrafficMatrix s = TrafficMatrix.of(new double[][] {{35_000_000, 0}}).inSecondsAt(12_500_000);
    assertEquals(2.8, s.amount(0, 0), 0.0, "35 MB at 12.5 MB/s");
    assertEquals(0, s.amount(0, 1), 0.0);
    IllegalArgumentException tiny =
        assertThrows(
            IllegalArgumentException.class,
            () -> TrafficMatrix.of(new double[][] {{0, 1e-300}}).inSecondsAt(1e300));
    assertTrue(tiny.getMessage().contains("(0, 1)"), tiny.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> TrafficMatrix.of(new double[][] {{1}}).inSecondsAt(0));
  }

  @Test
  void ratesWithoutASizeableCommonDivisorAreRefused() {
    BaseSpeed b =
        BaseSpeed.of(250_000_000, new long[] {125_000_000, 250_000_000}, new long[] {125_000_000});
    assertEquals(125_000_000, b.bytesPerSecond());
    assertEquals(2, b.k());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BaseSpeed.of(250_000_000, new long[] {125_000_001}, new long[] {125_000_000}));
    assertTrue(
        e.getMessage().contains("base speed 1 B/s") && e.getMessage().contains("round the rates"),
        e.getMessage());
  }

  @Test
  void matrixAggregates() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{7, 3}, {0, 1}});
    assertEquals(11, m.total(), 0);
    assertEquals(10, m.rowSum(0), 0);
    assertEquals(4, m.colSum(1), 0);
    assertEquals(3, m.nonZeroCount());
    assertEquals(2, m.colDegree(1));
    assertEquals(1, m.rowDegree(1));
    assertEquals(7, m.maxAmount(), 0);
    assertEquals(0.7, m.inSecondsAt(10).amount(0, 0), 1e-12);
  }

  @Test
  void platformRejectsBadParameters() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Platform.onePort(0, 1, 2, 2))
            .getMessage()
            .contains("k must be at least 1"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Platform.onePort(2, -1, 2, 2))
            .getMessage()
            .contains("beta"));
    assertThrows(IllegalArgumentException.class, () -> Platform.onePort(2, Double.NaN, 2, 2));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Platform.of(2, 1, new int[] {1, 0}, new int[] {1}))
            .getMessage()
            .contains("delta[1]"));
    Platform p = Platform.onePort(2, 1, 2, 3);
    assertThrows(
        IllegalArgumentException.class,
        () -> p.requireShape(TrafficMatrix.of(new double[][] {{1, 1}, {1, 1}})));
  }

  @Test
  void lowerBoundOfDggpExampleIsNine() {
    // DGGP paper's running example, sec. 2.3-2.5: eta_d = max(5.5, 7, 7) = 7, eta_s = 2
    LowerBound b =
        LowerBound.of(
            TrafficMatrix.of(new double[][] {{7, 3}, {0, 1}}),
            Platform.of(2, 1.0, new int[] {3, 2}, new int[] {1, 3}));
    assertEquals(7.0, b.etaD(), 1e-12);
    assertEquals(2, b.etaS());
    assertEquals(9.0, b.eta(), 1e-12);
  }

  @Test
  void lowerBoundOnePortUsesDegreeAndKTerms() {
    // GGP/OGGP paper Prop. 1 with 1-port: W = 5, P/k = 11/2, Delta = 2, m/k = ceil(4/2) = 2
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{2, 3}, {4, 2}});
    LowerBound b = LowerBound.of(m, Platform.onePort(2, 1.0, 2, 2));
    assertEquals(6.0, b.etaD(), 1e-12); // w(row 1) = 6
    assertEquals(2, b.etaS());
    LowerBound k1 = LowerBound.of(m, Platform.onePort(1, 2.0, 2, 2));
    assertEquals(11.0, k1.etaD(), 1e-12);
    assertEquals(4, k1.etaS());
    assertEquals(19.0, k1.eta(), 1e-12);
  }

  @Test
  void baseSpeedFollowsTheDggpExample() {
    long mbit = 125_000L; // bytes/s
    BaseSpeed b =
        BaseSpeed.of(
            200 * mbit, new long[] {300 * mbit, 200 * mbit}, new long[] {100 * mbit, 300 * mbit});
    assertEquals(100 * mbit, b.bytesPerSecond());
    assertEquals(2, b.k());
    assertArrayEquals(new int[] {2, 2}, b.senderDelta());
    assertArrayEquals(new int[] {1, 2}, b.receiverDelta());
    // 700 Mbit at 100 Mbit/s = 7 s
    TrafficMatrix sec = b.toSeconds(TrafficMatrix.of(new double[][] {{700 * mbit, 0}, {0, 0}}));
    assertEquals(7.0, sec.amount(0, 0), 1e-12);
    assertThrows(
        IllegalArgumentException.class, () -> BaseSpeed.of(0, new long[] {1}, new long[] {1}));
    assertThrows(
        IllegalArgumentException.class, () -> BaseSpeed.of(1, new long[] {-1}, new long[] {1}));
  }

  @Test
  void aTopologysBaseSpeedIsTheGcdOfItsLinkRatesAndALinkCarriesRateOverItFlows() {
    long mbit = 125_000L; // bytes/s
    // NICs of 100 and 300 Mbit/s, a rack uplink of 250, a backbone side of 1 Gbit/s: b = 50 Mbit/s
    assertEquals(50 * mbit, BaseSpeed.ofRates(100 * mbit, 300 * mbit, 250 * mbit, 1000 * mbit));
    assertEquals(7, BaseSpeed.ofRates(7));
    assertEquals(5, BaseSpeed.flows(250 * mbit, 50 * mbit));
    assertEquals(1, BaseSpeed.flows(10, 50), "a link slower than the base speed carries one flow");
    assertEquals(BaseSpeed.MAX_FLOWS, BaseSpeed.flows(Long.MAX_VALUE, 1));
    assertThrows(IllegalArgumentException.class, () -> BaseSpeed.ofRates());
    assertThrows(IllegalArgumentException.class, () -> BaseSpeed.ofRates(100, 0));
    assertThrows(IllegalArgumentException.class, () -> BaseSpeed.flows(100, 0));
    // the KPBS rule and the link rule agree on the same rates
    assertEquals(
        BaseSpeed.of(200 * mbit, new long[] {300 * mbit}, new long[] {100 * mbit}).bytesPerSecond(),
        BaseSpeed.ofRates(200 * mbit, 300 * mbit, 100 * mbit));
  }
}
