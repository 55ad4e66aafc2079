package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.app.GeneratedSort;
import io.wanshuffle.it.job.HoldingJob;
import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkExecutorInfo;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Spark standalone deployments other than a static set of executors with the driver in the client:
 * dynamic allocation with shuffle tracking (executors released when idle and acquired again for the
 * next job, the plugin's coordinator living on the driver across them), executor decommissioning
 * with shuffle block migration, and cluster deploy mode (the driver, and so the step coordinator,
 * launched by a Worker through {@code spark-submit --deploy-mode cluster}, the plugin shipped with
 * {@code --jars}). Both on the loopback two-cluster deployment with k = 2: answers exact, every
 * cross-cluster byte in granted steps, at most k flows at once.
 */
@ExtendWith(SharedLoopbackCluster.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class StandaloneDeploymentsIT {
  static SparkCluster cluster;

  @BeforeAll
  static void start(SparkCluster shared) {
    cluster = shared;
  }

  /**
   * Two jobs with dynamic allocation and shuffle tracking: after the first, every executor goes
   * idle and is released (its shuffle expired after {@code shuffleTracking.timeout}); pending tasks
   * bring executors back for the second. Both jobs' rows are exact and gated within k.
   *
   * <p>Before each job a holding job keeps the executors busy until one runs on every host: with
   * dynamic allocation an executor that registers early would otherwise be released while the
   * others start, and a task whose preferred host has no executor runs anywhere, so the jobs'
   * placement (maps on cluster A, reduces on cluster B) needs every host present when they start.
   */
  @Test
  void dynamicAllocationReleasesAndReacquiresExecutorsAndGatingHolds() throws Exception {
    SparkSession spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "dynamic-allocation")
                    .set("spark.dynamicAllocation.enabled", "true")
                    .set("spark.dynamicAllocation.shuffleTracking.enabled", "true")
                    .set("spark.dynamicAllocation.shuffleTracking.timeout", "2s")
                    .set("spark.dynamicAllocation.minExecutors", "0")
                    .set("spark.dynamicAllocation.initialExecutors", "4")
                    .set("spark.dynamicAllocation.maxExecutors", "4")
                    .set("spark.dynamicAllocation.executorIdleTimeout", "15s")
                    .set("spark.dynamicAllocation.schedulerBacklogTimeout", "1s"))
            .getOrCreate();
    try {
      SparkContext sc = spark.sparkContext();
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
      ExecutorChurn churn = new ExecutorChurn();
      sc.addSparkListener(churn);
      CaptureEvents events = CaptureEvents.install(sc);
      JobLayout l =
          new JobLayout(
              Node.addresses(cluster.testbed().clusterA()),
              Node.addresses(cluster.testbed().clusterB()),
              8,
              6,
              4000);
      holdUntilEveryHostHasAnExecutor(jsc, "first");
      assertEquals(ShuffleJobs.reduceByKeyOracle(l, 31), ShuffleJobs.reduceByKey(jsc, l, 31));
      assertGatedWithinK(events.stages(sc));

      awaitNoExecutors(sc, Duration.ofSeconds(120));
      int added = churn.added.get();
      assertTrue(churn.removed.get() >= 4, "every executor released when idle: " + churn.removed);

      events.clear();
      holdUntilEveryHostHasAnExecutor(jsc, "second");
      assertTrue(churn.added.get() >= added + 4, "executors acquired again: " + churn.added);
      assertEquals(ShuffleJobs.groupByKeyOracle(l, 32), ShuffleJobs.groupByKey(jsc, l, 32));
      assertGatedWithinK(events.stages(sc));
    } finally {
      spark.stop();
    }
  }

  /**
   * Executor decommissioning with shuffle block migration: after a shuffle's map output is written
   * on cluster A, the executors of one host of A are told to decommission (SIGPWR, {@code
   * spark.decommission.enabled}); they migrate their shuffle blocks to peers ({@code
   * spark.storage.decommission.shuffleBlocks.enabled}) and exit. A second action over the same
   * shuffle reads the blocks where they now are (a block that moved to cluster B is read ungated,
   * as same-site; the rest in granted steps): rows exact, within k.
   */
  @Test
  void decommissionedExecutorsShuffleBlocksAreReadWhereTheyMovedWithinK() throws Exception {
    SparkSession spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "decommission")
                    .set("spark.decommission.enabled", "true")
                    .set("spark.storage.decommission.enabled", "true")
                    .set("spark.storage.decommission.shuffleBlocks.enabled", "true")
                    .set("spark.storage.decommission.rddBlocks.enabled", "false"))
            .getOrCreate();
    try {
      SparkContext sc = spark.sparkContext();
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
      ExecutorChurn churn = new ExecutorChurn();
      sc.addSparkListener(churn);
      CaptureEvents events = CaptureEvents.install(sc);
      cluster.awaitExecutors(sc, Duration.ofSeconds(120));
      List<String> a = Node.addresses(cluster.testbed().clusterA());
      JobLayout l = new JobLayout(a, Node.addresses(cluster.testbed().clusterB()), 8, 6, 4000);
      List<String> oracle = sorted(ShuffleJobs.reduceByKeyOracle(l, 41));
      JavaRDD<String> rows = ShuffleJobs.reduceByKeyRows(jsc, l, 41);
      assertEquals(oracle, sorted(rows.collect()));
      assertGatedWithinK(events.stages(sc));

      events.clear();
      assertTrue(cluster.decommissionExecutors(a.get(0)) > 0, "an executor on " + a.get(0));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (churn.removed.get() == 0) {
        assertTrue(System.nanoTime() < deadline, "the decommissioned executor never left");
        Thread.sleep(200);
      }
      // the Worker starts a replacement; the second action needs an executor on every host
      cluster.awaitExecutors(sc, Duration.ofSeconds(120));
      assertEquals(oracle, sorted(rows.collect()), "rows after decommissioning");
      for (WanShuffleStageCaptured e : events.stages(sc)) {
        StageCapture c = CaptureEvents.load(e);
        FlowOverlap o = GatedStages.assertGatedWithinDelta(c, 1);
        assertTrue(o.maxPairs() <= 2, "at most k flows open at once: " + o);
      }
    } finally {
      spark.stop();
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> s = new ArrayList<>(rows);
    s.sort(null);
    return s;
  }

  /**
   * Runs one task per worker host that waits for a marker file, so that dynamic allocation asks for
   * executors and none goes idle until every host has one; then lets the tasks end.
   */
  private static void holdUntilEveryHostHasAnExecutor(JavaSparkContext jsc, String name)
      throws Exception {
    Path marker = cluster.runDir().resolve("hold-" + name);
    int hosts = cluster.testbed().workers().size();
    JavaFutureAction<Long> hold = HoldingJob.start(jsc, hosts, marker, Duration.ofMinutes(3));
    cluster.awaitExecutors(jsc.sc(), Duration.ofSeconds(150));
    Files.writeString(marker, "go");
    assertEquals(hosts, hold.get(60, TimeUnit.SECONDS));
  }

  /**
   * {@code spark-submit --deploy-mode cluster} to the standalone Master: a Worker runs the driver
   * (and the step coordinator in it), the plugin comes with {@code --jars}. The application's
   * answer equals the one it gives with Spark's sort shuffle, submitted the same way, and its
   * capture (written by the driver on the Worker) shows every cross-cluster stage within k.
   */
  @Test
  void clusterDeployModeGivesTheSortShufflesAnswerWithinK() throws Exception {
    Path work = Files.createDirectories(cluster.runDir().resolve("cluster-mode"));
    Path capture = work.resolve("capture");
    String appJar = AppJars.jarOf(GeneratedSort.class, work).toString();
    List<String> sort = clusterModeAnswer("cluster-mode-sort", appJar, Map.of());
    List<String> wan =
        clusterModeAnswer(
            "cluster-mode-wan",
            appJar,
            Map.of(
                "spark.shuffle.manager", PluginConf.MANAGER,
                "spark.wanshuffle.backbone.rate", "200mbit",
                "spark.wanshuffle.nic.rate", "100mbit",
                "spark.wanshuffle.gate.minBytes", "0",
                "spark.wanshuffle.capture.dir", capture.toString()));
    assertEquals("sorted true", sort.get(sort.size() - 1), "the sort shuffle's answer: " + sort);
    assertEquals(sort, wan, "same answer with the plugin in cluster deploy mode");

    List<StageCapture> stages = new ArrayList<>();
    try (Stream<Path> apps = Files.list(capture)) {
      for (Path app : apps.filter(Files::isDirectory).toList()) {
        stages.addAll(CaptureFiles.readStages(app));
      }
    }
    assertFalse(stages.isEmpty(), "the driver on the Worker captured the shuffle's stages");
    for (StageCapture c : stages) {
      if (c.totalRegisteredBytes() > 0) {
        FlowOverlap o = GatedStages.assertGatedWithinDelta(c, 1);
        assertTrue(o.maxPairs() <= 2, "at most k flows open at once: " + o);
      }
    }
  }

  /**
   * Submits {@link GeneratedSort} in cluster deploy mode and waits for it; returns the driver's
   * stdout (its answer) from the Worker's driver folder.
   */
  private static List<String> clusterModeAnswer(
      String name, String appJar, Map<String, String> extra) throws Exception {
    Set<Path> before = driverFolders();
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--master", cluster.masterUrl(), "--deploy-mode", "cluster"));
    args.addAll(List.of("--class", GeneratedSort.class.getName(), "--name", name));
    args.addAll(List.of("--driver-memory", "512m", "--driver-cores", "1"));
    if (extra.containsKey("spark.shuffle.manager")) {
      args.addAll(List.of("--jars", AppJars.pluginJar().toString()));
    }
    for (Map.Entry<String, String> e : cluster.conf("512m").entrySet()) {
      // the driver runs on a Worker's host, not on the control host
      if (!e.getKey().startsWith("spark.driver.")) {
        args.addAll(List.of("--conf", e.getKey() + "=" + e.getValue()));
      }
    }
    args.addAll(List.of("--conf", "spark.standalone.submit.waitAppCompletion=true"));
    extra.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    args.addAll(List.of(appJar, "50000", "8", "92"));
    Path out = cluster.runDir().resolve(name + ".out");
    Process p =
        cluster.sparkSubmit(cluster.testbed().control(), name, List.of("-Xmx256m"), args, out);
    assertTrue(p.waitFor(4, TimeUnit.MINUTES), name + ": spark-submit did not return");
    assertEquals(0, p.exitValue(), name + ": spark-submit failed, see " + cluster.runDir());
    List<Path> fresh = new ArrayList<>(driverFolders());
    fresh.removeAll(before);
    assertEquals(1, fresh.size(), name + ": one new driver folder on the Workers: " + fresh);
    Path stdout = fresh.get(0).resolve("stdout");
    List<String> lines = Files.readAllLines(stdout);
    assertFalse(lines.isEmpty(), name + ": the driver printed no answer; see " + fresh.get(0));
    return lines;
  }

  /** The Workers' driver folders ({@code <host>/work/driver-*}). */
  private static Set<Path> driverFolders() throws Exception {
    try (Stream<Path> s = Files.walk(cluster.runDir(), 3)) {
      return Set.copyOf(
          s.filter(
                  p ->
                      Files.isDirectory(p)
                          && p.getFileName().toString().startsWith("driver-")
                          && p.getParent().getFileName().toString().equals("work"))
              .toList());
    }
  }

  private static void assertGatedWithinK(List<WanShuffleStageCaptured> captured) throws Exception {
    assertFalse(captured.isEmpty(), "the shuffle's stage was captured");
    for (WanShuffleStageCaptured e : captured) {
      StageCapture c = CaptureEvents.load(e);
      assertTrue(c.totalRegisteredBytes() > 0, "cross-cluster bytes registered");
      FlowOverlap o = GatedStages.assertGatedWithinDelta(c, 1);
      assertTrue(o.maxPairs() <= 2, "at most k flows open at once: " + o);
    }
  }

  /** Waits until no executor of the application runs on a worker host. */
  private static void awaitNoExecutors(SparkContext sc, Duration timeout) throws Exception {
    Set<String> workers = Set.copyOf(Node.addresses(cluster.testbed().workers()));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> left = new ArrayList<>();
      for (SparkExecutorInfo e : sc.statusTracker().getExecutorInfos()) {
        if (workers.contains(e.host())) {
          left.add(e.host());
        }
      }
      if (left.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "executors still on " + left + " after " + timeout.toSeconds() + " s idle");
      }
      Thread.sleep(200);
    }
  }

  /** Counts executors added and removed. */
  private static final class ExecutorChurn extends SparkListener {
    final AtomicInteger added = new AtomicInteger();
    final AtomicInteger removed = new AtomicInteger();

    @Override
    public void onExecutorAdded(SparkListenerExecutorAdded e) {
      added.incrementAndGet();
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
      removed.incrementAndGet();
    }
  }
}
