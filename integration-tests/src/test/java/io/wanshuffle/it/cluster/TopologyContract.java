package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.links.LinkFlows;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.links.WindowBound;
import io.wanshuffle.it.net.LoopbackTestbed;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The loopback topology tests' harness: a {@link SparkCluster} on a {@link LoopbackTestbed} of a
 * given shape (racks, sites), a wan-shuffle application given the testbed's topology file ({@link
 * PluginSettings#topology}) whose jobs' rows are checked against their oracles (the rows Spark's
 * sort shuffle gives, computed without Spark: {@link ShuffleJobs}), and the per-link contract
 * checked from that application's flow log ({@link LinkFlows} over the topology file's links).
 */
final class TopologyContract implements AutoCloseable {
  final SparkCluster cluster;
  final TopologyLinks model;
  final JobLayout layout;
  final Map<String, String> siteOf = new LinkedHashMap<>();
  private SparkSession wan;

  /**
   * Starts Spark on a loopback testbed of {@code spec}; maps on the map sites' hosts (two tasks
   * each), reduces on site B's (two each).
   */
  TopologyContract(TestbedSpec spec, String name) {
    Path runDir =
        Path.of(System.getProperty("wanshuffle.it.runDir", "target/it-runs"))
            .resolve(name + "-" + System.currentTimeMillis());
    cluster =
        SparkCluster.start(
            LoopbackTestbed.start(spec), SparkHome.locate(), runDir, ClusterOptions.defaults());
    model = TopologyLinks.load(cluster.topologyConfig());
    cluster.testbed().workers().forEach(n -> siteOf.put(n.address(), n.cluster()));
    List<String> maps = Node.addresses(cluster.testbed().mapSide());
    List<String> reduces = Node.addresses(cluster.testbed().reduceSide());
    layout = new JobLayout(maps, reduces, 2 * maps.size(), 2 * reduces.size(), 20_000);
  }

  /** The jobs, by name: a reduceByKey and a groupByKey (payloads) from the map sites into B. */
  List<String> run(String job, SparkSession s) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(s.sparkContext());
    return switch (job) {
      case "reduceByKey" -> ShuffleJobs.reduceByKey(jsc, layout, 31);
      case "groupByKey" -> ShuffleJobs.groupByKey(jsc, layout, 32);
      default -> throw new IllegalArgumentException(job);
    };
  }

  /** Starts the wan-shuffle application with the testbed's topology file. */
  SparkSession startWanShuffle() throws Exception {
    SparkConf conf = PluginConf.plugin(cluster, "topo-wanshuffle");
    PluginSettings.topology(cluster.topologyTable(), cluster.topologyConfig()).forEach(conf::set);
    wan = SparkSession.builder().config(conf).getOrCreate();
    cluster.awaitExecutors(wan.sparkContext(), Duration.ofSeconds(120));
    return wan;
  }

  /** The rows Spark's sort shuffle gives for a job of {@link #run}, computed without Spark. */
  List<String> oracle(String job) {
    return switch (job) {
      case "reduceByKey" -> ShuffleJobs.reduceByKeyOracle(layout, 31);
      case "groupByKey" -> ShuffleJobs.groupByKeyOracle(layout, 32);
      default -> throw new IllegalArgumentException(job);
    };
  }

  /** Runs a job under wan-shuffle and checks its rows are its oracle's, row by row. */
  void assertOraclesAnswer(String job) {
    List<String> rows = run(job, wan);
    assertEquals(oracle(job), rows, job + ": wan-shuffle's rows are the sort shuffle's");
  }

  /** The wan-shuffle application's stage captures, every stage so far (at least two). */
  List<StageCapture> stages() throws Exception {
    wan.sparkContext().listenerBus().waitUntilEmpty();
    Path app =
        CaptureFiles.appDir(
            cluster.runDir().resolve("capture"), wan.sparkContext().applicationId());
    List<StageCapture> stages = List.of();
    for (int attempt = 0; attempt < 60; attempt++) {
      // capture files are written by a background thread after the stage's event
      stages = java.nio.file.Files.isDirectory(app) ? CaptureFiles.readStages(app) : List.of();
      if (stages.size() >= 2) {
        break;
      }
      Thread.sleep(500);
    }
    return stages;
  }

  /** The wan-shuffle application's gated flows (step id &gt; 0), every stage so far. */
  List<FlowCapture> gatedFlows() throws Exception {
    List<FlowCapture> out = new ArrayList<>();
    stages().forEach(c -> c.flows().stream().filter(f -> f.stepId() > 0).forEach(out::add));
    return out;
  }

  /**
   * The plugin planned on the testbed's links: every stage capture records the links of its routes
   * with the capacities in flows the topology file gives them, rack links among them when the
   * testbed has racks of their own.
   *
   * @return every link the plugin recorded, by name, to its capacity in flows
   */
  Map<String, Integer> assertPluginPlansOnTheTestbedsLinks() throws Exception {
    Map<String, Integer> seen = new TreeMap<>();
    for (StageCapture c : stages()) {
      assertTrue(c.hasLinks(), "stage " + c.stageId() + " recorded its links");
      c.links().forEach(l -> seen.put(l.link(), l.capacityFlows()));
    }
    assertFalse(seen.isEmpty(), "the plugin recorded links");
    seen.forEach(
        (link, capacity) ->
            assertEquals(
                model.capacityFlows(link),
                capacity,
                link + ": the plugin's capacity is the topology file's"));
    return seen;
  }

  /**
   * The per-link contract from the flow log: only cross-site pairs are gated, and no link (NIC,
   * rack uplink or downlink, backbone side) carries more flows at once than its window may reach
   * (its capacity in flows, its rate over the topology file's base speed, for NICs; the adaptive
   * window rule's bound for backbone and rack links, {@link WindowBound#mostFlows}), a flow holding
   * every link of its route from its start until it handed its ports back.
   *
   * @return the most flows on each link
   */
  Map<String, Integer> assertPerLinkContract(List<FlowCapture> gated) {
    return assertPerLinkContract(gated, model, siteOf);
  }

  /**
   * The per-link contract of {@link #assertPerLinkContract(List)} on any testbed.
   *
   * @param gated the gated flows of an application
   * @param model the testbed's links
   * @param siteOf every worker host's site
   * @return the most flows on each link
   */
  static Map<String, Integer> assertPerLinkContract(
      List<FlowCapture> gated, TopologyLinks model, Map<String, String> siteOf) {
    assertFalse(gated.isEmpty(), "the plugin gated cross-site flows");
    for (FlowCapture f : gated) {
      assertTrue(
          !siteOf.get(f.srcHost()).equals(siteOf.get(f.dstHost())),
          "only cross-site pairs are gated: " + f);
    }
    Map<String, Integer> max = LinkFlows.maxFlows(gated, model);
    max.forEach(
        (link, n) -> {
          int capacity = model.capacityFlows(link);
          int window = WindowBound.mostFlows(link, capacity, true, true);
          assertTrue(
              n <= window,
              link
                  + ": "
                  + n
                  + " flows at once, capacity "
                  + capacity
                  + ", most its adaptive window reaches "
                  + window);
        });
    return max;
  }

  @Override
  public void close() {
    try {
      if (wan != null) {
        wan.stop();
      }
    } finally {
      cluster.close();
    }
  }
}
