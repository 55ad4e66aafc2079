package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedLayout;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultPlanTest {
  static final TestbedSpec TWO_SITES_40MS =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 40);

  static FaultPlan plan(TestbedSpec spec, String... specs) {
    return FaultPlan.of(
        Arrays.stream(specs).map(FaultSpec::parse).toList(), TestbedLayout.of(spec));
  }

  @Test
  void targetsResolveToTheTestbedsLinksAndHosts() {
    FaultPlan p =
        plan(
            TWO_SITES_40MS,
            "down:backbone.out[/A]:1:1",
            "loss:nic.down[b2]:1:1:5",
            "rate:nic.up[10.77.1.12]:1:1:10mbit",
            "partition:10.77.2.11:1:1",
            "kill:a1:1");
    List<FaultPlan.Fault> f = p.faults();
    assertEquals(List.of(1, 2, 3, 4, 5), f.stream().map(FaultPlan.Fault::id).toList());
    assertEquals("backbone.out[/A]", f.get(0).target());
    assertNull(f.get(0).host());
    assertEquals("nic.down[10.77.2.12]", f.get(1).target(), "a NIC by host name, as its address");
    assertEquals("nic.up[10.77.1.12]", f.get(2).target());
    assertEquals("b1", f.get(3).target(), "a host by address, as its name");
    assertEquals("wst-b1", f.get(3).host().namespace());
    assertEquals("a1", f.get(4).target());
    assertFalse(f.get(4).arbiter());
    FaultPlan.Fault zk = plan(TWO_SITES_40MS, "kill:zookeeper:2").faults().get(0);
    assertTrue(zk.arbiter());
    assertEquals("zookeeper", zk.target());
    assertEquals(TestbedLayout.of(TWO_SITES_40MS).control(), zk.host(), "beside the drivers");
    assertTrue(p.needsNft());
    assertTrue(!plan(TWO_SITES_40MS, "rate:backbone.out[/A]:1:1:10mbit").needsNft());
  }

  @Test
  void anUnknownLinkOrHostIsRefusedListingTheTestbeds() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(TWO_SITES_40MS, "down:backbone.out[/C]:1:1"));
    assertEquals(
        "--fault 'down:backbone.out[/C]:1:1': the testbed has no link 'backbone.out[/C]' (its"
            + " links: backbone.out[/A], backbone.in[/A], backbone.out[/B], backbone.in[/B],"
            + " nic.up[HOST], nic.down[HOST]; HOST: a1, a2, b1, b2 or their addresses 10.77.1.11,"
            + " ...)",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(TWO_SITES_40MS, "rate:rack.uplink[/A/rack0]:1:1:1mbit"));
    assertTrue(e.getMessage().contains("no link 'rack.uplink[/A/rack0]'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> plan(TWO_SITES_40MS, "kill:c1:1"));
    assertTrue(
        e.getMessage().contains("the testbed has no host 'c1' (worker hosts: a1, a2, b1, b2"));
    e =
        assertThrows(
            IllegalArgumentException.class, () -> plan(TWO_SITES_40MS, "partition:ctl:1:1"));
    assertTrue(
        e.getMessage().contains("the control host runs the driver and the cluster manager"),
        e.getMessage());
  }

  @Test
  void rackLinksExistWithRackSwitches() {
    TestbedSpec racks =
        TWO_SITES_40MS
            .withSites(List.of(4, 4), List.of(200_000_000L, 200_000_000L))
            .withRacks(2, 100_000_000, 0);
    FaultPlan p =
        plan(racks, "down:rack.uplink[/A/rack1]:1:1", "rate:rack.downlink[/B/rack0]:1:1:5mbit");
    assertEquals("rack.uplink[/A/rack1]", p.faults().get(0).target());
  }

  @Test
  void aDelayNeedsTheDelayLineAndABackboneLink() {
    assertEquals(1, plan(TWO_SITES_40MS, "delay:backbone.in[/B]:1:1:30").faults().size());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> plan(TWO_SITES_40MS.withRtt(0), "delay:backbone.in[/B]:1:1:30"));
    assertTrue(e.getMessage().contains("its WAN round trip is 0 ms (give --rtt above 0)"));
    e =
        assertThrows(
            IllegalArgumentException.class, () -> plan(TWO_SITES_40MS, "delay:nic.up[a1]:1:1:30"));
    assertTrue(e.getMessage().contains("a delay goes on a backbone link"), e.getMessage());
  }

  @Test
  void twoRateOrDelayFaultsOnOneLinkMustNotOverlap() {
    // one after the other, on different links, or of different kinds: fine
    plan(
        TWO_SITES_40MS,
        "rate:backbone.out[/A]:0:10:50mbit",
        "rate:backbone.out[/A]:10:rest:25mbit",
        "rate:backbone.in[/A]:0:rest:25mbit",
        "down:backbone.out[/A]:5:1",
        "down:backbone.out[/A]:5:1");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                plan(
                    TWO_SITES_40MS,
                    "rate:backbone.out[/A]:0:rest:50mbit",
                    "rate:backbone.out[/A]:60:10:25mbit"));
    assertEquals(
        "--fault 'rate:backbone.out[/A]:60:10:25mbit': overlaps"
            + " 'rate:backbone.out[/A]:0:rest:50mbit': two rate faults on backbone.out[/A] at the"
            + " same time (give one, or let one end before the other starts)",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            plan(TWO_SITES_40MS, "delay:backbone.out[/A]:0:10:5", "delay:backbone.out[/A]:9:10:5"));
  }
}
