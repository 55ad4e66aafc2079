package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.topology.ClusterTopology;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * A local[2] application whose host (127.0.0.1) the topology does not map: lenient, its shuffle
 * runs and the host is reported unmapped on the listener bus; strict, the shuffle fails naming the
 * host and the application stops.
 */
class HostCoverageLocalTest {
  @TempDir Path dir;

  private SparkConf conf(boolean strict) throws IOException {
    Path table = Files.writeString(dir.resolve("topology.table"), "10.9.9.9 /siteA/rack1\n");
    return new SparkConf(false)
        .setMaster("local[2]")
        .setAppName("wan-shuffle-host-coverage-test")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", WanShuffleManager.class.getName())
        .set(ClusterTopology.TABLE_KEY, table.toString())
        .set(Settings.TOPOLOGY_STRICT.key(), Boolean.toString(strict));
  }

  private static long shuffle(JavaSparkContext sc) {
    return sc.parallelize(List.of(1, 2, 3, 4, 5, 6), 3)
        .mapToPair(i -> new Tuple2<>(i % 2, i))
        .reduceByKey(Integer::sum, 2)
        .count();
  }

  @Test
  void lenientTheShuffleRunsAndTheHostIsReportedUnmapped() throws Exception {
    List<SparkListenerEvent> hosts = new CopyOnWriteArrayList<>();
    try (JavaSparkContext sc = new JavaSparkContext(conf(false))) {
      sc.sc()
          .addSparkListener(
              new SparkListener() {
                @Override
                public void onOtherEvent(SparkListenerEvent e) {
                  if (e instanceof WanShuffleTopologyHost) {
                    hosts.add(e);
                  }
                }
              });
      assertEquals(2, shuffle(sc));
      sc.sc().listenerBus().waitUntilEmpty();
    }
    assertEquals(List.of(new WanShuffleTopologyHost("driver", "127.0.0.1", null)), hosts);
  }

  @Test
  void strictTheShuffleFailsNamingTheHostAndTheApplicationStops() throws Exception {
    try (JavaSparkContext sc = new JavaSparkContext(conf(true))) {
      Exception e = assertThrows(Exception.class, () -> shuffle(sc));
      String message = String.valueOf(e.getMessage());
      // the driver's host as Spark names it on this machine: 127.0.0.1, or the address its host
      // name's loopback resolution makes it pick instead
      assertTrue(
          message.matches(
                  "(?s).*executor host [0-9.]+ \\(executor driver\\) is not in the topology.*")
              && message.contains(Settings.TOPOLOGY_STRICT.key() + " is true"),
          message);
      // stopped on a thread of its own: wait until it is no longer the active context
      long until = System.currentTimeMillis() + 30_000;
      while (SparkContext$.MODULE$.getActive().isDefined() && System.currentTimeMillis() < until) {
        Thread.sleep(50);
      }
      assertTrue(sc.sc().isStopped(), "the application stopped");
      assertTrue(SparkContext$.MODULE$.getActive().isEmpty(), "and finished stopping");
    }
  }
}
