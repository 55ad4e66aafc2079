package io.wanshuffle.it.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.base.Supplier;
import io.trino.tpch.LineItem;
import io.wanshuffle.it.app.AppFigures;
import io.wanshuffle.it.job.TpchAnswer;
import io.wanshuffle.it.job.TpchRunsMain;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.it.spark.YarnCluster;
import io.wanshuffle.it.spark.YarnHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * wan-shuffle on YARN: a ResourceManager and a NodeManager per host on a 2 + 2 namespace testbed,
 * Spark {@value YarnHome#SPARK_VERSION} submitted with {@code spark-submit --master yarn}, the
 * plugin from {@code --jars}, the topology from {@code --files}, dynamic allocation with shuffle
 * tracking and no external shuffle service. The TPC-H join + aggregation ({@link TpchRunsMain})
 * answers as Spark's sort shuffle does ({@link TpchAnswer}), in client and in cluster deploy mode;
 * the plugin's capture keeps at most k gated flows at once each way and no link above its capacity.
 * In client mode, two runs with an idle pause between them: the reduce executors of run 1 are
 * released while idle and new ones acquired for run 2's reduce stage, while the executors holding
 * run 1's map output stay. One YARN cluster for the class; two applications.
 *
 * <p>Needs root and iproute2; {@code -Dwanshuffle.testbed=loopback} runs it on loopback addresses.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class YarnIT {
  static final TestbedSpec SPEC =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);
  static final Duration RUN_TIMEOUT = Duration.ofMinutes(4);

  /** Seconds between the two runs of an application: well past the executor idle timeout. */
  static final String IDLE_SECONDS = "20";

  static final ObjectMapper JSON = new ObjectMapper();

  static Path runs;
  static YarnExperiment ex;

  /** The query's answer under Spark's sort shuffle ({@link TpchAnswer}, its 4 generator parts). */
  static final List<String> sortAnswer = TpchAnswer.of(0.01, 4);

  @BeforeAll
  static void start() throws Exception {
    runs =
        Files.createDirectories(
            Path.of(
                    System.getProperty("wanshuffle.it.runDir", "target/it-runs"),
                    "yarn-" + System.currentTimeMillis())
                .toAbsolutePath());
    if (!Testbed.loopbackRequested()) {
      assertNull(
          NamespaceTestbed.missingPrerequisite(SPEC),
          "the shaped testbed cannot be built here (use -D" + Testbed.MODE_PROPERTY + "=loopback)");
    }
    ex = YarnExperiment.start(SPEC, runs, YarnCluster.Options.defaults(), 1, "client");
  }

  @AfterAll
  static void stop() {
    if (ex != null) {
      Path dir = ex.yarn().runDir();
      ex.close();
      List<String> left =
          ProcessHandle.allProcesses()
              .filter(ProcessHandle::isAlive)
              .map(p -> p.info().commandLine().orElse(""))
              .filter(c -> c.contains(SparkCluster.RUN_DIR_PROPERTY + "=" + dir))
              .toList();
      assertEquals(List.of(), left, "no YARN daemon or container left");
    }
  }

  private static List<String> hosts(List<Node> nodes) {
    return Node.addresses(nodes);
  }

  /** Submits {@link TpchRunsMain} with the plugin; returns the submission and its result file. */
  private static Object[] submitTpch(String name, int nRuns, String mode) throws Exception {
    Path work = runs.resolve("jars");
    Path result = runs.resolve(name + ".result.json");
    Map<String, String> c = ex.clusterConf("512m");
    // the TPC-H generator and the Guava it needs (Spark 4.2's jars have no unshaded Guava)
    List<Path> jars =
        List.of(AppJars.jarOf(LineItem.class, work), AppJars.jarOf(Supplier.class, work));
    PluginSettings.putAll(c, ex.wanShuffleConf("auto"));
    // the query's reads are small: gate every cross-site read
    c.put("spark.wanshuffle.gate.minBytes", "0");
    jars = new java.util.ArrayList<>(jars);
    jars.add(0, YarnHome.pluginJar());
    Submitted s =
        ex.submit(
            name,
            new Submission(
                AppJars.jarOf(TpchRunsMain.class, work),
                TpchRunsMain.class.getName(),
                List.of(
                    result.toString(),
                    Integer.toString(nRuns),
                    IDLE_SECONDS,
                    "0.01",
                    "4",
                    "4",
                    String.join(",", hosts(ex.testbed().clusterA())),
                    String.join(",", hosts(ex.testbed().clusterB()))),
                c,
                jars,
                "768m"),
            RUN_TIMEOUT,
            mode);
    assertNull(
        s.failure(),
        name
            + " failed; end of "
            + s.driverLog()
            + ":\n"
            + SparkCluster.tail(
                Files.exists(s.driverLog()) ? Files.readString(s.driverLog()) : ""));
    return new Object[] {s, JSON.readValue(result.toFile(), TpchRunsMain.Result.class)};
  }

  private static void assertWithinK(Submitted s) throws Exception {
    AppFigures f =
        AppFigures.of(
            "auto",
            1,
            s,
            Set.copyOf(hosts(ex.testbed().mapSide())),
            TopologyLinks.load(ex.topologyConfig()));
    assertTrue(f.k() >= 1 && f.steps() >= 1, "the plugin granted steps: " + f);
    assertTrue(f.gatedAtOnceAToB() >= 1, "gated cross-site flows: " + f);
    assertTrue(f.withinK(), "at most k gated flows at once each way: " + f);
    Double over = f.maxFlowsOverCapacity();
    assertNotNull(over, "a flow log per link: " + f);
    assertTrue(over <= 1.0, "no link above its capacity: " + f.links());
  }

  /**
   * Run 1's reduce executors (on B) were removed between the runs, run 2's reduce tasks ran on
   * executors added after run 1 on B hosts, and the executors of run 1's map tasks (holding its
   * shuffle output) were not removed before run 1 ended.
   */
  private static void assertReleasedAndReacquired(TpchRunsMain.Result r) {
    assertEquals(2, r.runs().size());
    TpchRunsMain.Run one = r.runs().get(0);
    TpchRunsMain.Run two = r.runs().get(1);
    Map<String, TpchRunsMain.Executor> byId =
        r.executors().stream()
            .collect(java.util.stream.Collectors.toMap(TpchRunsMain.Executor::id, e -> e));
    List<String> b = hosts(ex.testbed().clusterB());
    assertFalse(one.reduceExecutors().isEmpty() || two.reduceExecutors().isEmpty(), r.toString());
    for (String id : one.reduceExecutors()) {
      TpchRunsMain.Executor e = byId.get(id);
      assertTrue(b.contains(e.host()), "run 1 reduced on B: " + e);
      assertTrue(
          e.removedMs() >= one.endMs() && e.removedMs() <= two.startMs(),
          "run 1's reduce executor was released while idle between the runs: "
              + e
              + " runs "
              + r.runs());
    }
    for (String id : two.reduceExecutors()) {
      TpchRunsMain.Executor e = byId.get(id);
      assertTrue(b.contains(e.host()), "run 2 reduced on B: " + e);
      assertTrue(
          e.addedMs() > one.endMs(),
          "run 2's reduce executor was acquired after run 1: " + e + " runs " + r.runs());
    }
    for (String id : one.mapExecutors()) {
      TpchRunsMain.Executor e = byId.get(id);
      assertTrue(
          e.removedMs() < 0 || e.removedMs() > one.endMs(),
          "shuffle tracking kept the executor of run 1's map output: " + e);
    }
  }

  @Test
  @Order(1)
  void clientModeAnswersAsTheSortShuffleWithinKAndExecutorsComeAndGo() throws Exception {
    Object[] wan = submitTpch("wan-client", 2, "client");
    TpchRunsMain.Result r = (TpchRunsMain.Result) wan[1];
    assertTrue(r.applicationId().startsWith("application_"), r.applicationId());
    for (TpchRunsMain.Run run : r.runs()) {
      assertEquals(sortAnswer, run.answer(), "wan-shuffle answers as the sort shuffle");
    }
    assertWithinK((Submitted) wan[0]);
    assertReleasedAndReacquired(r);
  }

  @Test
  @Order(2)
  void clusterModeRunsTheDriverInTheApplicationMaster() throws Exception {
    Object[] wan = submitTpch("wan-cluster", 1, "cluster");
    Submitted s = (Submitted) wan[0];
    TpchRunsMain.Result r = (TpchRunsMain.Result) wan[1];
    List<String> expected = sortAnswer;
    assertEquals(1, r.runs().size());
    assertEquals(expected, r.runs().get(0).answer(), "wan-shuffle answers as the sort shuffle");
    List<String> out = Files.readAllLines(s.stdout());
    assertEquals("RUN 1", out.get(0), "the driver's stdout, from its container log: " + out);
    assertEquals(expected, out.subList(1, 1 + expected.size()));
    assertTrue(
        s.driverLog().toString().contains(r.applicationId()), "the AM's log: " + s.driverLog());
    assertWithinK(s);
  }
}
