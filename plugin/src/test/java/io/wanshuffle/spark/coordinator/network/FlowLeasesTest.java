package io.wanshuffle.spark.coordinator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The throttle: on the KPBS platform k flows per side of the backbone (so k per direction between
 * two clusters) and δ(h) per host sending and, separately, receiving; on a topology every link of a
 * route within its capacity. Hosts a1, a2, ... are in cluster "a", b1, b2, ... in cluster "b".
 */
class FlowLeasesTest {
  @TempDir Path dir;

  private static FlowLeases leases(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> h.substring(0, 1));
  }

  @Test
  void kBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> leases(0, 1));
  }

  @Test
  void theKPlusFirstFlowInOneDirectionIsRefusedWhileTheOtherDirectionIsFree() {
    FlowLeases l = leases(2, 5);
    l.open("a1", "b1");
    assertTrue(l.fits("a3", "b3"));
    l.open("a2", "b2");
    assertFalse(l.fits("a3", "b3"), "k = 2 flows a -> b");
    assertEquals(0, l.headroom("a3", "b3"));
    assertTrue(l.fits("b3", "a3"), "the backbone is full duplex: b -> a carries none");
    assertEquals(2, l.headroom("b3", "a3"));
    l.open("b1", "a1");
    l.open("b2", "a2");
    assertFalse(l.fits("b3", "a3"));
    assertEquals(4, l.total(), "k per direction: 2 + 2 flows at once");
    l.close("a1", "b1");
    assertTrue(l.fits("a3", "b3"), "a closed flow frees its direction");
    assertFalse(l.fits("b3", "a3"));
    assertEquals(3, l.total());
  }

  @Test
  void flowsInsideOneClusterCountOnThatClustersSides() {
    FlowLeases l = leases(1, 5);
    l.open("a1", "a2");
    assertFalse(l.fits("a3", "a4"));
    assertFalse(l.fits("a3", "b4"), "a's outgoing side carries its one flow");
    assertFalse(l.fits("b3", "a4"), "a's incoming side carries its one flow");
    assertTrue(l.fits("b3", "b4"));
    assertTrue(l.sameCluster("a1", "a9"));
    assertFalse(l.sameCluster("a1", "b1"));
  }

  @Test
  void deltaLimitsEachHostSendingAndReceivingSeparately() {
    FlowLeases l =
        TestDemands.leases(
            10, Map.of("a1", 2, "a2", 1, "b1", 1, "b2", 3)::get, h -> h.substring(0, 1));
    assertEquals(2, l.sendPorts("a1"));
    assertEquals(2, l.freeSend("a1"));
    assertEquals(2, l.freeReceive("a1"));
    l.open("a1", "b1");
    l.open("a1", "b2");
    assertEquals(2, l.sending("a1"));
    assertEquals(0, l.freeSend("a1"), "δ(a1) = 2 flows sent");
    assertFalse(l.fits("a1", "b2"));
    assertEquals(2, l.freeReceive("a1"), "sending does not use a1's receiving ports");
    assertEquals(0, l.receiving("a1"));
    assertEquals(0, l.freeReceive("b1"), "δ(b1) = 1 flow received");
    assertFalse(l.fits("a2", "b1"));
    assertEquals(1, l.freeSend("b1"), "receiving does not use b1's sending ports");
    assertEquals(2, l.freeReceive("b2"), "δ(b2) = 3, one flow received");
    l.open("b1", "a1");
    assertEquals(1, l.receiving("a1"));
    assertEquals(1, l.freeReceive("a1"));
    assertEquals(0, l.freeSend("a1"), "unchanged by the flow a1 receives");
    assertEquals(0, l.freeSend("b1"));
    l.close("a1", "b1");
    assertEquals(1, l.freeSend("a1"));
    assertEquals(1, l.freeReceive("b1"));
  }

  @Test
  void closingAFlowThatIsNotOpenThrowsAndChangesNothing() {
    FlowLeases l = leases(3, 2);
    assertThrows(IllegalStateException.class, () -> l.close("a1", "b1"), "nothing open");
    l.open("a1", "b1");
    assertThrows(IllegalStateException.class, () -> l.close("b1", "a1"), "the reverse flow");
    assertThrows(IllegalStateException.class, () -> l.close("a1", "b2"), "b2 receives nothing");
    assertThrows(IllegalStateException.class, () -> l.close("a2", "b1"), "a2 sends nothing");
    assertEquals(1, l.total());
    assertEquals(1, l.sending("a1"));
    assertEquals(1, l.receiving("b1"));
    assertEquals(2, l.headroom("a2", "b2"));
    l.close("a1", "b1");
    assertThrows(IllegalStateException.class, () -> l.close("a1", "b1"), "closed twice");
    assertEquals(0, l.total());
    assertEquals(3, l.headroom("a2", "b2"));
    assertEquals(2, l.freeSend("a1"));
    assertEquals(2, l.freeReceive("b1"));
  }

  /**
   * With a1 -> b1 and a2 -> b2 open, closing a1 -> b2 (never opened, though both its hosts have a
   * flow in that direction) throws and leaves every count as it was.
   */
  @Test
  void closingAPairThatWasNeverOpenedThrowsEvenWhenItsHostsHaveOtherFlows() {
    FlowLeases l = leases(3, 2);
    l.open("a1", "b1");
    l.open("a2", "b2");
    assertThrows(IllegalStateException.class, () -> l.close("a1", "b2"));
    assertEquals(2, l.total());
    assertEquals(1, l.headroom("a3", "b3"));
  }

  /**
   * A topology with two racks per cluster whose uplinks carry one flow of the base speed each (NICs
   * 100, uplinks 100, backbone sides 400 B/s): a second flow out of rack A/r0 does not fit although
   * the backbone and both NICs have room, while a flow from the other rack does.
   */
  @Test
  void aRackUplinkLimitsTheFlowsOutOfItsRack() throws IOException {
    Files.writeString(
        dir.resolve("t.table"), "a1 /A/r0\na2 /A/r0\na3 /A/r1\nb1 /B/r0\nb2 /B/r0\nb3 /B/r1\n");
    Files.writeString(
        dir.resolve("t.conf"),
        "mapping.table = t.table\nnic.rate = 100\nrack.rate = 100\nbackbone.rate = 400\n");
    LinkModel links = LinkModel.of(Topology.load(dir.resolve("t.conf")), "test");
    assertTrue(links.topologyAware());
    assertEquals(100, links.baseSpeed());
    FlowLeases l = new FlowLeases(links, h -> h.substring(0, 1));
    l.open("a1", "b1");
    assertFalse(l.fits("a2", "b3"), "rack.uplink[/A/r0] carries a1's flow");
    assertEquals(0, l.headroom("a2", "b3"));
    assertFalse(l.fits("a3", "b2"), "rack.downlink[/B/r0] carries the flow to b1");
    assertTrue(l.fits("a3", "b3"), "the other racks have room");
    l.open("a3", "b3");
    assertFalse(l.fits("a3", "b3"), "its racks' links carry it");
    assertEquals(2, l.total(), "the backbone (4 flows) is not what limits");
    l.close("a1", "b1");
    assertTrue(l.fits("a2", "b1"));
  }
}
