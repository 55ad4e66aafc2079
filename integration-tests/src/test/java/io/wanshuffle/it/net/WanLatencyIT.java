package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The testbed's WAN latency ({@code --rtt}, the user-space delay line on the backbone), measured
 * from outside: a TCP handshake across the backbone takes the configured round trip and one within
 * a cluster does not, and the backbone still carries its rate (and no more) with the delay line in
 * the path.
 *
 * <p>Needs root, iproute2 and python3 (the delay line); without them every test fails with the
 * reason ({@code .ci/run} installs them). Not run on the loopback variant, which has no backbone to
 * delay: there it fails saying so rather than passing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WanLatencyIT {
  static final int RTT_MS = 40;

  /**
   * Allowed excess of the measured 1 s peak over the backbone rate (tbf burst + sampling jitter).
   */
  static final double MARGIN = 0.06;

  final TestbedSpec spec =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, RTT_MS);
  final String cp = System.getProperty("java.class.path");
  Testbed testbed;

  @BeforeAll
  void start() {
    if (Testbed.loopbackRequested()) {
      throw new IllegalStateException(
          "the WAN delay line needs the network-namespace testbed; "
              + "-Dwanshuffle.testbed=loopback has no backbone to delay");
    }
    testbed = Testbed.open(spec);
  }

  @AfterAll
  void stop() {
    if (testbed != null) {
      testbed.close();
    }
  }

  @Test
  void aHandshakeAcrossTheBackboneTakesTheConfiguredRoundTripAndOneWithinAClusterDoesNot() {
    Node a1 = testbed.clusterA().get(0);
    Node a2 = testbed.clusterA().get(1);
    Node b1 = testbed.clusterB().get(0);
    double[] wan = HandshakeProbe.millis(a1, b1, 7, cp);
    double fastest = Arrays.stream(wan).min().orElseThrow();
    assertTrue(
        fastest >= RTT_MS - 0.5,
        "a1 -> b1 handshakes "
            + Arrays.toString(wan)
            + " ms: shorter than the "
            + RTT_MS
            + " ms the delay line adds");
    assertTrue(
        HandshakeProbe.median(wan) <= RTT_MS + 10,
        "a1 -> b1 handshakes "
            + Arrays.toString(wan)
            + " ms: median far above the configured "
            + RTT_MS
            + " ms");
    double[] lan = HandshakeProbe.millis(a1, a2, 7, cp);
    assertTrue(
        HandshakeProbe.median(lan) < 5,
        "a1 -> a2 (same cluster) handshakes "
            + Arrays.toString(lan)
            + " ms: the WAN delay leaked into the cluster");
  }

  @Test
  void theBackboneStillCarriesItsRateAndNoMoreBehindTheDelayLine() {
    BackboneTrace t = FlowProbe.run(testbed, 5, cp);
    double rate = spec.backboneBitsPerSecond();
    assertTrue(
        t.peakBitsPerSecond(1000) <= rate * (1 + MARGIN),
        "peak "
            + t.peakBitsPerSecond(1000) / 1e6
            + " Mbit/s over the "
            + rate / 1e6
            + " Mbit/s backbone");
    double secs = (t.end().epochMillis() - t.start().epochMillis()) / 1000.0;
    assertTrue(
        t.aToBBytes() * 8 / secs > 0.5 * rate,
        "4 flows from 2 hosts at 100 Mbit/s over a "
            + RTT_MS
            + " ms WAN should fill most of the backbone: "
            + t.aToBBytes() * 8 / secs / 1e6
            + " Mbit/s");
  }
}
