package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.CoordinatorEndpoint;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.util.RpcUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.Tuple2;

/**
 * The plugin under Spark's own security: {@code spark.authenticate=true} with a shared secret and
 * {@code spark.network.crypto.enabled=true} (AES-based RPC encryption). In local mode the job's
 * tasks run in the driver JVM, so the coordinator is also reached over a real loopback TCP
 * connection from a second, client-mode {@code RpcEnv} built as an executor builds it (same
 * secret): the authenticated, encrypted channel reaches the coordinator's endpoint, which lives on
 * the driver's RpcEnv address (no port of its own), and a client with a wrong secret is refused.
 */
class WanShuffleSecurityLocalTest {
  private static final String SECRET = "wan-shuffle-test-secret-0123456789";
  private static final String WRONG_SECRET = "not-the-application-secret-987654";

  /** Records the task attempt ids of registered demands (instantiated by the coordinator). */
  public static final class Demands implements CoordinatorListener {
    static final List<Long> TASKS = new CopyOnWriteArrayList<>();

    @Override
    public void onDemandRegistered(DemandEvent e) {
      TASKS.add(e.taskAttemptId());
    }
  }

  @TempDir Path dir;

  private SparkConf secured(String manager) throws IOException {
    Path table = Files.writeString(dir.resolve("topology.table"), "127.0.0.1 /siteA/rack1\n");
    return new SparkConf(false)
        .setMaster("local[2]")
        .setAppName("wan-shuffle-security")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.ui.enabled", "false")
        .set("spark.shuffle.manager", manager)
        .set("spark.authenticate", "true")
        .set("spark.authenticate.secret", SECRET)
        .set("spark.network.crypto.enabled", "true")
        .set(Settings.ALGORITHM.key(), "oggp")
        .set(Settings.K.key(), "2")
        .set(Settings.GATHER_WINDOW.key(), "0ms")
        .set(CaptureSettings.LISTENERS.key(), Demands.class.getName())
        .set(ClusterTopology.TABLE_KEY, table.toString());
  }

  private static List<Object> jobs(JavaSparkContext sc) {
    List<Tuple2<Integer, Integer>> data = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      data.add(new Tuple2<>(i % 613, i));
    }
    JavaPairRDD<Integer, Integer> pairs = sc.parallelizePairs(data, 6);
    Map<Integer, Integer> sums = new TreeMap<>(pairs.reduceByKey(Integer::sum, 5).collectAsMap());
    List<Tuple2<Integer, Integer>> sorted =
        pairs
            .mapToPair(t -> new Tuple2<>(t._2() * 7919 % 20011, t._1()))
            .sortByKey(true, 4)
            .collect();
    Map<Integer, Integer> groups = new TreeMap<>();
    for (Tuple2<Integer, Iterable<Integer>> t : pairs.groupByKey(3).collect()) {
      int n = 0;
      for (Integer ignored : t._2()) {
        n++;
      }
      groups.put(t._1(), n);
    }
    return List.of(sums, sorted.toString(), groups);
  }

  /**
   * An executor-like client RpcEnv on loopback. {@code secret} null: the application's secret as an
   * executor of it finds it (in local mode Spark generates the secret and keeps it in the user's
   * Hadoop credentials, where this JVM's SecurityManager finds it); else that secret.
   */
  private static RpcEnv clientEnv(SparkConf driverConf, String secret) {
    SparkConf c = driverConf.clone();
    SecurityManager sm =
        new SecurityManager(
            c,
            Option.empty(),
            org.apache.spark.internal.config.package$.MODULE$.AUTH_SECRET_FILE()) {
          @Override
          public String getSecretKey(String appId) {
            return secret == null ? super.getSecretKey(appId) : secret;
          }
        };
    return RpcEnv.create("wan-shuffle-test-executor", "127.0.0.1", 0, c, sm, true);
  }

  @Test
  void gatedJobUnderAuthenticationAndCryptoEqualsSortAndRpcIsProtected() throws Exception {
    List<Object> expected;
    try (JavaSparkContext sc = new JavaSparkContext(secured("sort"))) {
      expected = jobs(sc);
    }
    try (JavaSparkContext sc = new JavaSparkContext(secured(WanShuffleManager.class.getName()))) {
      assertTrue(SparkEnv.get().shuffleManager() instanceof WanShuffleManager);
      assertEquals(expected, jobs(sc));

      SparkEnv env = SparkEnv.get();
      SparkConf driverConf = env.conf();
      assertEquals("true", driverConf.get("spark.network.crypto.enabled"));
      // the coordinator is an endpoint of the driver's RpcEnv: same address, no port of its own
      RpcEndpointRef local =
          RpcUtils.makeDriverRef(CoordinatorEndpoint.NAME, driverConf, env.rpcEnv());
      assertEquals(env.rpcEnv().address(), local.address());

      WanShuffleConf conf = WanShuffleConf.from(driverConf);
      RpcEnv client = clientEnv(driverConf, null);
      try {
        CoordinatorChannel ch = new CoordinatorChannel(driverConf, client, conf);
        Registered r =
            ch.register(
                    new RegisterDemand(
                        77,
                        0,
                        77,
                        900L,
                        "remote",
                        "hostB",
                        new String[] {"hostA"},
                        new long[] {4096}))
                .get(60, TimeUnit.SECONDS);
        assertTrue(r.gated());
        GrantReply g = ch.await(AwaitGrant.poll(r.demandId())).get(60, TimeUnit.SECONDS);
        assertEquals(GrantReply.Status.GRANT, g.status());
        assertEquals(4096, g.budgets()[0]);
        GrantReply done = CoordinatorCalls.reportFetched(ch, r.demandId(), g, "hostA", 4096, 60);
        assertEquals(GrantReply.Status.FINISHED, done.status());
      } finally {
        client.shutdown();
        client.awaitTermination();
      }

      // a client with the wrong secret cannot reach the coordinator (and does not hang)
      SparkConf shortTimeout = driverConf.clone().set(Settings.ASK_TIMEOUT.key(), "10s");
      RpcEnv intruder = clientEnv(shortTimeout, WRONG_SECRET);
      try {
        CoordinatorChannel bad =
            new CoordinatorChannel(shortTimeout, intruder, WanShuffleConf.from(shortTimeout));
        assertThrows(
            ExecutionException.class,
            () ->
                bad.register(
                        new RegisterDemand(
                            77,
                            0,
                            77,
                            901L,
                            "intruder",
                            "hostB",
                            new String[] {"hostA"},
                            new long[] {1}))
                    .get(120, TimeUnit.SECONDS));
      } finally {
        intruder.shutdown();
        intruder.awaitTermination();
      }
      assertEquals(List.of(900L), Demands.TASKS, "the intruder registered nothing");
    }
  }
}
