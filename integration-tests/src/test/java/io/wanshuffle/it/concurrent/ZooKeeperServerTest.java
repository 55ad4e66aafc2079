package io.wanshuffle.it.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.spark.arbiter.LinkDemand;
import io.wanshuffle.spark.arbiter.ZooKeeperShare;
import io.wanshuffle.spark.config.ArbiterSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed's ZooKeeper server (3.9.5, its own JVM) on a loopback host: two drivers' arbiters
 * split a link's window through it, and closing it stops the JVM.
 */
class ZooKeeperServerTest {
  @Test
  void twoArbitersSplitAWindowThroughTheTestbedsServer(@TempDir Path dir) throws Exception {
    Node ctl = new Node("ctl", "A", "127.0.0.1", null);
    try (ZooKeeperServer zk = ZooKeeperServer.start(ctl, dir)) {
      assertTrue(zk.connectString().startsWith("127.0.0.1:"), zk.connectString());
      ConcurrentOptions arbiter = new ConcurrentOptions();
      arbiter.arbiter = ConcurrentOptions.ZOOKEEPER;
      assertEquals(
          Map.of(ArbiterSettings.ZOOKEEPER.key(), zk.connectString()),
          arbiter.appConf(4, 1, true, zk),
          "the wan-shuffle runs get the server's address");
      assertEquals(Map.of(), arbiter.appConf(4, 1, false, zk), "Spark's default runs do not");
      try (ZooKeeperShare a =
              ZooKeeperShare.start(zk.connectString(), "/wan-shuffle/t", "a", 3, 4000, 50);
          ZooKeeperShare b =
              ZooKeeperShare.start(zk.connectString(), "/wan-shuffle/t", "b", 1, 4000, 50)) {
        a.publish(Map.of("l", new LinkDemand(1000, 20)));
        b.publish(Map.of("l", new LinkDemand(1000, 20)));
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline
            && !(a.allowed("l", 8) == 6 && b.allowed("l", 8) == 2)) {
          Thread.sleep(20);
        }
        assertEquals(6, a.allowed("l", 8), "weight 3 of 4");
        assertEquals(2, b.allowed("l", 8), "weight 1 of 4");
      }
      assertTrue(
          ZooKeeperServer.classPath(ZooKeeperServer.jars())
              .startsWith(ZooKeeperServer.jars().get(0).toString()),
          "the server's 3.9.5 jars first");
      assertFalse(
          ZooKeeperServer.classPath(ZooKeeperServer.jars()).contains("zookeeper-3.9.4"),
          "Spark's own ZooKeeper left out");
    }
  }
}
