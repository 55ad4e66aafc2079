package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The estimator on flows captured on the testbed (3 + 3 hosts, NICs 100 Mbit/s, backbone 200
 * Mbit/s, tbf-shaped; one application per fixture, its warm-up stage included): each link against
 * its shaped rate.
 */
class CapturedFlowsTest {
  private static final double BACKBONE = 25e6;
  private static final double NIC = 12.5e6;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "uniform-rtt0, 0.10",
    "zipf-rtt0, 0.10",
    "trace-rtt0, 0.10",
    "uniform-rtt40, 0.10",
    "zipf-rtt40, 0.15",
    "trace-rtt40, 0.10"
  })
  void theBackboneSidesAreMeasuredAtTheirShapedRate(String capture, double tolerance) {
    NetworkEstimate e =
        NetworkEstimator.estimate(CapturedFlows.fixture(capture + ".csv"), CapturedFlows.testbed());
    assertEquals(BACKBONE, e.rate("backbone.out[/A]"), BACKBONE * tolerance, e.describe());
    assertEquals(BACKBONE, e.rate("backbone.in[/B]"), BACKBONE * tolerance, e.describe());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "uniform-rtt0",
    "zipf-rtt0",
    "trace-rtt0",
    "uniform-rtt40",
    "zipf-rtt40",
    "trace-rtt40"
  })
  void theNicsAreMeasuredNearTheirShapedRateAndGiveTheTestbedsK(String capture) {
    NetworkEstimate e =
        NetworkEstimator.estimate(CapturedFlows.fixture(capture + ".csv"), CapturedFlows.testbed());
    double slowest = Double.POSITIVE_INFINITY;
    int nics = 0;
    for (LinkRate r : e.rates().values()) {
      if (r.link().startsWith("nic.")) {
        assertEquals(NIC, r.bytesPerSecond(), NIC * 0.20, r.link() + ": " + e.describe());
        slowest = Math.min(slowest, r.bytesPerSecond());
        nics++;
      }
    }
    assertEquals(6, nics);
    assertEquals(2, Math.round(e.rate("backbone.out[/A]") / slowest), e.describe());
  }

  @Test
  void atFortyMillisecondsTheLeadIsAFewRoundTripsAndGoesIntoBeta() {
    for (String c : List.of("uniform-rtt40", "trace-rtt40")) {
      NetworkEstimate e =
          NetworkEstimator.estimate(CapturedFlows.fixture(c + ".csv"), CapturedFlows.testbed());
      assertTrue(e.rampSeconds() > 0.08 && e.rampSeconds() < 0.25, c + ": " + e.describe());
      assertEquals(e.grantDelaySeconds() + e.rampSeconds(), e.betaSeconds(), 1e-9);
    }
  }
}
