package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wanshuffle.it.demo.Captured;
import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.FlowProbe;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.capture.FlowCapture;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Shaped rack uplinks on the network-namespace testbed: two sites of two racks, site A's racks of
 * two hosts behind an uplink at the NIC rate (2:1), site B's of one host. Measured from outside
 * Spark by the link counters: a TCP probe from every A host to every B host fills each A uplink
 * without its 1 s peak passing the uplink's rate; a wan-shuffle run with the testbed's topology
 * file gives the default shuffle's answer, no shaped link's 1 s peak passes its rate, and the flow
 * log keeps the per-link contract ({@link TopologyContract}). On the loopback variant the
 * throughput checks are skipped, visibly.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RackUplinkIT {
  /** Allowed excess of a measured 1 s peak over a link's rate (tbf burst + sampling jitter). */
  static final double MARGIN = 0.06;

  static final TestbedSpec SPEC = RackTopologyIT.SPEC;

  Experiment ex;
  TopologyLinks model;

  @BeforeAll
  void start() {
    String runs = System.getProperty("wanshuffle.it.runDir", "target/it-runs");
    ex = Experiment.start(SPEC, Path.of(runs, "rack-uplinks-" + System.currentTimeMillis()));
    model = TopologyLinks.load(ex.spark().topologyConfig());
  }

  @AfterAll
  void stop() {
    if (ex != null) {
      ex.close();
    }
  }

  private static void assertPeakWithinRate(LinkTrace.Series s) {
    double peak = s.peakBitsPerSecond(1000);
    assertTrue(
        peak <= s.rateBitsPerSecond() * (1 + MARGIN),
        s.link()
            + ": 1 s peak "
            + peak / 1e6
            + " Mbit/s over its rate "
            + s.rateBitsPerSecond() / 1e6
            + " Mbit/s");
  }

  @Test
  @Order(1)
  void eachRackUplinkIsShapedToItsRate() {
    assumeTrue(
        ex.testbed().shaped(), "loopback variant: nothing is shaped, throughput not checked");
    FlowProbe.Measured m =
        FlowProbe.runMeasured(ex.testbed(), 4, System.getProperty("java.class.path"));
    for (String rack : List.of("/A/rack0", "/A/rack1")) {
      LinkTrace.Series up = m.links().of("rack.uplink[" + rack + "]");
      assertEquals(TestbedSpec.DEFAULT_NIC, up.rateBitsPerSecond());
      assertPeakWithinRate(up);
      double secs = (up.epochMillis()[up.epochMillis().length - 1] - up.epochMillis()[0]) / 1000.0;
      assertTrue(
          up.totalBytes() * 8 / secs > 0.5 * up.rateBitsPerSecond(),
          "two hosts at the NIC rate behind an uplink of one NIC's rate fill most of it: "
              + up.totalBytes() * 8 / secs / 1e6
              + " Mbit/s on "
              + up.link());
    }
    assertPeakWithinRate(m.links().of("backbone.out[/A]"));
  }

  @Test
  @Order(2)
  void aShuffleAcrossShapedUplinksKeepsEveryLinkWithinItsRate() {
    List<String> maps = Node.addresses(ex.testbed().mapSide());
    List<String> reduces = Node.addresses(ex.testbed().reduceSide());
    double[][] matrix = new double[maps.size()][reduces.size()];
    for (double[] row : matrix) {
      java.util.Arrays.fill(row, 5e6);
    }
    Map<String, String> plain = ex.baseConf("512m");
    plain.put("spark.shuffle.compress", "false");
    Map<String, String> wan = new LinkedHashMap<>(plain);
    wan.putAll(ex.wanShuffleConf("auto"));
    wan.put("spark.wanshuffle.gate.minBytes", "0");
    RunResult d =
        ex.run("matrix-default", request("matrix-default", plain, maps, reduces, matrix), 0)
            .result()
            .runs()
            .get(0);
    Experiment.Measured w =
        ex.run("matrix-auto", request("matrix-auto", wan, maps, reduces, matrix), 0);
    RunResult r = w.result().runs().get(0);
    assertEquals(
        d.answer(), r.answer(), "wan-shuffle with the topology file: the default's answer");
    List<FlowCapture> gated =
        Captured.read(w.captureDir(), r).flows().stream().filter(f -> f.stepId() > 0).toList();
    Map<String, String> siteOf = new LinkedHashMap<>();
    ex.testbed().workers().forEach(n -> siteOf.put(n.address(), n.cluster()));
    TopologyContract.assertPerLinkContract(gated, model, siteOf);
    if (!ex.testbed().shaped()) {
      return;
    }
    for (LinkTrace.Series s : w.links().series().values()) {
      if (s.rateBitsPerSecond() > 0) {
        assertPeakWithinRate(s);
      }
    }
    for (String rack : List.of("/A/rack0", "/A/rack1")) {
      assertTrue(
          w.links()
                  .of("rack.uplink[" + rack + "]")
                  .bytes(r.reduceStageStartMs(), r.reduceStageEndMs())
              > 5e6,
          "the shuffle left rack " + rack + " through its uplink");
    }
  }

  private static JobRequest request(
      String name,
      Map<String, String> conf,
      List<String> maps,
      List<String> reduces,
      double[][] matrix) {
    return new JobRequest(
        name,
        conf,
        maps,
        reduces,
        "matrix",
        0,
        2 * maps.size(),
        2 * reduces.size(),
        matrix,
        64 * 1024,
        1,
        false,
        0);
  }
}
