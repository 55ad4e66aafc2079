package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ShareViewTest {
  private static final String LINK = "backbone.out[/A]";

  private static PublishedDemand wants(String link, int flows) {
    return new PublishedDemand(1, Map.of(link, new LinkDemand(1 << 20, flows)));
  }

  @Test
  void withoutOtherApplicationsOnTheLinkTheWholeWindow() {
    ShareView v = new ShareView(true, Map.of("b", wants("nic.in[b1]", 5)));
    assertEquals(10, v.share("a", 1, 0, LINK, 10, new LinkDemand(100, 3)));
    assertEquals(10, ShareView.NONE.share("a", 1, 0, LINK, 10, null), "nothing read: alone");
    assertEquals(0, v.share("a", 1, 0, LINK, 0, null));
  }

  @Test
  void liveTheFairSplitWithThisApplicationsOwnClaim() {
    ShareView v = new ShareView(true, Map.of("b", wants(LINK, 50), "c", wants(LINK, 50)));
    assertEquals(4, v.share("a", 1, 0, LINK, 10, new LinkDemand(100, 50)), "a, b, c: 4, 3, 3");
    assertEquals(2, v.share("a", 1, 0, LINK, 10, new LinkDemand(100, 2)), "a wants 2");
    assertEquals(1, v.share("a", 1, 0, LINK, 10, null), "no published demand: claims 1 flow");
    assertEquals(6, v.share("z", 3, 0, LINK, 10, new LinkDemand(100, 50)), "weight 3 of 5");
  }

  @Test
  void notLiveTheSafeShareOverTheApplicationsLastSeen() {
    ShareView v = new ShareView(false, Map.of("b", wants(LINK, 50), "c", wants(LINK, 1)));
    assertEquals(3, v.share("a", 5, 0, LINK, 10, new LinkDemand(100, 50)), "10 / 3, weights aside");
    assertEquals(1, v.share("a", 1, 0, LINK, 2, null), "at least one flow");
    assertEquals(
        10, new ShareView(false, Map.of("b", wants("x", 1))).share("a", 1, 0, LINK, 10, null));
  }

  /**
   * The second pass: an application with no usable flow on the link gets 0 while another has some,
   * and the link goes whole to those who can use it; when nobody can, the first pass stands.
   */
  @Test
  void theSecondPassCountsUsableFlowsOnly() {
    PublishedDemand blocked =
        new PublishedDemand(1, Map.of(LINK, new LinkDemand(1 << 20, 2, 5, 0)));
    ShareView fromA = new ShareView(true, Map.of("b", blocked));
    LinkDemand aWants = new LinkDemand(1 << 20, 2, 1, 2);
    assertEquals(1, fromA.wantedShare("a", 1, 0, LINK, 2, aWants), "first pass: 1 each");
    assertEquals(2, fromA.share("a", 1, 0, LINK, 2, aWants), "b cannot use its flow: a gets both");
    ShareView fromB =
        new ShareView(true, Map.of("a", new PublishedDemand(1, Map.of(LINK, aWants))));
    assertEquals(0, fromB.share("b", 1, 0, LINK, 2, blocked.links().get(LINK)));
    ShareView bothBlocked =
        new ShareView(
            true,
            Map.of("b", new PublishedDemand(1, Map.of(LINK, new LinkDemand(1 << 20, 2, 5, 0)))));
    assertEquals(
        1,
        bothBlocked.share("a", 1, 0, LINK, 2, new LinkDemand(1 << 20, 2, 1, 0)),
        "nobody can use it: the first pass");
    assertEquals(
        2,
        fromA.share("a", 1, 0, LINK, 2, new LinkDemand(1 << 20, 2, 1, 1)),
        "a can use 1 but nobody else can use any: the whole window");
  }

  /**
   * A link of one flow goes to the application whose demand started first in ZooKeeper's order of
   * writes; one whose start is not confirmed yet (order 0) comes after every other.
   */
  @Test
  void aLinkOfOneFlowGoesByTheOrderOfTheWritesThatStartedTheDemands() {
    ShareView v = new ShareView(true, Map.of("b", wants(LINK, 3).withOrder(500)));
    LinkDemand a = new LinkDemand(100, 3);
    assertEquals(1, v.share("a", 1, 499, LINK, 1, a), "a's start written first");
    assertEquals(0, v.share("a", 1, 501, LINK, 1, a), "b's start written first");
    assertEquals(0, v.share("a", 1, 0, LINK, 1, a), "a's start not known yet: after b");
    assertEquals(1, v.share("z", 1, 499, LINK, 1, a), "the order, not the name");
  }
}
