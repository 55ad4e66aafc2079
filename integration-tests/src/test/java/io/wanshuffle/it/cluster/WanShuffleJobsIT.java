package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.spark.api.java.JavaSparkContext;
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
 * The plugin's end-to-end contract on a loopback two-cluster deployment (2 + 2 nodes), and the
 * harness itself (topology table read by Hadoop's TableMapping, one executor per node on its own
 * address, map and reduce tasks where they are pinned, under Spark's sort manager): each job's rows
 * under wan-shuffle equal, row by row, the rows of the same job under Spark's {@code sort} manager
 * (which equal the plain-Java oracle), and the capture shows that only cross-cluster pairs were
 * gated, every registered byte was fetched, and at most k = 2 cross-cluster flows in each direction
 * of the backbone (at most δ = 1 per host) were open at any instant. Records are serialised with
 * Kryo in both applications.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(SharedLoopbackCluster.class)
class WanShuffleJobsIT {
  static final int K = 2;
  static final int DELTA = 1;

  /**
   * Both applications serialise the RDD jobs' records with Kryo, as many Spark deployments do (the
   * testbed's TPC-H and trace jobs use Spark's default Java serialisation; SQL rows use Spark's own
   * row serializer either way).
   */
  static final String KRYO = "org.apache.spark.serializer.KryoSerializer";

  static SparkCluster cluster;
  static SparkSession spark;
  static CaptureEvents events;
  static JobLayout layout;

  /** Maps and reduces on both clusters: the shuffle crosses the backbone both ways at once. */
  static JobLayout bothWays;

  /** More than 2000 reduce partitions (HighlyCompressedMapStatus), one of them half of the data. */
  static JobLayout wide;

  static final Map<String, String> clusterOf = new HashMap<>();
  static final Map<String, Function<SparkSession, List<String>>> jobs = new LinkedHashMap<>();
  static final Map<String, List<String>> sortRows = new HashMap<>();
  static final java.util.Set<String> sortExecutorHosts = new java.util.TreeSet<>();
  static final java.util.Set<String> sortMapHosts = new java.util.TreeSet<>();
  static final java.util.Set<String> sortReduceHosts = new java.util.TreeSet<>();

  @BeforeAll
  static void start(SparkCluster shared) throws Exception {
    cluster = shared;
    cluster.testbed().workers().forEach(n -> clusterOf.put(n.address(), n.cluster()));
    // maps on all four nodes, reduces on cluster B: A->B blocks are gated, B->B blocks are not
    layout =
        new JobLayout(
            Node.addresses(cluster.testbed().workers()),
            Node.addresses(cluster.testbed().clusterB()),
            8,
            4,
            4000);
    bothWays =
        new JobLayout(
            Node.addresses(cluster.testbed().workers()),
            Node.addresses(cluster.testbed().workers()),
            8,
            8,
            4000);
    wide =
        new JobLayout(
            Node.addresses(cluster.testbed().workers()),
            Node.addresses(cluster.testbed().clusterB()),
            4,
            2100,
            20_000);
    jobs.put("reduceByKey", s -> ShuffleJobs.reduceByKey(jsc(s), layout, 11));
    jobs.put("bothWays", s -> ShuffleJobs.reduceByKey(jsc(s), bothWays, 16));
    jobs.put("groupByKey", s -> ShuffleJobs.groupByKey(jsc(s), layout, 12));
    jobs.put("sortByKey", s -> ShuffleJobs.sortByKey(jsc(s), layout, 13));
    jobs.put("sql", s -> ShuffleJobs.sqlJoinAggregate(s, 20_000, 100_000, 4));
    jobs.put("cogroup", s -> ShuffleJobs.cogroup(jsc(s), layout, 15));
    jobs.put("wideSkewed", s -> ShuffleJobs.wideSkewedGroups(jsc(s), wide, 19));
    jobs.put("concurrent", s -> concurrentReduceByKeys(jsc(s), 17, 18));
    jobs.put(
        "skewJoin",
        s -> {
          ShuffleJobs.SqlResult r = ShuffleJobs.sqlSkewJoin(s, 400_000, 4);
          assertTrue(r.skewSplit(), "adaptive execution did not split the skewed join partition");
          return r.rows();
        });
    SparkSession sort =
        SparkSession.builder()
            .config(PluginConf.sort(cluster, "jobs-sort").set("spark.serializer", KRYO))
            .getOrCreate();
    try {
      TaskPlacementListener placement = TaskPlacementListener.install(sort.sparkContext());
      cluster.awaitExecutors(sort.sparkContext(), Duration.ofSeconds(120));
      for (var ex : sort.sparkContext().statusTracker().getExecutorInfos()) {
        sortExecutorHosts.add(ex.host());
      }
      for (var e : jobs.entrySet()) {
        sortRows.put(e.getKey(), e.getValue().apply(sort));
        if (e.getKey().equals("reduceByKey")) {
          sortMapHosts.addAll(placement.lastJobHosts(sort.sparkContext(), "ShuffleMapTask"));
          sortReduceHosts.addAll(placement.lastJobHosts(sort.sparkContext(), "ResultTask"));
        }
      }
    } finally {
      sort.stop();
    }
    Path eventLogs = java.nio.file.Files.createDirectories(cluster.runDir().resolve("event-logs"));
    spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "jobs-wanshuffle")
                    .set("spark.serializer", KRYO)
                    .set(
                        "spark.scheduler.mode",
                        "FAIR") // the default pool stays FIFO; see concurrentReduceByKeys
                    .set("spark.eventLog.enabled", "true")
                    .set("spark.eventLog.compress", "false") // read back while the application runs
                    .set("spark.eventLog.dir", eventLogs.toUri().toString()))
            .getOrCreate();
    events = CaptureEvents.install(spark.sparkContext());
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
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

  static JavaSparkContext jsc(SparkSession s) {
    return JavaSparkContext.fromSparkContext(s.sparkContext());
  }

  /**
   * Two reduceByKey jobs submitted at once from two threads of the application, each in its own
   * scheduler pool (the wan-shuffle application runs Spark's FAIR scheduler; the sort one FIFO,
   * where they run one after the other), so that their reduce stages share cluster B's cores and
   * read across the backbone at the same time; rows prefixed with the job's seed.
   */
  static List<String> concurrentReduceByKeys(JavaSparkContext jsc, long seed1, long seed2) {
    java.util.concurrent.CompletableFuture<List<String>> first =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> inPool(jsc, "job" + seed1, () -> ShuffleJobs.reduceByKey(jsc, layout, seed1)));
    java.util.concurrent.CompletableFuture<List<String>> second =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> inPool(jsc, "job" + seed2, () -> ShuffleJobs.reduceByKey(jsc, layout, seed2)));
    List<String> rows = new java.util.ArrayList<>();
    first.join().forEach(r -> rows.add(seed1 + ":" + r));
    second.join().forEach(r -> rows.add(seed2 + ":" + r));
    return rows;
  }

  private static <T> T inPool(
      JavaSparkContext jsc, String pool, java.util.function.Supplier<T> job) {
    jsc.setLocalProperty("spark.scheduler.pool", pool);
    try {
      return job.get();
    } finally {
      jsc.setLocalProperty("spark.scheduler.pool", null);
    }
  }

  /** Runs the job under wan-shuffle, compares rows, checks the captures of its stages. */
  private List<StageCapture> runAndCheck(String job, List<String> oracle) throws Exception {
    assertEquals(oracle, sortRows.get(job), "sort manager vs oracle");
    events.clear();
    List<String> rows = jobs.get(job).apply(spark);
    assertEquals(sortRows.get(job).size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(sortRows.get(job).get(i), rows.get(i), "row " + i);
    }
    List<WanShuffleStageCaptured> stageEvents = events.stages(spark.sparkContext());
    assertFalse(stageEvents.isEmpty(), "no capture event for a shuffle with cross-cluster blocks");
    List<StageCapture> captures = new java.util.ArrayList<>();
    for (WanShuffleStageCaptured e : stageEvents) {
      StageCapture c = CaptureEvents.load(e);
      captures.add(c);
      assertArrayEquals(e.registeredBytes(), c.registeredBytes(), "event and file agree");
      checkOnlyCrossClusterPairs(c);
      GatedStages.assertGatedWithinDelta(c, DELTA);
      // the gated flows: a stage ungated while it ran (its tasks set its pace) fetches the rest at
      // once, as Spark does
      assertAtMostKPerDirection(c.flows().stream().filter(f -> f.stepId() > 0).toList());
    }
    return captures;
  }

  /**
   * At most k flows open at once in each direction of the full-duplex backbone (A to B, B to A); a
   * stage whose reduce tasks Spark placed on both clusters may have k each way.
   */
  private static void assertAtMostKPerDirection(List<FlowCapture> flows) {
    Map<String, List<FlowCapture>> byDirection = new java.util.TreeMap<>();
    for (FlowCapture f : flows) {
      byDirection
          .computeIfAbsent(
              clusterOf.get(f.srcHost()) + "->" + clusterOf.get(f.dstHost()),
              d -> new java.util.ArrayList<>())
          .add(f);
    }
    byDirection.forEach(
        (d, fs) -> {
          FlowOverlap o = FlowOverlap.of(fs);
          assertTrue(o.maxPairs() <= K, "at most k flows " + d + ": " + o);
        });
  }

  private static void checkOnlyCrossClusterPairs(StageCapture c) {
    long cross = 0;
    for (int i = 0; i < c.hosts().size(); i++) {
      for (int j = 0; j < c.hosts().size(); j++) {
        if (c.registeredBytes()[i][j] > 0 || c.realisedBytes()[i][j] > 0) {
          String src = c.hosts().get(i);
          String dst = c.hosts().get(j);
          assertNotEquals(
              clusterOf.get(src),
              clusterOf.get(dst),
              "same-cluster pair gated: " + src + " -> " + dst);
          cross += c.registeredBytes()[i][j];
        }
      }
    }
    assertTrue(cross > 0, "stage " + c.stageId() + " registered no cross-cluster bytes");
    for (FlowCapture f : c.flows()) {
      assertNotEquals(clusterOf.get(f.srcHost()), clusterOf.get(f.dstHost()), "flow " + f);
    }
  }

  @Test
  @Order(0)
  void topologyTableMapsEveryNodeToItsClusterRack() throws Exception {
    org.apache.hadoop.conf.Configuration hc = new org.apache.hadoop.conf.Configuration(false);
    hc.set("net.topology.table.file.name", cluster.topologyTable().toString());
    org.apache.hadoop.net.TableMapping mapping = new org.apache.hadoop.net.TableMapping();
    mapping.setConf(hc);
    List<String> hosts = Node.addresses(cluster.testbed().workers());
    assertEquals(List.of("127.0.1.11", "127.0.1.12", "127.0.2.11", "127.0.2.12"), hosts);
    assertEquals(List.of("/A/rack0", "/A/rack0", "/B/rack0", "/B/rack0"), mapping.resolve(hosts));
  }

  @Test
  @Order(0)
  void harnessRanOneExecutorPerNodeAndPlacedMapsAndReducesAsPinned() {
    // executors plus the driver (on the control host)
    java.util.Set<String> expected =
        new java.util.TreeSet<>(Node.addresses(cluster.testbed().workers()));
    expected.add(cluster.testbed().control().address());
    assertEquals(expected, sortExecutorHosts);
    assertEquals(
        java.util.Set.copyOf(Node.addresses(cluster.testbed().workers())),
        sortMapHosts,
        "map tasks on all nodes");
    assertEquals(
        java.util.Set.copyOf(Node.addresses(cluster.testbed().clusterB())),
        sortReduceHosts,
        "reduce tasks on B");
  }

  @Test
  @Order(0)
  void oraclesDependOnTheData() {
    assertFalse(ShuffleJobs.reduceByKeyOracle(layout, 11).isEmpty());
    assertNotEquals(
        ShuffleJobs.reduceByKeyOracle(layout, 11), ShuffleJobs.reduceByKeyOracle(layout, 12));
    assertNotEquals(
        ShuffleJobs.sortByKeyOracle(layout, 13), ShuffleJobs.sortByKeyOracle(layout, 14));
  }

  @Test
  @Order(1)
  void reduceByKey() throws Exception {
    List<StageCapture> caps = runAndCheck("reduceByKey", ShuffleJobs.reduceByKeyOracle(layout, 11));
    for (StageCapture c : caps) {
      for (FlowCapture f : c.flows()) {
        assertEquals("A", clusterOf.get(f.srcHost()));
        assertEquals("B", clusterOf.get(f.dstHost()));
      }
    }
  }

  @Test
  @Order(2)
  void groupByKey() throws Exception {
    runAndCheck("groupByKey", ShuffleJobs.groupByKeyOracle(layout, 12));
  }

  @Test
  @Order(3)
  void sortByKey() throws Exception {
    runAndCheck("sortByKey", ShuffleJobs.sortByKeyOracle(layout, 13));
  }

  @Test
  @Order(4)
  void sqlJoinAndAggregationWithAqe() throws Exception {
    runAndCheck("sql", ShuffleJobs.sqlJoinAggregateOracle(20_000, 100_000));
  }

  /**
   * Two gated shuffles in one reduce task (CoGroupedRDD reads shuffle 0 to the end, then shuffle
   * 1): both shuffles' stages are captured with every byte in granted steps and at most k flows,
   * and the job ends well within the method's timeout (a reader waiting on its other shuffle does
   * not hold the task until {@code grant.maxWait}).
   */
  @Test
  @Order(5)
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void cogroupReadsTwoGatedShufflesInOneTask() throws Exception {
    List<StageCapture> caps = runAndCheck("cogroup", ShuffleJobs.cogroupOracle(layout, 15));
    java.util.Set<Integer> shuffles = new java.util.TreeSet<>();
    for (StageCapture c : caps) {
      for (int id : c.shuffleIds()) {
        shuffles.add(id);
      }
    }
    assertTrue(shuffles.size() >= 2, "both shuffles gated in the reduce stage: " + shuffles);
  }

  /**
   * Adaptive execution splits the skewed partition of a join: several reduce tasks read one reduce
   * partition, each from a range of map outputs (getReader with map indices). Each such task
   * registers the bytes of its range only, and every registered byte is fetched in granted steps
   * (checked per stage by runAndCheck).
   */
  @Test
  @Order(6)
  void sqlSkewJoinSplitByAdaptiveExecution() throws Exception {
    runAndCheck("skewJoin", ShuffleJobs.sqlSkewJoinOracle(400_000));
  }

  /**
   * 2100 reduce partitions, one of them about half of every map output: Spark announces each map
   * output's non-empty blocks at their average size (HighlyCompressedMapStatus above 2000
   * partitions), so the plan's byte counts are far off for the big block (its real size is about a
   * thousand times the average) and right in total only roughly. The answer is exact, every
   * registered byte is fetched and counted once, in granted steps within k and δ (runAndCheck)
   * until the coordinator ungates the stage (on loopback its 2100 tasks, not the links, set its
   * pace: {@code gate.ungateTaskBound}), and the stage does not wait for bytes that the announced
   * sizes promised.
   */
  @Test
  @Order(6)
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void moreThan2000PartitionsWithOneBlockFarAboveTheAnnouncedSize() throws Exception {
    runAndCheck("wideSkewed", ShuffleJobs.wideSkewedGroupsOracle(wide, 19));
  }

  /**
   * Maps and reduces on both clusters: one stage fetches A to B and B to A at once. Both directions
   * are gated (every cross-cluster byte in granted steps), at most k flows each way (the backbone
   * is full duplex; checked by runAndCheck), same-cluster blocks ungated, and the answer is exact.
   */
  @Test
  @Order(6)
  void reduceByKeyWithMapsAndReducesOnBothClusters() throws Exception {
    List<StageCapture> caps = runAndCheck("bothWays", ShuffleJobs.reduceByKeyOracle(bothWays, 16));
    java.util.Set<String> directions = new java.util.TreeSet<>();
    for (StageCapture c : caps) {
      for (FlowCapture f : c.flows()) {
        directions.add(clusterOf.get(f.srcHost()) + "->" + clusterOf.get(f.dstHost()));
      }
    }
    assertEquals(
        java.util.Set.of("A->B", "B->A"),
        directions,
        "gated flows in both directions of the backbone");
  }

  /**
   * Two jobs submitted at once from two threads of one application, in two FAIR scheduler pools:
   * the rows of both are exact, each reduce stage is captured with every byte in granted steps
   * (runAndCheck), and the flows of both together never exceed k per direction of the backbone.
   * Whether the two small reduce stages overlap in time depends on when each job's map stage ends;
   * the coordinator's handling of stages that run at once is tested deterministically by {@code
   * StepCoordinatorTest.twoStagesAtOnceShareKAndTheEndOfOneReleasesOnlyItsDemands}.
   */
  @Test
  @Order(6)
  void twoJobsSubmittedAtOnceGiveExactRowsWithinK() throws Exception {
    List<String> oracle = new java.util.ArrayList<>();
    ShuffleJobs.reduceByKeyOracle(layout, 17).forEach(r -> oracle.add("17:" + r));
    ShuffleJobs.reduceByKeyOracle(layout, 18).forEach(r -> oracle.add("18:" + r));
    List<StageCapture> caps = runAndCheck("concurrent", oracle);
    assertTrue(caps.size() >= 2, "both jobs' reduce stages captured: " + caps.size());
    List<FlowCapture> all = caps.stream().flatMap(c -> c.flows().stream()).toList();
    assertAtMostKPerDirection(all);
  }

  @Test
  @Order(7)
  void applicationFlowLogNeverHadMoreThanKFlowsOpen() throws Exception {
    Path app =
        CaptureFiles.appDir(
            cluster.runDir().resolve("capture"), spark.sparkContext().applicationId());
    List<FlowCapture> log = CaptureFiles.readFlowLog(app.resolve(CaptureFiles.FLOW_LOG));
    List<FlowCapture> gated = log.stream().filter(f -> f.stepId() > 0).toList();
    assertFalse(gated.isEmpty());
    FlowOverlap o = FlowOverlap.of(gated);
    assertAtMostKPerDirection(gated);
    assertTrue(o.maxPairs() >= 1);
    // the matrix CSV of every captured stage is there for ./wan-shuffle plan
    for (StageCapture c : CaptureFiles.readStages(app)) {
      var m =
          CaptureFiles.readMatrix(
              app.resolve("stage-" + c.stageId() + "." + c.stageAttempt() + ".matrix.csv"));
      assertEquals(c.totalRegisteredBytes(), m.total());
    }
  }

  @Test
  @Order(8)
  void captureEventsLandInTheEventLog() throws Exception {
    spark.sparkContext().listenerBus().waitUntilEmpty();
    Path dir = cluster.runDir().resolve("event-logs");
    List<String> lines = new java.util.ArrayList<>();
    // one file <app>.inprogress, or eventlog_v2_<app>/events_<n>_<app> when rolling is on
    try (var files = java.nio.file.Files.walk(dir)) {
      for (Path f :
          files
              .filter(java.nio.file.Files::isRegularFile)
              .filter(
                  p -> p.getFileName().toString().contains(spark.sparkContext().applicationId()))
              .toList()) {
        lines.addAll(java.nio.file.Files.readAllLines(f));
      }
    }
    List<WanShuffleStageCaptured> logged = new java.util.ArrayList<>();
    int steps = 0;
    for (String l : lines) {
      if (l.contains("\"Event\":\"io.wanshuffle.spark.capture.")) {
        var e = org.apache.spark.util.JsonProtocol.sparkEventFromJson(l);
        if (e instanceof WanShuffleStageCaptured s) {
          logged.add(s);
        } else {
          steps++;
        }
      }
    }
    // the reduce stages of the jobs run so far (at least four), with the matrices the capture files
    // hold
    assertTrue(logged.size() >= 4, "stage events in the event log: " + logged.size());
    assertTrue(steps >= logged.size(), "step events in the event log: " + steps);
    for (WanShuffleStageCaptured e : logged) {
      assertArrayEquals(CaptureEvents.load(e).registeredBytes(), e.registeredBytes());
    }
  }
}
