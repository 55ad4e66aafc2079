package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.Success$;
import org.apache.spark.TaskKilled;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Speculative execution ({@code spark.speculation=true}) of a gated reduce stage on the loopback
 * two-cluster deployment (maps on cluster A, reduces on either B host, k = 2): the first attempt of
 * one reduce task stalls in the middle of its gated read, Spark launches a copy on the other B
 * host, the copy registers its own demand and reads the whole partition through the step gate,
 * Spark kills the straggler, and the result is exact without waiting for the straggler; the stage
 * keeps at most k cross-cluster flows, and the next job runs normally.
 */
@ExtendWith(SharedLoopbackCluster.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WanShuffleSpeculationIT {
  /** How long the straggling attempt would stall if nobody killed it, ms. */
  private static final long STALL_MS = 120_000;

  static SparkCluster cluster;
  static SparkSession spark;
  static JavaSparkContext jsc;
  static CaptureEvents events;
  static JobLayout aToB;

  /**
   * A reduce task attempt that ended: its partition, attempt, whether it was a copy, how it ended.
   */
  record Ended(
      int stageId,
      int partition,
      int attempt,
      long taskId,
      boolean speculative,
      boolean succeeded,
      boolean killed) {}

  static final List<Ended> ended = new ArrayList<>();

  @BeforeAll
  static void start(SparkCluster shared) throws Exception {
    cluster = shared;
    // 4 map tasks per A host, blocks of about 600 KB: a flow (one A host's blocks of a partition)
    // is more than
    // the fetcher may have in flight, so a stalled attempt keeps its granted flow open (lease held)
    // until killed
    aToB =
        new JobLayout(
            Node.addresses(cluster.testbed().clusterA()),
            Node.addresses(cluster.testbed().clusterB()),
            8,
            4,
            300_000);
    spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "speculation")
                    .set("spark.speculation", "true")
                    .set("spark.speculation.interval", "100ms")
                    .set("spark.speculation.quantile", "0.5")
                    .set("spark.speculation.multiplier", "2")
                    .set("spark.speculation.minTaskRuntime", "2s")
                    // copy a task by its run time alone (the stalled attempt's record rate is not
                    // what this test is about)
                    .set("spark.speculation.efficiency.enabled", "false")
                    .set("spark.reducer.maxSizeInFlight", "1m"))
            .getOrCreate();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    events = CaptureEvents.install(spark.sparkContext());
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onTaskEnd(SparkListenerTaskEnd e) {
                if (!Node.addresses(cluster.testbed().clusterB()).contains(e.taskInfo().host())) {
                  return;
                }
                synchronized (ended) {
                  ended.add(
                      new Ended(
                          e.stageId(),
                          e.taskInfo().index(),
                          e.taskInfo().attemptNumber(),
                          e.taskInfo().taskId(),
                          e.taskInfo().speculative(),
                          e.reason() == Success$.MODULE$,
                          e.reason() instanceof TaskKilled));
                }
              }
            });
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void speculativeCopyOfAStalledGatedReadGivesTheExactResultWithoutWaitingForTheStraggler()
      throws Exception {
    events.clear();
    long t0 = System.nanoTime();
    List<String> rows = ShuffleJobs.reduceByKeyWithStraggler(jsc, aToB, 31, STALL_MS);
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    assertEquals(ShuffleJobs.reduceByKeyOracle(aToB, 31), rows);
    assertTrue(
        seconds < STALL_MS / 1000 / 2, "the job waited for the straggler: " + seconds + " s");

    // Spark's listener bus delivers task ends asynchronously; the straggler's kill may come after
    // the job
    List<Ended> partition0 = awaitPartition0Ends();
    Ended copy =
        partition0.stream()
            .filter(e -> e.speculative() && e.succeeded())
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no successful speculative copy of partition 0: " + partition0));
    assertTrue(
        partition0.stream().anyMatch(e -> e.attempt() == 0 && e.killed()),
        "the stalled attempt was killed: " + partition0);

    List<FlowCapture> gated = new ArrayList<>();
    for (WanShuffleStageCaptured e : events.stages(spark.sparkContext())) {
      StageCapture c = CaptureEvents.load(e);
      c.flows().stream().filter(f -> f.stepId() > 0).forEach(gated::add);
    }
    assertTrue(
        gated.stream().anyMatch(f -> f.taskAttemptId() == copy.taskId()),
        "the copy read cross-cluster blocks through the step gate (task "
            + copy.taskId()
            + "): "
            + gated);
    FlowOverlap o = FlowOverlap.of(gated);
    assertTrue(o.maxPairs() <= 2, "at most k flows with two attempts of a partition: " + o);

    // the coordinator holds nothing for the killed attempt: the next gated job runs as usual
    long t1 = System.nanoTime();
    assertEquals(ShuffleJobs.reduceByKeyOracle(aToB, 32), ShuffleJobs.reduceByKey(jsc, aToB, 32));
    assertTrue(
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t1) < 60, "the next job was held up");
  }

  private static List<Ended> awaitPartition0Ends() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      List<Ended> p0;
      synchronized (ended) {
        int stage = ended.stream().mapToInt(Ended::stageId).max().orElse(-1);
        p0 = ended.stream().filter(e -> e.stageId() == stage && e.partition() == 0).toList();
      }
      if (p0.size() >= 2 || System.nanoTime() > deadline) {
        return p0;
      }
      Thread.sleep(100);
    }
  }
}
