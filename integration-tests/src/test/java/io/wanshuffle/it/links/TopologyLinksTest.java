package io.wanshuffle.it.links;

import static io.wanshuffle.it.links.LinksFixture.A1;
import static io.wanshuffle.it.links.LinksFixture.A2;
import static io.wanshuffle.it.links.LinksFixture.B1;
import static io.wanshuffle.it.links.LinksFixture.B2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyLinksTest {
  @TempDir Path dir;

  @Test
  void capacitiesAreRatesOverTheGcdOfTheRatesBetweenTheTablesHosts() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    assertEquals(12_500_000L, m.baseSpeed());
    assertEquals(1, m.capacityFlows("nic.up[" + A1 + "]"));
    assertEquals(1, m.capacityFlows("rack.uplink[/A/rack0]"));
    assertEquals(2, m.capacityFlows("backbone.out[/A]"));
    assertEquals(2, m.capacityFlows("backbone.in[/B]"));
    assertThrows(IllegalArgumentException.class, () -> m.capacityFlows("rack.uplink[/C/rack0]"));
    // every host of the table (the control host too) and every rack and site side
    assertEquals(5, m.hosts().size());
    assertEquals(5 * 2 + 4 * 2 + 2 * 2, m.links().size());
    assertEquals(
        List.of("nic.up[127.0.0.2]", "nic.up[127.0.1.11]"),
        m.links().keySet().stream().limit(2).toList(),
        "NIC up-links first, by owner");
    assertEquals(
        List.of(
            "nic.up[" + A2 + "]",
            "rack.uplink[/A/rack1]",
            "backbone.out[/A]",
            "backbone.in[/B]",
            "rack.downlink[/B/rack1]",
            "nic.down[" + B2 + "]"),
        m.route(A2, B2));
  }

  @Test
  void theGeneralisedLimitIsTheMostLoadedLinkOverItsRate() {
    TopologyLinks m = LinksFixture.twoByTwo(dir, 2);
    // a1 and a2 each send 25 MB to b1: b1's NIC (12.5 MB/s) and rack downlink carry 50 MB: 4 s;
    // the backbone's 50 MB at 25 MB/s: 2 s
    long[][] bytes = {{25_000_000, 0}, {25_000_000, 0}};
    TopologyLinks.Limit l = m.limit(bytes, List.of(A1, A2), List.of(B1, B2));
    assertEquals(4.0, l.seconds(), 1e-9);
    assertEquals("rack.downlink[/B/rack0]", l.link(), "the first of the equally loaded in order");
    Map<String, Long> load = m.loadBytes(bytes, List.of(A1, A2), List.of(B1, B2));
    assertEquals(50_000_000L, load.get("backbone.out[/A]"));
    assertEquals(25_000_000L, load.get("rack.uplink[/A/rack0]"));
    assertNull(load.get("rack.downlink[/B/rack1]"), "no traffic, left out");
    assertEquals(
        new TopologyLinks.Limit(0, null), m.limit(new long[][] {{0}}, List.of(A1), List.of(B1)));
  }
}
