package io.wanshuffle.it.links;

import static io.wanshuffle.it.links.LinksFixture.A1;
import static io.wanshuffle.it.links.LinksFixture.A2;
import static io.wanshuffle.it.links.LinksFixture.B1;
import static io.wanshuffle.it.links.LinksFixture.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.LinkTrace;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkLoadTest {
  @TempDir Path dir;

  private static LinkTrace.Series series(String link, long rateBits, long drops, long... bytes) {
    long[] t = new long[bytes.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 1_000L * i;
    }
    return new LinkTrace.Series(link, rateBits, t, bytes, drops);
  }

  @Test
  void countersFlowsAndCapacitiesMeetPerLink() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    Map<String, LinkTrace.Series> s = new LinkedHashMap<>();
    // backbone out of A: 25 MB/s for 2 s of a 4 s recording, i.e. full during the window [1 s, 3 s]
    s.put(
        "backbone.out[/A]",
        series("backbone.out[/A]", 200_000_000, 3, 0, 0, 25_000_000, 50_000_000, 50_000_000));
    s.put(
        "nic.up[" + A1 + "]",
        series("nic.up[" + A1 + "]", 100_000_000, -1, 0, 0, 6_250_000, 12_500_000, 12_500_000));
    s.put("rack.uplink[/A/rack9]", series("rack.uplink[/A/rack9]", 0, -1, 0, 1, 2, 3, 4));
    LinkTrace trace = new LinkTrace(s);
    Map<String, LinkLoad> loads =
        LinkLoad.of(
            m,
            List.of(flow(A1, B1, 1_000, 3_000), flow(A2, B1, 2_000, 2_500)),
            trace,
            List.of(new long[] {1_000, 3_000}));
    LinkLoad out = loads.get("backbone.out[/A]");
    assertEquals(2, out.capacityFlows());
    assertEquals(2, out.maxFlows());
    assertEquals(50_000_000L, out.bytes());
    assertEquals(1.0, out.utilisation(), 1e-9);
    assertEquals(200e6, out.peakBitsPerSecond(), 1e-3);
    assertEquals(3L, out.drops());
    assertEquals(1.0, out.flowsOverCapacity(), 1e-9);
    LinkLoad nicDown = loads.get("nic.down[" + B1 + "]");
    assertEquals(2, nicDown.maxFlows(), "a1 and a2 both into b1 at 2.0-2.5 s");
    assertEquals(2.0, nicDown.flowsOverCapacity(), 1e-9);
    assertNull(nicDown.bytes(), "not measured");
    assertNull(nicDown.utilisation());
    assertEquals(0.5, loads.get("nic.up[" + A1 + "]").utilisation(), 1e-9);
    LinkLoad unmodelled = loads.get("rack.uplink[/A/rack9]");
    assertNull(unmodelled.capacityFlows(), "measured, but not a link of the topology");
    assertNull(unmodelled.utilisation());
    assertEquals(2L, unmodelled.bytes());
    assertEquals(
        "rack.uplink[/A/rack9]",
        List.copyOf(loads.keySet()).get(loads.size() - 1),
        "after the model's links");
    assertEquals(0, loads.get("rack.uplink[/B/rack1]").maxFlows(), "no flow crossed it");
    assertEquals(2.0, LinkLoad.maxFlowsOverCapacity(loads), 1e-9);
    assertEquals("backbone.out[/A]", LinkLoad.busiest(loads).orElseThrow().getKey());
  }

  @Test
  void anUngatedRunHasNoFlowFiguresAndAnUnmeasuredOneNoCounters() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    Map<String, LinkLoad> loads = LinkLoad.of(m, null, null, List.of());
    assertEquals(m.links().keySet(), loads.keySet());
    LinkLoad l = loads.get("backbone.in[/B]");
    assertEquals(new LinkLoad(2, null, null, null, null, null), l);
    assertNull(LinkLoad.maxFlowsOverCapacity(loads));
    assertTrue(LinkLoad.busiest(loads).isEmpty());
    // the whole recording when no window is given
    Map<String, LinkTrace.Series> s =
        Map.of(
            "backbone.in[/B]",
            series("backbone.in[/B]", 200_000_000, 0, 0, 25_000_000, 50_000_000));
    assertEquals(
        1.0,
        LinkLoad.of(m, List.of(), new LinkTrace(s), List.of()).get("backbone.in[/B]").utilisation(),
        1e-9);
    assertEquals(
        0.0,
        LinkLoad.maxFlowsOverCapacity(LinkLoad.of(m, List.of(), null, List.of())),
        "a flow log without a flow: none on any link");
  }
}
