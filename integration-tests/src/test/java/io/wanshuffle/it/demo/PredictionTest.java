package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedSpec;
import org.junit.jupiter.api.Test;

class PredictionTest {
  static final TestbedSpec SPEC = TestbedSpec.defaults();

  @Test
  void physicalLimitIsBackboneBoundForUniformTraffic() {
    long[][] m = {
      {25_000_000, 25_000_000, 25_000_000},
      {25_000_000, 25_000_000, 25_000_000},
      {25_000_000, 25_000_000, 25_000_000}
    };
    // 225 MB over 25 MB/s = 9 s; each host 75 MB over 12.5 MB/s = 6 s
    assertEquals(9.0, Comparison.physicalLimitSeconds(m, SPEC), 1e-9);
  }

  @Test
  void physicalLimitIsNicBoundForOneHotReceiver() {
    long[][] m = {{50_000_000, 0, 0}, {50_000_000, 0, 0}, {50_000_000, 0, 0}};
    assertEquals(12.0, Comparison.physicalLimitSeconds(m, SPEC), 1e-9);
  }

  @Test
  void scheduleCostIsAtLeastTheLowerBoundAndUsesKFromTheRates() {
    long[][] m = {
      {40_000_000, 5_000_000, 1_000_000}, {2_000_000, 30_000_000, 0}, {7_000_000, 0, 20_000_000}
    };
    Prediction p = Prediction.of(m, SPEC, "oggp", 0.05);
    assertEquals(2, p.k(), "base speed gcd(200, 100) Mbit/s = 100 Mbit/s: k = 2");
    assertTrue(p.scheduleSeconds() >= p.etaSeconds() - 1e-9, p.toString());
    assertTrue(p.etaOSeconds() >= Comparison.physicalLimitSeconds(m, SPEC) - 1e-9, p.toString());
    assertEquals("oggp", Prediction.of(m, SPEC, "auto-not-registered", 0.05).algorithm());
  }
}
