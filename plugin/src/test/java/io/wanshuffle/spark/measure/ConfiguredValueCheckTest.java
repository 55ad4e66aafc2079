package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ConfiguredValueCheckTest {
  private static NetworkEstimate est(double beta, int flows, Map<String, Double> rates) {
    Map<String, LinkRate> r = new TreeMap<>();
    rates.forEach((k, v) -> r.put(k, new LinkRate(k, v, flows, true)));
    return new NetworkEstimate(beta, 0, beta, r, flows);
  }

  @Test
  void aValueMoreThanAQuarterOffIsReportedOncePerKey() {
    // k = 2 flows of 1 MB/s: NICs of 1 MB/s, backbone sides of 2 MB/s
    LinkModel m = LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 1_000_000);
    m.route("a0", "b0");
    m.route("a1", "b1");
    ConfiguredValueCheck c =
        new ConfiguredValueCheck(m, 0.05, "beta", "nic.rate", "backbone.rate", null);
    List<ConfiguredValueCheck.Contradiction> first =
        c.check(
            est(
                0.12,
                40,
                Map.of(
                    "nic.up[a0]", 1.2e6, // 20 % off: fine
                    "nic.up[a1]", 0.5e6,
                    "backbone.out[/a]", 1.9e6)));
    assertEquals(2, first.size(), first.toString());
    assertEquals("beta", first.get(0).key());
    assertEquals(
        "wan-shuffle: beta = 0.050 s is contradicted by measurement: beta measured 0.120 s (more"
            + " than 25 % apart)",
        first.get(0).message());
    assertEquals("nic.rate", first.get(1).key());
    assertEquals("nic.up[a1]", first.get(1).subject());
    assertEquals(1_000_000, first.get(1).configured(), 0);
    // once per key
    assertTrue(c.check(est(0.2, 40, Map.of("nic.up[a0]", 0.1e6))).isEmpty());
    assertEquals(
        "backbone.rate", c.check(est(0.2, 40, Map.of("backbone.in[/b]", 1e6))).get(0).key());
  }

  @Test
  void linksMeasuredOverFewFlowsAreNotCompared() {
    LinkModel m = LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 1_000_000);
    m.route("a0", "b0");
    ConfiguredValueCheck c = new ConfiguredValueCheck(m, 0.05, "beta", "nic", "bb", "topo");
    assertTrue(c.check(est(0.05, 5, Map.of("nic.up[a0]", 0.1e6))).isEmpty());
    assertEquals("topo", c.check(est(0.05, 40, Map.of("nic.up[a0]", 0.1e6))).get(0).key());
  }
}
