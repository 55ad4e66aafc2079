package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spark.wanshuffle.gate.minBytes} on the loopback two-cluster deployment (maps on cluster A,
 * reduces on cluster B, k = 2): in a shuffle whose partition 0 holds about half of the data, the
 * reduce task of partition 0 reads its cross-cluster blocks in granted steps, the tasks of the
 * small partitions (about 150 KB each) below the threshold read theirs at once, ungated; the rows
 * are exact and every cross-cluster byte is accounted for. Once with a size (1 MB for every read),
 * once with {@code auto} (the default), whose threshold depends on β and on each read's source
 * hosts.
 */
@ExtendWith(SharedLoopbackCluster.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WanShuffleGateMinBytesIT {
  static SparkCluster cluster;

  @BeforeAll
  static void start(SparkCluster shared) {
    cluster = shared;
  }

  @Test
  void tasksBelowTheThresholdReadUngatedAndTheOthersInGrantedSteps() throws Exception {
    checkGating(
        PluginConf.plugin(cluster, "gate-min-bytes").set(Settings.GATE_MIN_BYTES.key(), "1m"),
        (sources, host) -> 1L << 20);
  }

  @Test
  void theAutomaticThresholdFollowsBetaAndTheReadsSourceHosts() throws Exception {
    // β = 10 ms at 100 Mbit/s: 4 x 0.01 s x 12.5 MB/s = 0.5 MB per step, one step per source host
    // (δ = 1)
    SparkConf conf =
        PluginConf.plugin(cluster, "gate-auto")
            .remove(Settings.GATE_MIN_BYTES.key())
            .set(Settings.BETA.key(), "10ms");
    WanShuffleConf wan = WanShuffleConf.from(conf);
    assertTrue(wan.get(Settings.GATE_MIN_BYTES).is(Settings.AUTO), "auto is the default");
    checkGating(
        conf,
        (sources, host) -> {
          assertEquals(500_000L * sources, wan.gateMinBytes(sources, host));
          return wan.gateMinBytes(sources, host);
        });
  }

  @Test
  void aStagePredictedNotToPayRunsUngatedWithTheSameAnswers() throws Exception {
    // margin 1: no schedule saves all of the default's time, so every stage is predicted not to
    // pay; every read is gated by size (minBytes 0) until the decision releases it
    SparkConf conf =
        PluginConf.plugin(cluster, "gate-margin")
            .set(Settings.GATE_MIN_BYTES.key(), "0")
            .set(Settings.GATE_MARGIN.key(), "1");
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    try {
      CaptureEvents events = CaptureEvents.install(spark.sparkContext());
      cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
      JobLayout l =
          new JobLayout(
              Node.addresses(cluster.testbed().clusterA()),
              Node.addresses(cluster.testbed().clusterB()),
              8,
              40,
              20_000);
      events.clear();
      List<String> rows =
          ShuffleJobs.wideSkewedGroups(
              JavaSparkContext.fromSparkContext(spark.sparkContext()), l, 43);
      assertEquals(ShuffleJobs.wideSkewedGroupsOracle(l, 43), rows);
      List<WanShuffleStageCaptured> stages = events.stages(spark.sparkContext());
      assertFalse(stages.isEmpty());
      for (WanShuffleStageCaptured e : stages) {
        StageCapture c = CaptureEvents.load(e);
        assertTrue(c.steps().isEmpty(), "no step granted: " + c.steps());
        assertTrue(c.network().decision().startsWith("ungated: predicted"), c.network().decision());
        assertTrue(c.network().transferPhaseSeconds() > 0, "the phase is measured ungated too");
        assertFalse(c.flows().isEmpty());
        assertTrue(c.flows().stream().allMatch(f -> f.stepId() == 0), "every flow ungated");
      }
    } finally {
      spark.stop();
    }
  }

  /**
   * Runs the skewed job with {@code conf} and checks that each reduce task was gated exactly when
   * its cross-cluster bytes reached {@code threshold} (of its number of source hosts and its host).
   */
  private static void checkGating(
      SparkConf conf, java.util.function.BiFunction<Integer, String, Long> threshold)
      throws Exception {
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    try {
      CaptureEvents events = CaptureEvents.install(spark.sparkContext());
      cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
      JobLayout l =
          new JobLayout(
              Node.addresses(cluster.testbed().clusterA()),
              Node.addresses(cluster.testbed().clusterB()),
              8,
              40,
              20_000);
      events.clear();
      List<String> rows =
          ShuffleJobs.wideSkewedGroups(
              JavaSparkContext.fromSparkContext(spark.sparkContext()), l, 41);
      assertEquals(ShuffleJobs.wideSkewedGroupsOracle(l, 41), rows);

      List<FlowCapture> flows = new ArrayList<>();
      for (WanShuffleStageCaptured e : events.stages(spark.sparkContext())) {
        StageCapture c = CaptureEvents.load(e);
        assertEquals(
            c.totalRegisteredBytes(),
            c.totalRealisedBytes(),
            "every cross-cluster byte accounted for");
        flows.addAll(c.flows());
      }
      Map<Long, Long> gatedBytes = new TreeMap<>();
      Map<Long, Long> ungatedBytes = new TreeMap<>();
      Map<Long, java.util.Set<String>> sources = new TreeMap<>();
      Map<Long, String> hostOf = new TreeMap<>();
      for (FlowCapture f : flows) {
        (f.stepId() > 0 ? gatedBytes : ungatedBytes).merge(f.taskAttemptId(), f.bytes(), Long::sum);
        sources.computeIfAbsent(f.taskAttemptId(), t -> new java.util.TreeSet<>()).add(f.srcHost());
        hostOf.put(f.taskAttemptId(), f.dstHost());
      }
      assertFalse(gatedBytes.isEmpty(), "partition 0's task was gated: " + flows);
      assertFalse(ungatedBytes.isEmpty(), "the small partitions' tasks were not gated: " + flows);
      gatedBytes.forEach(
          (task, b) -> {
            long min = threshold.apply(sources.get(task).size(), hostOf.get(task));
            assertTrue(b >= min, "task " + task + " gated with " + b + " B, threshold " + min);
            assertFalse(ungatedBytes.containsKey(task), "task " + task + " both gated and ungated");
          });
      ungatedBytes.forEach(
          (task, b) -> {
            long min = threshold.apply(sources.get(task).size(), hostOf.get(task));
            assertTrue(b < min, "task " + task + " ungated with " + b + " B, threshold " + min);
          });
      FlowOverlap o = FlowOverlap.of(flows.stream().filter(f -> f.stepId() > 0).toList());
      assertTrue(o.maxPairs() <= 2, "at most k gated flows: " + o);
    } finally {
      spark.stop();
    }
  }
}
