package io.wanshuffle.it.links;

import static io.wanshuffle.it.links.LinksFixture.A1;
import static io.wanshuffle.it.links.LinksFixture.A2;
import static io.wanshuffle.it.links.LinksFixture.B1;
import static io.wanshuffle.it.links.LinksFixture.B2;
import static io.wanshuffle.it.links.LinksFixture.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.spark.capture.FlowCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkFlowsTest {
  @TempDir Path dir;

  /**
   * Two racks of two hosts per site: a rack-blind step of a1 -> b1 and a2 -> b2 (a1 and a2 in rack
   * 0) puts two flows on rack 0's uplink, whose capacity is 1, while the backbone side holds its 2.
   */
  @Test
  void flowsHoldEveryLinkOfTheirRouteWhileTheyHoldTheirPorts() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 4);
    String a1 = "127.0.1.11";
    String a2 = "127.0.1.12"; // rack 0 with a1
    String a3 = "127.0.1.13"; // rack 1
    String b1 = "127.0.2.11"; // rack 0
    String b3 = "127.0.2.13"; // rack 1
    Map<String, Integer> max =
        LinkFlows.maxFlows(
            List.of(
                flow(a1, b1, 0, 100),
                flow(a2, b3, 50, 150),
                // starts as a1 -> b1 ends: [0,100) and [100,200) do not overlap
                flow(a3, b1, 100, 200)),
            m);
    assertEquals(2, max.get("rack.uplink[/A/rack0]"));
    assertEquals(1, max.get("rack.uplink[/A/rack1]"));
    assertEquals(2, max.get("backbone.out[/A]"));
    assertEquals(1, max.get("nic.down[" + b1 + "]"), "one after the other");
    assertEquals(1, max.get("rack.downlink[/B/rack0]"));
    assertNull(max.get("rack.downlink[/B/rack2]"));
    assertNull(max.get("nic.up[127.0.1.14]"), "a link no flow held is left out");
    assertEquals(
        List.copyOf(max.keySet()),
        m.links().keySet().stream().filter(max::containsKey).toList(),
        "in the model's order");
  }

  /** Several tasks fetching over one pair at once are one flow, as the coordinator counts them. */
  @Test
  void tasksOverTheSamePairAtOnceAreOneFlowAndEmptyIntervalsNone() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    Map<String, Integer> max =
        LinkFlows.maxFlows(
            List.of(
                flow(A1, B1, 0, 100),
                flow(A1, B1, 10, 50),
                flow(A2, B2, 30, 30),
                flow(A2, B2, 60, 40)),
            m);
    assertEquals(1, max.get("backbone.out[/A]"));
    assertEquals(1, max.get("nic.up[" + A1 + "]"));
    assertNull(max.get("nic.up[" + A2 + "]"), "zero-length and reversed intervals are ignored");
    assertEquals(Map.of(), LinkFlows.maxFlows(List.of(), m));
  }

  /**
   * Two applications on the same pair at once are two flows: each driver counts its own; one
   * application's tasks on one pair stay one.
   */
  @Test
  void applicationsRunTogetherCountTheirFlowsApart() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    List<FlowCapture> first = List.of(flow(A1, B1, 0, 100), flow(A1, B1, 10, 50));
    List<FlowCapture> second = List.of(flow(A1, B1, 20, 80), flow(A2, B2, 90, 120));
    Map<String, Integer> both = LinkFlows.maxFlowsOfApps(List.of(first, second), m);
    assertEquals(2, both.get("nic.up[" + A1 + "]"), "a1 -> b1 of both applications");
    assertEquals(2, both.get("backbone.out[/A]"), "the two a1 -> b1, then a1 -> b1 and a2 -> b2");
    assertEquals(1, both.get("nic.up[" + A2 + "]"));
    assertEquals(
        LinkFlows.maxFlows(first, m), LinkFlows.maxFlowsOfApps(List.of(first), m), "one app");
  }

  /**
   * A flow reported stalled hands its ports on at once, and the flow granted in its place runs
   * while the stalled one still delivers its last bytes after the outage: one flow on the link by
   * hand-over, two on the wire.
   */
  @Test
  void aStalledFlowHandedOnStillCountsOnTheWireUntilItsLastBlock() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    FlowCapture stalled = new FlowCapture(1, 3, 0, 1, 7, A1, B1, 1000, 0, 5000, 1000, 900);
    FlowCapture replacement = new FlowCapture(2, 3, 0, 1, 8, A1, B2, 1000, 1000, 3000, 3000, 0);
    List<FlowCapture> flows = List.of(stalled, replacement);
    assertEquals(1, LinkFlows.maxFlows(flows, m).get("nic.up[" + A1 + "]"), "by hand-over");
    Map<String, Integer> wire = LinkFlows.maxFlowsOnTheWire(flows, m);
    assertEquals(2, wire.get("nic.up[" + A1 + "]"), "both deliver bytes in [1000, 3000)");
    assertEquals(1, wire.get("nic.down[" + B1 + "]"));
    LinkLoad nic = LinkLoad.of(m, flows, null, List.of()).get("nic.up[" + A1 + "]");
    assertEquals(1, nic.maxFlows());
    assertEquals(2, nic.wireFlows());
    assertEquals(2.0, nic.wireFlowsOverCapacity());
  }
}
