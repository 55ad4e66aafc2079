package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The nodes read from the watch's cache and from a claim's confirmation, which may overtake each
 * other: the newest version stands and a removed node does not come back.
 */
class SiblingNodesTest {
  private static final String LINK = "backbone.out[/A]";
  private static final Set<String> MINE = Set.of(LINK);

  private static byte[] node(int flows, long order) {
    return new PublishedDemand(1, order, Map.of(LINK, new LinkDemand(100, flows))).encode();
  }

  @Test
  void anOlderVersionReadLaterIsIgnored() {
    SiblingNodes n = new SiblingNodes("a");
    assertTrue(n.read("/ns/b", node(3, 0), 10, 20, MINE), "b's demand is on a's link");
    assertFalse(n.read("/ns/b", node(1, 0), 10, 15, MINE), "an older read");
    assertEquals(3, n.demands().get("b").links().get(LINK).flowsWanted());
    assertTrue(n.read("/ns/b", node(2, 0), 10, 30, MINE));
    assertEquals(2, n.demands().get("b").links().get(LINK).flowsWanted());
  }

  @Test
  void aNodeWithoutItsOrderTakesTheZxidOfItsWrite() {
    SiblingNodes n = new SiblingNodes("a");
    n.read("/ns/b", node(1, 0), 10, 20, MINE);
    n.read("/ns/c", node(1, 7), 11, 40, MINE);
    assertEquals(20, n.demands().get("b").order(), "the write that started b's demand");
    assertEquals(7, n.demands().get("c").order(), "c's order as written");
  }

  @Test
  void aRemovedNodeDoesNotComeBackFromAReadMadeBeforeItsRemovalButANewOneDoes() {
    SiblingNodes n = new SiblingNodes("a");
    n.read("/ns/b", node(1, 0), 10, 20, MINE);
    assertTrue(n.remove("/ns/b", 10, MINE));
    assertFalse(n.read("/ns/b", node(1, 0), 10, 20, MINE), "a stale read of the removed node");
    assertTrue(n.demands().isEmpty());
    assertTrue(n.read("/ns/b", node(1, 0), 50, 50, MINE), "b's node made again");
    assertEquals(Set.of("b"), n.demands().keySet());
  }

  @Test
  void itsOwnNodeAndNodesThatAreNotDemandsAreLeftOut() {
    SiblingNodes n = new SiblingNodes("a");
    assertFalse(n.read("/ns/a", node(1, 0), 1, 1, MINE));
    n.read("/ns/b", node(1, 0), 2, 2, MINE);
    assertTrue(n.read("/ns/b", "hello".getBytes(), 2, 3, MINE), "b's demand is gone from LINK");
    assertTrue(n.demands().isEmpty());
  }
}
