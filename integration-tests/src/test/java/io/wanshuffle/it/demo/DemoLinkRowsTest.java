package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.it.links.LinkLoad;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoLinkRowsTest {
  private static LinkRun run(double uplink, double backbone, Integer flows, long drops) {
    Map<String, LinkLoad> loads = new LinkedHashMap<>();
    loads.put("rack.uplink[/A/rack0]", new LinkLoad(1, flows, 1L, uplink, 1e6, drops));
    loads.put("backbone.out[/A]", new LinkLoad(2, flows, 1L, backbone, 1e6, 0L));
    loads.put("nic.up[h]", new LinkLoad(1, flows, 0L, 0.0, 0.0, null));
    return new LinkRun(loads, new TopologyLinks.Limit(4.0, "rack.uplink[/A/rack0]"), List.of());
  }

  private static Comparison.Figures fig(double reduce) {
    return new Comparison.Figures("x", reduce, 0, 0, 0, 0, 0, 0, 1, 0);
  }

  @Test
  void theThreeVariantsAreNamedByWhatThePluginKnows() {
    assertEquals("default shuffle", Demo.label("default"));
    assertEquals("wan-shuffle (auto, rack-blind)", Demo.label("auto-rackblind"));
    assertEquals("wan-shuffle (auto, topology-aware)", Demo.label("auto"));
  }

  @Test
  void theLinkRowsGiveTheLimitTheWorstLinkAndTheBusiestLinks() {
    List<LinkRun> runs = List.of(run(0.5, 0.9, null, 9), run(0.97, 0.6, 2, 3));
    assertEquals(
        List.of("rack.uplink[/A/rack0]", "backbone.out[/A]"),
        Demo.busiestLinks(runs, 4),
        "a link no run used is left out; busiest in any run first");
    List<List<String>> rows = Demo.linkRows(runs, List.of(fig(6.0), fig(5.0)), true);
    assertEquals(
        List.of(
            List.of(
                "generalised physical limit (s), its link",
                "4.00 rack.uplink[/A/rack0]",
                "4.00 rack.uplink[/A/rack0]"),
            List.of("reduce stage / generalised limit", "1.50", "1.25"),
            List.of(
                "most flows on a link / its capacity", "-", "2 / 1 rack.uplink[/A/rack0] ABOVE"),
            List.of("utilisation rack.uplink[/A/rack0] (%)", "50", "97"),
            List.of("utilisation backbone.out[/A] (%)", "90", "60"),
            List.of("tbf drops, every link (packets)", "9", "3")),
        rows);
    assertEquals(3, Demo.linkRows(runs, List.of(fig(6.0), fig(5.0)), false).size(), "loopback");
  }
}
