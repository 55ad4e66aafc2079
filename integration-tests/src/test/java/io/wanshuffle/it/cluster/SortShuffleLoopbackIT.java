package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.jobs.JobLayout;
import io.wanshuffle.it.jobs.ShuffleJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.TableMapping;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The loopback two-cluster harness with Spark's own {@code sort} shuffle manager: one executor
 * per node on the node's address, map tasks run on the hosts they are pinned to and reduce tasks
 * on cluster B (with the oracle's answers), and Hadoop's TableMapping reads the topology table.
 * (sortByKey and SQL under the sort manager are checked against their oracles in
 * {@code WanShuffleJobsIT}.)
 */
@ExtendWith(SharedLoopbackCluster.class)
class SortShuffleLoopbackIT {
  static LoopbackCluster cluster;
  static SparkSession spark;
  static JavaSparkContext jsc;
  static TaskPlacementListener placement;
  static JobLayout layout;

  @BeforeAll
  static void start(LoopbackCluster shared) throws Exception {
    cluster = shared;
    Path work = cluster.runDir().resolve("app");
    spark = SparkSession.builder().config(Placement.configure(cluster.driverConf("sort-loopback"))
        .set("spark.shuffle.manager", "sort")
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.jars", AppJars.jarOf(ShuffleJobs.class, work).toString())).getOrCreate();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    placement = TaskPlacementListener.install(spark.sparkContext());
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(90));
    layout = new JobLayout(cluster.allHosts(), cluster.hosts("clusterB"), 8, 4, 5000);
  }

  @AfterAll
  static void stop() {
    try {
      if (spark != null) {
        spark.stop();
      }
    } finally {
      spark = null;
    }
  }

  @Test
  void topologyTableMapsEveryNodeToItsClusterRack() throws Exception {
    Configuration hc = new Configuration(false);
    hc.set("net.topology.table.file.name", cluster.topologyFile().toString());
    TableMapping mapping = new TableMapping();
    mapping.setConf(hc);
    List<String> hosts = cluster.allHosts();
    assertEquals(List.of("127.0.1.1", "127.0.1.2", "127.0.2.1", "127.0.2.2"), hosts);
    assertEquals(List.of("/clusterA/rack1", "/clusterA/rack1", "/clusterB/rack1", "/clusterB/rack1"),
        mapping.resolve(hosts));
    assertTrue(Files.readString(cluster.topologyFile()).contains("127.0.2.2 /clusterB/rack1"));
  }

  @Test
  void everyNodeRunsOneExecutorOnItsOwnAddress() {
    Set<String> hosts = new HashSet<>();
    for (var e : spark.sparkContext().statusTracker().getExecutorInfos()) {
      hosts.add(e.host());
    }
    assertTrue(hosts.containsAll(cluster.allHosts()), hosts.toString());
    assertEquals(cluster.allHosts().size() + 1, hosts.size(), "executors plus the driver: " + hosts);
  }

  @Test
  void reduceByKeyMatchesOracleWithMapsEverywhereAndReducesOnClusterB() throws Exception {
    assertEquals(ShuffleJobs.reduceByKeyOracle(layout, 1), ShuffleJobs.reduceByKey(jsc, layout, 1));
    assertEquals(Set.copyOf(cluster.allHosts()), placement.lastJobHosts(spark.sparkContext(), "ShuffleMapTask"));
    assertEquals(Set.copyOf(cluster.hosts("clusterB")), placement.lastJobHosts(spark.sparkContext(), "ResultTask"));
  }

  @Test
  void groupByKeyMatchesOracle() throws Exception {
    JobLayout aToB = new JobLayout(cluster.hosts("clusterA"), cluster.hosts("clusterB"), 4, 4, 5000);
    assertEquals(ShuffleJobs.groupByKeyOracle(aToB, 2), ShuffleJobs.groupByKey(jsc, aToB, 2));
    assertEquals(Set.copyOf(cluster.hosts("clusterA")), placement.lastJobHosts(spark.sparkContext(), "ShuffleMapTask"));
    assertEquals(Set.copyOf(cluster.hosts("clusterB")), placement.lastJobHosts(spark.sparkContext(), "ResultTask"));
  }

  @Test
  void oracleDiffersWhenTheDataDiffers() {
    // guards the comparisons above against a degenerate oracle
    List<String> a = new ArrayList<>(ShuffleJobs.reduceByKeyOracle(layout, 1));
    assertFalse(a.isEmpty());
    assertFalse(a.equals(ShuffleJobs.reduceByKeyOracle(layout, 2)));
  }
}
