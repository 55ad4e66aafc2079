package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestbedLayoutTest {
  @Test
  void twoSitesEveryLinkWhereItIsReadAndShaped() {
    TestbedLayout l =
        TestbedLayout.of(
            new TestbedSpec(1, 1, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0));
    long bb = TestbedSpec.DEFAULT_BACKBONE;
    long nic = TestbedSpec.DEFAULT_NIC;
    assertEquals(
        List.of(
            new LinkMeter.Probe("backbone.out[/A]", "wst-swA", "bbA", true, bb, "wst-swA", "bbA"),
            new LinkMeter.Probe("backbone.in[/A]", "wst-swA", "bbA", false, bb, "wst-swB", "bbB"),
            new LinkMeter.Probe("backbone.out[/B]", "wst-swB", "bbB", true, bb, "wst-swB", "bbB"),
            new LinkMeter.Probe("backbone.in[/B]", "wst-swB", "bbB", false, bb, "wst-swA", "bbA"),
            new LinkMeter.Probe(
                "nic.up[10.77.1.11]", "wst-swA", "v-a1", false, nic, "wst-a1", "eth0"),
            new LinkMeter.Probe(
                "nic.down[10.77.1.11]", "wst-swA", "v-a1", true, nic, "wst-swA", "v-a1"),
            new LinkMeter.Probe(
                "nic.up[10.77.2.11]", "wst-swB", "v-b1", false, nic, "wst-b1", "eth0"),
            new LinkMeter.Probe(
                "nic.down[10.77.2.11]", "wst-swB", "v-b1", true, nic, "wst-swB", "v-b1")),
        l.links());
    assertEquals(Optional.empty(), l.delayPort("backbone.out[/A]"), "no WAN round trip");
    assertEquals(new Node("ctl", "A", "10.77.0.2", "wst-ctl"), l.control());
    assertEquals("b1", l.host("10.77.2.11").orElseThrow().name());
    assertEquals("10.77.1.11", l.host("a1").orElseThrow().address());
    assertEquals(l.control(), l.host("ctl").orElseThrow());
    assertEquals(Optional.empty(), l.host("c1"));
  }

  @Test
  void racksAndThreeSitesLeaveTheirFramesWhereTheirTbfIs() {
    TestbedSpec spec =
        new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 20)
            .withSites(List.of(2, 2, 2), List.of(200_000_000L, 200_000_000L, 100_000_000L))
            .withRacks(2, TestbedSpec.UNSHAPED, 50_000_000);
    TestbedLayout l = TestbedLayout.of(spec);
    assertEquals(6 * 2 + 3 * 2 + 6 * 2, l.links().size(), "rack links, backbone sides, NICs");
    assertEquals("rack.uplink[/A/rack0]", l.links().get(0).link(), "rack links first");
    LinkMeter.Probe up = l.link("rack.uplink[/C/rack1]").orElseThrow();
    assertEquals(
        List.of("wst-swC", "up-r1"), List.of(up.egressNamespace(), up.egressDevice()), "unshaped");
    assertEquals(TestbedSpec.UNSHAPED, up.rateBitsPerSecond());
    LinkMeter.Probe down = l.link("rack.downlink[/B/rack0]").orElseThrow();
    assertEquals(List.of("wst-swB", "dn-r0"), List.of(down.qdiscNs(), down.qdiscDev()));
    LinkMeter.Probe in = l.link("backbone.in[/C]").orElseThrow();
    assertEquals(List.of("wst-wan", "wC"), List.of(in.egressNamespace(), in.egressDevice()));
    assertEquals(100_000_000L, in.rateBitsPerSecond());
    LinkMeter.Probe nicUp = l.link("nic.up[10.77.3.12]").orElseThrow();
    assertEquals(List.of("wst-c2", "eth0"), List.of(nicUp.egressNamespace(), nicUp.egressDevice()));
    assertEquals(
        Optional.of(new TestbedLayout.DelayPort("wC", true)), l.delayPort("backbone.out[/C]"));
    assertEquals(
        Optional.of(new TestbedLayout.DelayPort("wA", false)), l.delayPort("backbone.in[/A]"));
    assertEquals(Optional.empty(), l.delayPort("rack.uplink[/A/rack0]"));
    assertEquals(Optional.empty(), l.delayPort("backbone.out[/D]"));
  }

  @Test
  void anUnshapedLinkReadWhereItIsReceivedHasNoEgress() {
    LinkMeter.Probe odd = new LinkMeter.Probe("x", "ns", "dev", false, 0, null, null);
    IllegalStateException e = assertThrows(IllegalStateException.class, odd::egressDevice);
    assertTrue(e.getMessage().contains("link x is neither shaped"), e.getMessage());
  }
}
