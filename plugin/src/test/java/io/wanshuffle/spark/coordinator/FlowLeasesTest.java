package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throttle: k flows per direction of the backbone, δ(h) per host sending and, separately,
 * receiving. Hosts a1, a2, ... are in cluster "a", b1, b2, ... in cluster "b".
 */
class FlowLeasesTest {
  private static final FlowLeases.Direction AB = new FlowLeases.Direction("a", "b");
  private static final FlowLeases.Direction BA = new FlowLeases.Direction("b", "a");

  private static FlowLeases leases(int k, int delta) {
    return new FlowLeases(k, h -> delta, h -> h.substring(0, 1));
  }

  @Test
  void kBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> leases(0, 1));
  }

  @Test
  void theKPlusFirstFlowInOneDirectionIsRefusedWhileTheOtherDirectionIsFree() {
    FlowLeases l = leases(2, 5);
    assertEquals(AB, l.direction("a1", "b7"));
    l.open("a1", "b1");
    assertFalse(l.full(AB));
    l.open("a2", "b2");
    assertTrue(l.full(AB), "k = 2 flows a -> b");
    assertEquals(2, l.total(AB));
    assertFalse(l.full(BA), "the backbone is full duplex: b -> a carries none");
    assertEquals(0, l.total(BA));
    l.open("b1", "a1");
    l.open("b2", "a2");
    assertTrue(l.full(BA));
    assertEquals(4, l.total(), "k per direction: 2 + 2 flows at once");
    l.close("a1", "b1");
    assertFalse(l.full(AB), "a closed flow frees its direction");
    assertTrue(l.full(BA));
    assertEquals(3, l.total());
  }

  @Test
  void flowsInsideOneClusterCountInTheirOwnDirection() {
    FlowLeases l = leases(1, 5);
    l.open("a1", "a2");
    assertTrue(l.full(new FlowLeases.Direction("a", "a")));
    assertFalse(l.full(AB));
    assertTrue(l.sameCluster("a1", "a9"));
    assertFalse(l.sameCluster("a1", "b1"));
  }

  @Test
  void deltaLimitsEachHostSendingAndReceivingSeparately() {
    FlowLeases l =
        new FlowLeases(10, Map.of("a1", 2, "b1", 1, "b2", 3)::get, h -> h.substring(0, 1));
    assertEquals(2, l.delta("a1"));
    assertEquals(2, l.freeSend("a1"));
    assertEquals(2, l.freeReceive("a1"));
    l.open("a1", "b1");
    l.open("a1", "b2");
    assertEquals(2, l.sending("a1"));
    assertEquals(0, l.freeSend("a1"), "δ(a1) = 2 flows sent");
    assertEquals(2, l.freeReceive("a1"), "sending does not use a1's receiving ports");
    assertEquals(0, l.receiving("a1"));
    assertEquals(0, l.freeReceive("b1"), "δ(b1) = 1 flow received");
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
    assertEquals(1, l.total(AB));
    l.close("a1", "b1");
    assertThrows(IllegalStateException.class, () -> l.close("a1", "b1"), "closed twice");
    assertEquals(0, l.total());
    assertEquals(0, l.total(AB));
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
  }
}
