package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several applications (one {@link ZooKeeperShare} each, in this JVM) splitting the windows through
 * Curator's in-process ZooKeeper ({@link TestingServer}, 100 ms ticks so that sessions of 1 s are
 * honoured).
 */
class ZooKeeperShareTest {
  private static final String LINK = "backbone.out[/A]";
  private static final String NS = "/wan-shuffle/test";
  private static final long SESSION_MS = 1000;
  private static final long PUBLISH_MS = 50;

  /** Longest wait for a share to follow a change: a work-conserving change takes under 1 s. */
  private static final long SETTLE_MS = 1000;

  private TestingServer server;
  private final List<ZooKeeperShare> shares = new ArrayList<>();

  @BeforeEach
  void startServer() throws Exception {
    server = new TestingServer(spec(-1), true);
  }

  @AfterEach
  void stopAll() throws Exception {
    shares.forEach(ZooKeeperShare::close);
    server.close();
  }

  private static InstanceSpec spec(int port) {
    return new InstanceSpec(null, port, -1, -1, true, -1, 100, 0);
  }

  private ZooKeeperShare join(String app, double weight, String ensemble) {
    ZooKeeperShare s = ZooKeeperShare.start(ensemble, NS, app, weight, SESSION_MS, PUBLISH_MS);
    shares.add(s);
    return s;
  }

  private ZooKeeperShare join(String app, double weight) {
    return join(app, weight, server.getConnectString());
  }

  private static Map<String, LinkDemand> wants(int flows) {
    return Map.of(LINK, new LinkDemand(100L << 20, flows));
  }

  /** Waits until {@code value} is {@code expected}, at most {@code ms}; returns the time taken. */
  private static long settle(String what, int expected, IntSupplier value, long ms)
      throws InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + ms * 1_000_000;
    int v = value.getAsInt();
    while (v != expected && System.nanoTime() < deadline) {
      Thread.sleep(10);
      v = value.getAsInt();
    }
    assertEquals(expected, v, what);
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /**
   * Waits until {@code s} has joined, at most 30 s: how long a session takes to open is not what
   * these tests measure, and on a machine busy with a build it once took over 10 s.
   */
  private static void live(ZooKeeperShare s) throws InterruptedException {
    settle("joined: " + s.application(), 1, () -> s.live() ? 1 : 0, 30_000);
  }

  /**
   * Waits until {@code s}'s claim on {@code link} is confirmed (before that its share is 0 whatever
   * the split), then asserts its share.
   */
  private static void confirmedShare(
      String what, int expected, ZooKeeperShare s, String link, int window)
      throws InterruptedException {
    settle(what + ": claim confirmed", 1, () -> s.confirmedOn(link) ? 1 : 0, SETTLE_MS * 5);
    settle(what, expected, () -> s.allowed(link, window), SETTLE_MS * 5);
  }

  @Test
  void oneTwoAndThreeApplicationsWithWeights() throws Exception {
    ZooKeeperShare a = join("a", 1);
    a.publish(wants(50));
    live(a);
    settle("alone: the whole window", 12, () -> a.allowed(LINK, 12), SETTLE_MS);

    ZooKeeperShare b = join("b", 1);
    b.publish(wants(50));
    live(b);
    settle("a with b", 6, () -> a.allowed(LINK, 12), SETTLE_MS * 5);
    settle("b with a", 6, () -> b.allowed(LINK, 12), SETTLE_MS);

    ZooKeeperShare c = join("c", 2);
    c.publish(wants(50));
    live(c);
    settle("c, weight 2 of 4", 6, () -> c.allowed(LINK, 12), SETTLE_MS * 5);
    settle("a, weight 1 of 4", 3, () -> a.allowed(LINK, 12), SETTLE_MS);
    settle("b, weight 1 of 4", 3, () -> b.allowed(LINK, 12), SETTLE_MS);
    assertEquals(
        12, a.allowed(LINK, 12) + b.allowed(LINK, 12) + c.allowed(LINK, 12), "the whole window");
    assertEquals(12, a.allowed("nic.in[b1]", 12), "nobody else on another link");
    assertEquals(2, a.othersOn(LINK), "b and c want the link");
    assertEquals(0, a.othersOn("nic.in[b1]"));
    assertEquals(0, new Alone().othersOn(LINK), "no arbiter: nobody else known");
  }

  /**
   * A link of fewer flows than applications stays with the application that wanted it first (its
   * demand's start travels in its node), whatever the names; it passes on once that demand ends,
   * and the one that came back later waits in turn.
   */
  @Test
  void aLinkOfOneFlowStaysWithTheApplicationThatWantedItFirst() throws Exception {
    ZooKeeperShare a = join("a", 1);
    ZooKeeperShare b = join("b", 1);
    b.publish(wants(5));
    live(b);
    Thread.sleep(20);
    a.publish(wants(5));
    live(a);
    confirmedShare("a, later than b", 0, a, LINK, 1);
    settle("b, first", 1, () -> b.allowed(LINK, 1), SETTLE_MS);
    b.publish(Map.of());
    settle("b done: a's", 1, () -> a.allowed(LINK, 1), SETTLE_MS);
    b.publish(wants(5));
    confirmedShare("b back, after a", 0, b, LINK, 1);
    settle("a keeps it", 1, () -> a.allowed(LINK, 1), SETTLE_MS);
  }

  /**
   * Two applications that started wanting two single-flow links in opposite orders: the one whose
   * demand started first holds both, the other neither (never one each: each would wait for the
   * other's link, a circular wait).
   */
  @Test
  void theOrderOnSingleFlowLinksIsTheSameOnEveryLink() throws Exception {
    String other = "nic.down[b1]";
    ZooKeeperShare a = join("a", 1);
    ZooKeeperShare b = join("b", 1);
    b.publish(Map.of(LINK, new LinkDemand(100, 1)));
    live(b);
    Thread.sleep(20);
    a.publish(Map.of(other, new LinkDemand(100, 1)));
    live(a);
    Thread.sleep(20);
    // a wanted `other` before b did, b wanted LINK before a did; b's demand started first
    b.publish(Map.of(LINK, new LinkDemand(100, 1), other, new LinkDemand(100, 1)));
    a.publish(Map.of(LINK, new LinkDemand(100, 1), other, new LinkDemand(100, 1)));
    settle("b on LINK", 1, () -> b.allowed(LINK, 1), SETTLE_MS * 5);
    settle("b on the other link", 1, () -> b.allowed(other, 1), SETTLE_MS * 5);
    confirmedShare("a on LINK", 0, a, LINK, 1);
    confirmedShare("a on the other link", 0, a, other, 1);
  }

  /**
   * Two applications start wanting a link of one flow at the same moment; the one whose demand
   * started first by the clock writes its claim second (what it sends is held on the way to
   * ZooKeeper). Once both want the link they never both hold it: neither is given it before its
   * claim is written and the others' nodes read after that write, and both place the first writer
   * first.
   */
  @Test
  void twoApplicationsThatStartTogetherNeverBothHoldALinkOfOneFlow() throws Exception {
    try (TcpProxy slow = new TcpProxy(server.getPort())) {
      ZooKeeperShare a = join("a", 1);
      ZooKeeperShare b = join("b", 1, slow.connectString());
      live(a);
      live(b);
      AtomicBoolean bothWant = new AtomicBoolean();
      AtomicBoolean both = new AtomicBoolean();
      AtomicBoolean watching = new AtomicBoolean(true);
      Thread watch =
          new Thread(
              () -> {
                while (watching.get()) {
                  // an application without demand is given the link but holds nothing on it
                  boolean armed = bothWant.get();
                  if (armed && a.allowed(LINK, 1) == 1 && b.allowed(LINK, 1) == 1) {
                    both.set(true);
                  }
                  Thread.yield();
                }
              });
      watch.start();
      slow.hold();
      b.publish(wants(1)); // b's demand starts first, its write waits on the way
      Thread.sleep(20);
      a.publish(wants(1));
      bothWant.set(true);
      settle("a, whose claim ZooKeeper wrote first", 1, () -> a.allowed(LINK, 1), SETTLE_MS * 5);
      slow.release();
      confirmedShare("b, second in ZooKeeper's order", 0, b, LINK, 1);
      Thread.sleep(300);
      watching.set(false);
      watch.join();
      assertFalse(both.get(), "a and b held the link of one flow at one moment");
      assertEquals(1, a.allowed(LINK, 1));
      assertEquals(0, b.allowed(LINK, 1));
    }
  }

  /**
   * Two host pairs through one backbone side of 2 flows, each pair's flow also on its sender's NIC
   * of 1 flow: the application that wanted them first holds both NICs, so the other can use none of
   * its backbone share, which goes whole to the first (not 1 flow each, half the backbone idle);
   * once the first is done the second holds everything.
   */
  @Test
  void aBackboneShareThatAnApplicationCannotUseGoesToTheOneThatCan() throws Exception {
    String[] names = {LINK, "nic.up[a1]", "nic.up[a2]"};
    RouteDemand routes =
        new RouteDemand(
            names, new int[] {2, 1, 1}, new int[][] {{0, 1}, {0, 2}}, new long[] {5, 5});
    Map<String, LinkDemand> both =
        Map.of(
            LINK,
            new LinkDemand(10, 2),
            "nic.up[a1]",
            new LinkDemand(5, 1),
            "nic.up[a2]",
            new LinkDemand(5, 1));
    ZooKeeperShare a = join("a", 1);
    ZooKeeperShare b = join("b", 1);
    a.publish(both, routes);
    live(a);
    Thread.sleep(20);
    b.publish(both, routes);
    live(b);
    confirmedShare("b holds no NIC", 0, b, "nic.up[a1]", 1);
    confirmedShare("so no backbone flow for b", 0, b, LINK, 2);
    settle("and the whole backbone for a", 2, () -> a.allowed(LINK, 2), SETTLE_MS * 5);
    assertEquals(1, a.allowed("nic.up[a2]", 1));
    a.publish(Map.of(), routes);
    settle("a done: b's backbone", 2, () -> b.allowed(LINK, 2), SETTLE_MS);
    settle("a done: b's NIC", 1, () -> b.allowed("nic.up[a2]", 1), SETTLE_MS);
  }

  /**
   * A flow still open keeps its link: b, first in the order, wants the single-flow link that a's
   * last flow holds; b gets it once a's flow is handed on (a publishes the flow gone), not before.
   */
  @Test
  void aLinkStaysWithTheApplicationWhoseFlowHoldsIt() throws Exception {
    ZooKeeperShare a = join("a", 3);
    ZooKeeperShare b = join("b", 5); // heavier: first in the order on a link of one flow
    a.publish(Map.of(LINK, new LinkDemand(0, 1, 0, 1, 1)));
    live(a);
    b.publish(wants(1));
    live(b);
    settle("a's claim confirmed: its flow's link", 1, () -> a.allowed(LINK, 1), SETTLE_MS * 5);
    confirmedShare("b waits for a's open flow", 0, b, LINK, 1);
    a.publish(Map.of());
    settle("a's flow handed on: b's", 1, () -> b.allowed(LINK, 1), SETTLE_MS);
  }

  @Test
  void anApplicationWithoutDemandLeavesItsShareWithinASecond() throws Exception {
    ZooKeeperShare a = join("a", 1);
    ZooKeeperShare b = join("b", 1);
    a.publish(wants(50));
    b.publish(wants(50));
    live(a);
    live(b);
    settle("split", 5, () -> a.allowed(LINK, 10), SETTLE_MS * 5);
    AtomicInteger told = new AtomicInteger();
    a.onChange(told::incrementAndGet);
    b.publish(Map.of());
    long took = settle("b has no demand", 10, () -> a.allowed(LINK, 10), SETTLE_MS);
    assertTrue(took < SETTLE_MS, "within a second: " + took + " ms");
    assertTrue(told.get() > 0, "a was told its share changed");
    b.publish(wants(3));
    settle("b wants 3 again", 7, () -> a.allowed(LINK, 10), SETTLE_MS);
    settle("b's 3", 3, () -> b.allowed(LINK, 10), SETTLE_MS);
  }

  @Test
  void aDeadDriverFreesItsShareWhenItsSessionExpires() throws Exception {
    ZooKeeperShare a = join("a", 1);
    a.publish(wants(50));
    try (TcpProxy cable = new TcpProxy(server.getPort())) {
      ZooKeeperShare b = join("b", 1, cable.connectString());
      b.publish(wants(50));
      live(b);
      settle("split", 4, () -> a.allowed(LINK, 8), SETTLE_MS * 5);
      cable.close(); // b's driver is gone: no close, no heartbeat
      Thread.sleep(SESSION_MS / 2);
      assertEquals(4, a.allowed(LINK, 8), "b's share is held while its session lives");
      long took = settle("b's session expired", 8, () -> a.allowed(LINK, 8), SESSION_MS * 4);
      assertTrue(took >= SESSION_MS / 4, "freed by the expiry, not before: " + took + " ms");
    }
  }

  @Test
  void aDriverThatStopsFreesItsShareAtOnce() throws Exception {
    ZooKeeperShare a = join("a", 1);
    ZooKeeperShare b = join("b", 1);
    a.publish(wants(50));
    b.publish(wants(50));
    settle("split", 5, () -> a.allowed(LINK, 10), SETTLE_MS * 5);
    b.close();
    long took = settle("b stopped", 10, () -> a.allowed(LINK, 10), SETTLE_MS);
    assertTrue(took < SESSION_MS, "before any expiry: " + took + " ms");
  }

  @Test
  void zooKeeperDownMidRunGivesTheSafeShareAtOnceThenTheSplitAgain() throws Exception {
    ZooKeeperShare a = join("a", 3);
    ZooKeeperShare b = join("b", 1);
    a.publish(wants(50));
    b.publish(wants(50));
    settle("weights 3:1", 6, () -> a.allowed(LINK, 8), SETTLE_MS * 5);
    settle("weights 3:1", 2, () -> b.allowed(LINK, 8), SETTLE_MS);

    server.stop();
    settle("a falls back to 8 / 2", 4, () -> a.allowed(LINK, 8), SESSION_MS * 3);
    settle("b falls back to 8 / 2", 4, () -> b.allowed(LINK, 8), SESSION_MS);
    assertFalse(a.live());
    long t0 = System.nanoTime();
    for (int i = 0; i < 1000; i++) {
      a.publish(wants(40 + i % 7));
      a.allowed(LINK, 8 + i % 3);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms < 500, "1000 calls while ZooKeeper is down return at once: " + ms + " ms");

    server.restart();
    settle("a rejoined", 6, () -> a.allowed(LINK, 8), 15_000);
    settle("b rejoined", 2, () -> b.allowed(LINK, 8), 15_000);
  }

  @Test
  void zooKeeperUnreachableAtStartThenReachable() throws Exception {
    int port = InstanceSpec.getRandomPort();
    try (TestingServer later = new TestingServer(spec(port), false)) {
      ZooKeeperShare a = join("a", 1, later.getConnectString());
      ZooKeeperShare b = join("b", 1, later.getConnectString());
      long t0 = System.nanoTime();
      a.publish(wants(50));
      b.publish(wants(50));
      assertEquals(10, a.allowed(LINK, 10), "nothing seen: as without an arbiter");
      assertTrue((System.nanoTime() - t0) / 1_000_000 < 200, "no call waits for ZooKeeper");
      Thread.sleep(SESSION_MS);
      assertFalse(a.live());
      later.start();
      settle("a joined late", 5, () -> a.allowed(LINK, 10), 15_000);
      settle("b joined late", 5, () -> b.allowed(LINK, 10), SETTLE_MS);
    }
  }

  @Test
  void closingWhileZooKeeperIsDownDoesNotHang() throws Exception {
    ZooKeeperShare a = join("a", 1);
    a.publish(wants(50));
    live(a);
    server.stop();
    long t0 = System.nanoTime();
    a.close();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms <= ZooKeeperShare.CLOSE_WAIT_MS + 300, "close took " + ms + " ms");
    assertEquals(10, a.allowed(LINK, 10), "closed: nobody else seen, the whole window");
  }
}
