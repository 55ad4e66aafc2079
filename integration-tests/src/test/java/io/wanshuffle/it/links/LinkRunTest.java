package io.wanshuffle.it.links;

import static io.wanshuffle.it.links.LinksFixture.A1;
import static io.wanshuffle.it.links.LinksFixture.A2;
import static io.wanshuffle.it.links.LinksFixture.B1;
import static io.wanshuffle.it.links.LinksFixture.B2;
import static io.wanshuffle.it.links.LinksFixture.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.it.net.LinkTrace;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkRunTest {
  @TempDir Path dir;

  /**
   * a1 sends 25 MB to b1 and a2 10 MB to b2 (one host per rack): a1's NIC, rack uplink, b1's rack
   * downlink and NIC each carry 25 MB at 12.5 MB/s = 2 s, the limit; the backbone's 35 MB at 25
   * MB/s is 1.4 s, below 90 % of it.
   */
  @Test
  void theBottlenecksAreTheLinksWithinTenPercentOfTheLimit() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    long[][] bytes = {{25_000_000, 0}, {0, 10_000_000}};
    Map<String, LinkTrace.Series> s =
        Map.of(
            "rack.uplink[/A/rack0]",
            new LinkTrace.Series(
                "rack.uplink[/A/rack0]",
                100_000_000,
                new long[] {0, 1_000, 2_000, 3_000},
                new long[] {0, 12_500_000, 18_750_000, 18_750_000},
                7));
    LinkRun r =
        LinkRun.of(
            m,
            bytes,
            List.of(A1, A2),
            List.of(B1, B2),
            List.of(flow(A1, B1, 0, 2_000), flow(A2, B2, 0, 1_000)),
            new LinkTrace(s),
            0,
            2_000);
    assertEquals(2.0, r.limit().seconds(), 1e-9);
    assertEquals(
        List.of(
            "nic.up[" + A1 + "]",
            "rack.uplink[/A/rack0]",
            "rack.downlink[/B/rack0]",
            "nic.down[" + B1 + "]"),
        r.bottlenecks(),
        "equally loaded: in the model's order");
    assertEquals(0.75, r.utilisation("rack.uplink[/A/rack0]"), 1e-9);
    assertNull(r.utilisation("backbone.out[/A]"), "not measured");
    assertEquals(
        "nic.up[127.0.1.11], rack.uplink[/A/rack0] 75%, rack.downlink[/B/rack0], nic.down[127.0.2.11]",
        r.bottleneckUtilisation());
    assertEquals(7L, r.drops());
    assertEquals("1 / 1 nic.up[127.0.1.11]", r.mostFlows());
    assertEquals(1.0, r.maxFlowsOverCapacity(), 1e-9);
    LinkRun ungated = LinkRun.of(m, bytes, List.of(A1, A2), List.of(B1, B2), null, null, 0, 1);
    assertEquals("-", ungated.mostFlows());
    assertNull(ungated.drops());
    assertNull(ungated.maxFlowsOverCapacity());
  }

  /**
   * With windows that adapt, a backbone side may carry more flows than its capacity up to the
   * rule's bound: marked ABOVE only past it; a NIC's window never moves, so a NIC over its capacity
   * is ABOVE under either rule.
   */
  @Test
  void flowsAreMarkedAgainstTheWindowRulesBound() {
    TopologyLinks.Limit limit = new TopologyLinks.Limit(1.0, "backbone.out[/A]");
    LinkLoad three = new LinkLoad(2, 3, 1L, null, null, null);
    LinkLoad nicOk = new LinkLoad(1, 1, 1L, null, null, null);
    Map<String, LinkLoad> loads = new java.util.LinkedHashMap<>();
    loads.put("nic.up[a1]", nicOk);
    loads.put("backbone.out[/A]", three);
    LinkRun fixed = new LinkRun(loads, limit, List.of());
    assertEquals("3 / 2 backbone.out[/A] ABOVE", fixed.mostFlows());
    WindowBound.Rule adaptive = new WindowBound.Rule(true, true);
    assertEquals("3 / 2 backbone.out[/A] (window <= 3)", fixed.withWindows(adaptive).mostFlows());
    loads.put("backbone.out[/A]", new LinkLoad(2, 4, 1L, null, null, null));
    assertEquals(
        "4 / 2 backbone.out[/A] (window <= 3) ABOVE",
        new LinkRun(loads, limit, List.of(), adaptive).mostFlows());
    loads.put("backbone.out[/A]", three);
    loads.put("nic.up[a1]", new LinkLoad(1, 2, 1L, null, null, null));
    assertEquals(
        "2 / 1 nic.up[a1] ABOVE", new LinkRun(loads, limit, List.of(), adaptive).mostFlows());
  }

  /**
   * The flows on the wire are marked on the link most over its capacity by them, apart from the
   * flows by hand-over.
   */
  @Test
  void theMostFlowsOnTheWireNameTheirLink() {
    TopologyLinks.Limit limit = new TopologyLinks.Limit(1.0, "backbone.out[/A]");
    Map<String, LinkLoad> loads = new java.util.LinkedHashMap<>();
    loads.put("nic.up[a1]", new LinkLoad(1, 1, 1L, null, null, null, 2));
    loads.put("backbone.out[/A]", new LinkLoad(2, 2, 1L, null, null, null, 3));
    LinkRun run = new LinkRun(loads, limit, List.of());
    assertEquals("2 / 1 nic.up[a1]", run.mostOnTheWire());
    assertEquals(2.0, run.maxWireFlowsOverCapacity());
    assertEquals(1.0, run.maxFlowsOverCapacity(), "by hand-over, within capacity");
    Map<String, LinkLoad> ungated =
        Map.of("nic.up[a1]", new LinkLoad(1, null, 1L, 0.9, null, null));
    assertEquals("-", new LinkRun(ungated, limit, List.of()).mostOnTheWire());
    assertEquals(null, new LinkRun(ungated, limit, List.of()).maxWireFlowsOverCapacity());
  }
}
