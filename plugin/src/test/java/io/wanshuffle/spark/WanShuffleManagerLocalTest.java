package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorInfo;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The shuffle manager in a local[2] Spark: jobs give exactly the results of Spark's sort shuffle,
 * the coordinator endpoint answers over Spark RPC, a bad value stops start-up naming the key, and
 * an unreachable coordinator fails fast instead of hanging.
 */
class WanShuffleManagerLocalTest {
  /** Listener instantiated by the coordinator from {@code spark.wanshuffle.listeners}. */
  public static final class Probe implements CoordinatorListener {
    static final List<String> EVENTS = new java.util.concurrent.CopyOnWriteArrayList<>();

    public Probe(SparkConf conf) {
      EVENTS.add("new:" + conf.get(Settings.ALGORITHM.key()));
    }

    @Override
    public void onCoordinatorStart(CoordinatorInfo info) {
      EVENTS.add("start:" + (info.sparkContext() != null));
    }

    @Override
    public void onDemandRegistered(DemandEvent e) {
      EVENTS.add("demand:" + e.dstHost() + "<" + e.srcHosts());
    }

    @Override
    public void onStepGranted(StepEvent e) {
      EVENTS.add("step:" + e.flows());
    }

    @Override
    public void onTransferRealised(TransferRecord r) {
      EVENTS.add("realised:" + r.bytes()[0]);
    }
  }

  @TempDir static Path dir;
  static Path table;

  @BeforeAll
  static void topology() throws IOException {
    table =
        Files.writeString(
            dir.resolve("topology.table"), "127.0.0.1 /siteA/rack1\nlocalhost /siteA/rack1\n");
  }

  private static SparkConf base(String manager) {
    return new SparkConf(false)
        .setMaster("local[2]")
        .setAppName("wan-shuffle-local-test")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", manager)
        .set("spark.sql.shuffle.partitions", "4")
        .set(ClusterTopology.TABLE_KEY, table.toString());
  }

  /** The four shuffle shapes: aggregation with map-side combine, without, sort, cogroup. */
  private static List<Object> jobs(JavaSparkContext sc) {
    List<Tuple2<Integer, Integer>> data = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      data.add(new Tuple2<>(i % 997, i));
    }
    JavaPairRDD<Integer, Integer> pairs = sc.parallelizePairs(data, 6);
    Map<Integer, Integer> sums = new TreeMap<>(pairs.reduceByKey(Integer::sum, 5).collectAsMap());
    Map<Integer, List<Integer>> groups = new TreeMap<>();
    for (Tuple2<Integer, Iterable<Integer>> t : pairs.groupByKey(3).collect()) {
      List<Integer> vs = new ArrayList<>();
      t._2().forEach(vs::add);
      vs.sort(null);
      groups.put(t._1(), vs);
    }
    List<Tuple2<Integer, Integer>> sorted =
        pairs
            .mapToPair(t -> new Tuple2<>(t._2() * 7919 % 20011, t._1()))
            .sortByKey(false, 4)
            .collect();
    JavaRDD<Integer> keys = sc.parallelize(List.of(1, 5, 9, 996, 2000), 2);
    List<String> joined = new ArrayList<>();
    for (Tuple2<Integer, Tuple2<Integer, Integer>> t :
        keys.mapToPair(k -> new Tuple2<>(k, -k)).join(pairs.reduceByKey(Math::max, 4)).collect()) {
      joined.add(t._1() + ":" + t._2()._1() + ":" + t._2()._2());
    }
    joined.sort(null);
    return List.of(sums, groups, sorted.toString(), joined);
  }

  /**
   * The README's recipe: the table shipped with {@code --files} ({@code spark.files}) and named by
   * its bare name. The driver's working directory (this module's folder) has no such file; the
   * driver reads Spark's copy.
   */
  @Test
  void aTopologyTableShippedWithFilesIsFoundByItsBareNameOnTheDriver() throws Exception {
    assertFalse(
        Files.exists(Path.of("topology.table")), "the working directory must not hold the table");
    try (JavaSparkContext sc =
        new JavaSparkContext(
            base(WanShuffleManager.class.getName())
                .set("spark.files", table.toString())
                .set(ClusterTopology.TABLE_KEY, "topology.table"))) {
      assertTrue(SparkEnv.get().shuffleManager() instanceof WanShuffleManager);
      assertEquals(
          List.of(new Tuple2<>(0, 3), new Tuple2<>(1, 2)),
          sc.parallelizePairs(
                  List.of(new Tuple2<>(0, 1), new Tuple2<>(1, 2), new Tuple2<>(0, 2)), 2)
              .reduceByKey(Integer::sum, 2)
              .sortByKey()
              .collect());
    }
    // not shipped: start-up fails naming the key, the value and where a relative path is looked for
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                new JavaSparkContext(
                        base(WanShuffleManager.class.getName())
                            .set(ClusterTopology.TABLE_KEY, "topology.table"))
                    .close());
    Throwable c = e;
    while (!(c instanceof io.wanshuffle.spark.config.ConfigValueException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    assertTrue(
        c.getMessage().contains("spark.hadoop.net.topology.table.file.name")
            && c.getMessage().contains("--files"),
        c.getMessage());
  }

  @Test
  void resultsEqualSortShuffleAndTheCoordinatorAnswersOverRpc() throws Exception {
    List<Object> expected;
    try (JavaSparkContext sc = new JavaSparkContext(base("sort"))) {
      expected = jobs(sc);
    }
    try (JavaSparkContext sc =
        new JavaSparkContext(
            base(WanShuffleManager.class.getName())
                .set(Settings.ALGORITHM.key(), "oggp")
                .set(Settings.GATHER_WINDOW.key(), "0ms")
                .set(Settings.K.key(), "1")
                .set(CaptureSettings.LISTENERS.key(), Probe.class.getName())
                .set(Settings.POLL_INTERVAL.key(), "500ms"))) {
      assertTrue(SparkEnv.get().shuffleManager() instanceof WanShuffleManager);
      assertEquals(expected, jobs(sc));
      // the endpoint exists on the driver's RpcEnv and long-polls as documented
      SparkEnv env = SparkEnv.get();
      WanShuffleConf conf = WanShuffleConf.from(env.conf());
      CoordinatorChannel ch = new CoordinatorChannel(env.conf(), env.rpcEnv(), conf);
      Registered r =
          ch.register(
                  new RegisterDemand(
                      99,
                      0,
                      99,
                      123456L,
                      "driver",
                      "hostB",
                      new String[] {"hostA"},
                      new long[] {1000}))
              .get(30, TimeUnit.SECONDS);
      assertTrue(r.gated());
      GrantReply g = ch.await(AwaitGrant.poll(r.demandId())).get(30, TimeUnit.SECONDS);
      assertEquals(GrantReply.Status.GRANT, g.status());
      assertEquals(List.of("hostA"), List.of(g.srcHosts()));
      assertEquals(1000, g.budgets()[0]);
      // k = 1: a second demand waits until the first flow ends; its long-poll expires with NOT_YET
      Registered r2 =
          ch.register(
                  new RegisterDemand(
                      99,
                      0,
                      99,
                      123457L,
                      "driver",
                      "hostD",
                      new String[] {"hostC"},
                      new long[] {500}))
              .get(30, TimeUnit.SECONDS);
      long t0 = System.nanoTime();
      GrantReply wait = ch.await(AwaitGrant.poll(r2.demandId())).get(30, TimeUnit.SECONDS);
      assertEquals(GrantReply.Status.NOT_YET, wait.status());
      assertTrue((System.nanoTime() - t0) / 1e6 >= 400, "held for the poll interval");
      GrantReply done = CoordinatorCalls.reportFetched(ch, r.demandId(), g, "hostA", 1000, 30);
      assertEquals(GrantReply.Status.FINISHED, done.status());
      GrantReply g2 = ch.await(AwaitGrant.poll(r2.demandId())).get(30, TimeUnit.SECONDS);
      assertEquals(GrantReply.Status.GRANT, g2.status(), "granted once the first flow ended");
      ch.release(new ReleaseDemand(r2.demandId(), "test"));
      ch.release(new ReleaseDemand(r.demandId(), "test"));
      assertEquals(
          List.of(
              "new:oggp",
              "start:true",
              "demand:hostB<[hostA]",
              "step:[FlowGrant[srcHost=hostA, dstHost=hostB, bytes=1000]]",
              "demand:hostD<[hostC]",
              "realised:1000",
              "step:[FlowGrant[srcHost=hostC, dstHost=hostD, bytes=500]]"),
          Probe.EVENTS);
    }
  }

  @Test
  void unloadableListenerStopsStartUpNamingTheKey() {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                new JavaSparkContext(
                        base(WanShuffleManager.class.getName())
                            .set(CaptureSettings.LISTENERS.key(), "no.such.Listener"))
                    .close());
    assertTrue(chain(e).contains("spark.wanshuffle.listeners = 'no.such.Listener'"), chain(e));
  }

  private static String chain(Throwable t) {
    StringBuilder messages = new StringBuilder();
    while (t != null) {
      messages.append(t.getMessage()).append('\n');
      t = t.getCause();
    }
    return messages.toString();
  }

  @Test
  void badValueStopsStartUpNamingTheKey() {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                new JavaSparkContext(
                        base(WanShuffleManager.class.getName()).set(Settings.K.key(), "zero"))
                    .close());
    Throwable t = e;
    StringBuilder messages = new StringBuilder();
    while (t != null) {
      messages.append(t.getMessage()).append('\n');
      t = t.getCause();
    }
    assertTrue(messages.toString().contains("spark.wanshuffle.k = 'zero'"), messages.toString());
  }

  @Test
  void unreachableCoordinatorFailsFastInsteadOfHanging() throws Exception {
    try (JavaSparkContext sc = new JavaSparkContext(base("sort"))) {
      SparkEnv env = SparkEnv.get();
      SparkConf wrong = env.conf().clone().set("spark.driver.port", "1");
      WanShuffleConf conf =
          WanShuffleConf.from(
              wrong.set(Settings.ALGORITHM.key(), "oggp").set(Settings.ASK_TIMEOUT.key(), "5s"));
      CoordinatorChannel ch = new CoordinatorChannel(wrong, env.rpcEnv(), conf);
      long t0 = System.nanoTime();
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () ->
                  ch.register(
                          new RegisterDemand(
                              1, 0, 1, 1, "e", "b", new String[] {"a"}, new long[] {1}))
                      .get(60, TimeUnit.SECONDS));
      assertTrue((System.nanoTime() - t0) / 1e9 < 30, "failed after " + (System.nanoTime() - t0));
      assertTrue(e.getCause() != null);
    }
  }
}
