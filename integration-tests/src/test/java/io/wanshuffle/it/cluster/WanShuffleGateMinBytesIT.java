package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.jobs.JobLayout;
import io.wanshuffle.it.jobs.ShuffleJobs;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spark.wanshuffle.gate.minBytes} on the loopback two-cluster deployment (maps on cluster A, reduces on
 * cluster B, k = 2): in a shuffle whose partition 0 holds about half of the data, the reduce task of partition 0
 * reads its cross-cluster blocks in granted steps, the tasks of the small partitions (about 150 KB each) below
 * the threshold read theirs at once, ungated; the rows are exact and every cross-cluster byte is accounted for.
 */
@ExtendWith(SharedLoopbackCluster.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WanShuffleGateMinBytesIT {
  private static final long MIN_BYTES = 1L << 20;

  static LoopbackCluster cluster;
  static SparkSession spark;
  static CaptureEvents events;

  @BeforeAll
  static void start(LoopbackCluster shared) throws Exception {
    cluster = shared;
    spark = SparkSession.builder().config(PluginConf.plugin(cluster, "gate-min-bytes")
        .set(WanShuffleConf.GATE_MIN_BYTES, "1m")).getOrCreate();
    events = CaptureEvents.install(spark.sparkContext());
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void tasksBelowTheThresholdReadUngatedAndTheOthersInGrantedSteps() throws Exception {
    JobLayout l = new JobLayout(cluster.hosts("clusterA"), cluster.hosts("clusterB"), 8, 40, 20_000);
    events.clear();
    List<String> rows = ShuffleJobs.wideSkewedGroups(JavaSparkContext.fromSparkContext(spark.sparkContext()), l, 41);
    assertEquals(ShuffleJobs.wideSkewedGroupsOracle(l, 41), rows);

    List<FlowCapture> flows = new ArrayList<>();
    for (WanShuffleStageCaptured e : events.stages(spark.sparkContext())) {
      StageCapture c = CaptureEvents.load(e);
      assertEquals(c.totalRegisteredBytes(), c.totalRealisedBytes(), "every cross-cluster byte accounted for");
      flows.addAll(c.flows());
    }
    Map<Long, Long> gatedBytes = new TreeMap<>();
    Map<Long, Long> ungatedBytes = new TreeMap<>();
    for (FlowCapture f : flows) {
      (f.stepId() > 0 ? gatedBytes : ungatedBytes).merge(f.taskAttemptId(), f.bytes(), Long::sum);
    }
    assertFalse(gatedBytes.isEmpty(), "partition 0's task was gated: " + flows);
    assertFalse(ungatedBytes.isEmpty(), "the small partitions' tasks were not gated: " + flows);
    gatedBytes.forEach((task, b) -> {
      assertTrue(b >= MIN_BYTES, "task " + task + " gated with " + b + " B");
      assertFalse(ungatedBytes.containsKey(task), "task " + task + " both gated and ungated");
    });
    ungatedBytes.forEach((task, b) -> assertTrue(b < MIN_BYTES, "task " + task + " ungated with " + b + " B"));
    FlowOverlap o = FlowOverlap.of(flows.stream().filter(f -> f.stepId() > 0).toList());
    assertTrue(o.maxPairs() <= 2, "at most k gated flows: " + o);
  }
}
