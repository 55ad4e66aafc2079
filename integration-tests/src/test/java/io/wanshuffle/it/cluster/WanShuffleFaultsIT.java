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
import io.wanshuffle.spark.coordinator.CoordinatorEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults during gated stages on the loopback two-cluster deployment (maps on cluster A, reduces on
 * cluster B, k = 2): a killed reduce task and a killed executor still give the exact result; with
 * the coordinator gone, executors fall back to ungated fetching after the ask timeout and the job
 * completes; a bad configuration value stops start-up with an error naming key and value.
 */
@ExtendWith(SharedLoopbackCluster.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WanShuffleFaultsIT {
  static SparkCluster cluster;
  static SparkSession spark;
  static JavaSparkContext jsc;
  static CaptureEvents events;
  static JobLayout aToB;
  static Exception badConfError;
  static long badConfSeconds;

  /**
   * How long the first attempt of reduce partition 0 stalls in test 3 unless its executor is
   * killed, ms.
   */
  static final long STALL_MS = 120_000;

  @BeforeAll
  static void start(SparkCluster shared) throws Exception {
    cluster = shared;
    aToB =
        new JobLayout(
            Node.addresses(cluster.testbed().clusterA()),
            Node.addresses(cluster.testbed().clusterB()),
            4,
            4,
            6000);
    // a bad value must stop the driver's start-up (SparkEnv builds the shuffle manager)
    long t0 = System.nanoTime();
    try {
      SparkSession.builder()
          .config(PluginConf.plugin(cluster, "bad-conf").set("spark.wanshuffle.k", "zero"))
          .getOrCreate()
          .stop();
    } catch (Exception e) {
      badConfError = e;
    }
    badConfSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "faults")
                    .set("spark.wanshuffle.coordinator.askTimeout", "5s"))
            .getOrCreate();
    jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    events = CaptureEvents.install(spark.sparkContext());
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  /**
   * Calls {@code action} once, with the task id and host, 300 ms after the first reduce (result)
   * task that {@code which} accepts starts on cluster B.
   */
  private static SparkListener onFirstReduceTask(
      Predicate<TaskInfo> which, BiConsumer<Long, String> action) {
    AtomicReference<Boolean> fired = new AtomicReference<>(false);
    return new SparkListener() {
      @Override
      public void onTaskStart(SparkListenerTaskStart e) {
        if (Node.addresses(cluster.testbed().clusterB()).contains(e.taskInfo().host())
            && which.test(e.taskInfo())
            && fired.compareAndSet(false, true)) {
          long id = e.taskInfo().taskId();
          String host = e.taskInfo().host();
          new Thread(
                  () -> {
                    try {
                      Thread.sleep(
                          300); // inside the gated read: demand registered, waiting or fetching
                    } catch (InterruptedException ie) {
                      return;
                    }
                    action.accept(id, host);
                  },
                  "fault-injector")
              .start();
        }
      }
    };
  }

  private static void assertStepContract(List<WanShuffleStageCaptured> stageEvents)
      throws Exception {
    List<FlowCapture> gated = new ArrayList<>();
    for (WanShuffleStageCaptured e : stageEvents) {
      StageCapture c = CaptureEvents.load(e);
      c.flows().stream().filter(f -> f.stepId() > 0).forEach(gated::add);
    }
    FlowOverlap o = FlowOverlap.of(gated);
    assertTrue(o.maxPairs() <= 2, "at most k flows even with the fault: " + o);
  }

  @Test
  @Order(1)
  void badConfigurationValueStopsStartUpNamingKeyAndValue() {
    assertTrue(badConfError != null, "a SparkSession started with spark.wanshuffle.k=zero");
    StringBuilder chain = new StringBuilder();
    for (Throwable t = badConfError; t != null; t = t.getCause()) {
      chain.append(t).append('\n');
    }
    assertTrue(chain.toString().contains("spark.wanshuffle.k = 'zero'"), chain.toString());
    assertTrue(badConfSeconds < 60, "fails fast, took " + badConfSeconds + " s");
  }

  @Test
  @Order(2)
  void killedReduceTaskIsRetriedAndTheResultIsExact() throws Exception {
    List<Long> killed = new ArrayList<>();
    SparkListener l =
        onFirstReduceTask(
            t -> true,
            (id, host) -> {
              if (spark.sparkContext().killTaskAttempt(id, true, "wan-shuffle fault test")) {
                synchronized (killed) {
                  killed.add(id);
                }
              }
            });
    spark.sparkContext().addSparkListener(l);
    events.clear();
    try {
      assertEquals(ShuffleJobs.groupByKeyOracle(aToB, 21), ShuffleJobs.groupByKey(jsc, aToB, 21));
    } finally {
      spark.sparkContext().removeSparkListener(l);
    }
    synchronized (killed) {
      assertEquals(1, killed.size(), "the fault was injected");
    }
    assertStepContract(events.stages(spark.sparkContext()));
  }

  /**
   * The executor running reduce partition 0 is killed while that task is inside its gated read: the
   * task reads one record and then stalls ({@link ShuffleJobs#reduceByKeyWithStraggler}, first
   * attempt only), so the stage cannot end before the kill, whatever the machine's speed (with a
   * plain job the kill came 300 ms after the first reduce task started and, on a fast run, after
   * the stage had ended). The re-run attempt does not stall; the answer is exact and the step
   * contract holds.
   */
  @Test
  @Order(3)
  void lostExecutorOnTheReceivingClusterAndTheResultIsExact() throws Exception {
    List<String> lost = new ArrayList<>();
    // the first attempt of partition 0 has registered its demand and stalls after its first record
    SparkListener l =
        onFirstReduceTask(
            t -> t.index() == 0 && t.attemptNumber() == 0,
            (id, host) -> {
              if (cluster.killExecutors(host) > 0) {
                synchronized (lost) {
                  lost.add(host);
                }
              }
            });
    spark.sparkContext().addSparkListener(l);
    events.clear();
    try {
      assertEquals(
          ShuffleJobs.reduceByKeyOracle(aToB, 22),
          ShuffleJobs.reduceByKeyWithStraggler(jsc, aToB, 22, STALL_MS));
    } finally {
      spark.sparkContext().removeSparkListener(l);
    }
    synchronized (lost) {
      assertEquals(1, lost.size(), "the executor of the stalled task was killed");
    }
    assertStepContract(events.stages(spark.sparkContext()));
    // the Worker starts a replacement executor, so the application carries on
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
    assertEquals(ShuffleJobs.reduceByKeyOracle(aToB, 23), ShuffleJobs.reduceByKey(jsc, aToB, 23));
  }

  /**
   * The executor of a map host on cluster A is killed as the first reduce task starts: its map
   * output is gone (no external shuffle service), so the reduce tasks that still need it fail with
   * a fetch failure, Spark runs the lost maps again and retries the reduce stage. The demands of
   * the failed attempt must not hold flows or stall the retry: the answer is exact, the step
   * contract holds over both attempts, and the next job (after the Worker's replacement executor
   * registered) is gated again with an exact answer.
   */
  @Test
  @Order(4)
  void lostExecutorOnTheSendingClusterRerunsItsMapsAndTheResultIsExact() throws Exception {
    List<String> lost = new ArrayList<>();
    List<Integer> retriedStages = new ArrayList<>();
    String mapHost = aToB.mapHosts().get(0);
    SparkListener kill =
        new SparkListener() {
          private boolean fired;

          @Override
          public synchronized void onTaskStart(SparkListenerTaskStart e) {
            // the first reduce task on cluster B: every map has finished, none of its output was
            // fetched yet
            if (!fired
                && Node.addresses(cluster.testbed().clusterB()).contains(e.taskInfo().host())) {
              fired = true;
              if (cluster.killExecutors(mapHost) > 0) {
                synchronized (lost) {
                  lost.add(mapHost);
                }
              }
            }
          }

          @Override
          public void onStageSubmitted(SparkListenerStageSubmitted e) {
            if (e.stageInfo().attemptNumber() > 0) {
              synchronized (retriedStages) {
                retriedStages.add(e.stageInfo().stageId());
              }
            }
          }
        };
    spark.sparkContext().addSparkListener(kill);
    events.clear();
    // 4 reduce tasks on 2 one-core executors: the second wave reads the lost output after the kill
    JobLayout twoWaves = new JobLayout(aToB.mapHosts(), aToB.reduceHosts(), 4, 4, 20_000);
    long t0 = System.nanoTime();
    try {
      assertEquals(
          ShuffleJobs.reduceByKeyOracle(twoWaves, 25), ShuffleJobs.reduceByKey(jsc, twoWaves, 25));
    } finally {
      spark.sparkContext().removeSparkListener(kill);
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    synchronized (lost) {
      assertEquals(List.of(mapHost), lost, "the executor of a map host was killed");
    }
    synchronized (retriedStages) {
      assertFalse(retriedStages.isEmpty(), "the lost map output made Spark retry a stage");
    }
    assertTrue(
        seconds < 180,
        "the retry must not wait on the failed attempt's demands: " + seconds + " s");
    assertStepContract(events.stages(spark.sparkContext()));
    // the Worker starts a replacement executor; the coordinator grants steps to the next job as
    // before
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
    events.clear();
    assertEquals(ShuffleJobs.reduceByKeyOracle(aToB, 26), ShuffleJobs.reduceByKey(jsc, aToB, 26));
    List<WanShuffleStageCaptured> after = events.stages(spark.sparkContext());
    assertTrue(after.stream().anyMatch(e -> e.stepIds().length > 0), "the next job was gated");
    assertStepContract(after);
  }

  @Test
  @Order(5)
  void unreachableCoordinatorFallsBackToUngatedFetchingAndTheJobCompletes() throws Exception {
    // the coordinator endpoint exists once a shuffle was registered (earlier tests); remove it
    RpcEnv rpc = SparkEnv.get().rpcEnv();
    rpc.stop(rpc.setupEndpointRef(rpc.address(), CoordinatorEndpoint.NAME));
    events.clear();
    long t0 = System.nanoTime();
    assertEquals(ShuffleJobs.reduceByKeyOracle(aToB, 24), ShuffleJobs.reduceByKey(jsc, aToB, 24));
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    assertTrue(seconds < 240, "the job must not hang without its coordinator: " + seconds + " s");
    for (WanShuffleStageCaptured e : events.stages(spark.sparkContext())) {
      for (FlowCapture f : CaptureEvents.load(e).flows()) {
        assertEquals(0, f.stepId(), "no gated flow without a coordinator: " + f);
      }
    }
  }
}
