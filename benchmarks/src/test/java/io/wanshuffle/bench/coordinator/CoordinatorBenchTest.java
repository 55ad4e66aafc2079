package io.wanshuffle.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.bench.BenchRun;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short {@code bench coordinator} run in-process on small stages (two sites with one rack each,
 * three sites with two racks, one with the last plan granting while the planner is busy): every
 * task's demand is granted in full, no flow of the run ever puts a link (NIC, rack link, backbone
 * side of k flows) above its capacity, and the JSON objects carry the field names. The
 * report carries the fits of the cost against the hosts and links the chart. The contract check
 * itself finds an over-capacity overlap.
 */
class CoordinatorBenchTest {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new String[] {Integer.toString(status), out.toString(), err.toString()};
  }

  /** {@link #run} with short blocks and delays, as the small runs use (options go in any order). */
  private static String[] runShortFlows(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of("--block-ms", "20", "--start-delay", "5", "--end-delay", "2", "--timeout", "120"));
    return run(all.toArray(String[]::new));
  }

  @Test
  void aSmallRunGrantsEveryDemandAndHoldsEveryLinkAtEveryInstant(@TempDir Path dir)
      throws Exception {
    String[] r =
        runShortFlows(
            "coordinator",
            "--mode",
            "inprocess",
            "--hosts",
            "4,3,6",
            "--sites",
            "2,3,2",
            "--racks",
            "1,2,1",
            "--tasks",
            "40",
            "--running",
            "8",
            "--blocks",
            "2",
            "--skew",
            "1",
            "--k",
            "2",
            "--format",
            "json",
            "--out",
            dir.toString(),
            "--report",
            dir.resolve("scale.md").toString(),
            "--plot",
            dir.resolve("scale.png").toString());
    assertEquals("0", r[0], "exit status (1: contract broken)\n" + r[1] + r[2]);
    String md = Files.readString(dir.resolve("scale.md"));
    assertTrue(
        md.contains("| re-plan p99 (ms) |") && md.contains("](scale.png)"),
        "the report has the fits over the two-site runs (8 and 12 hosts) and links the chart: "
            + md);
    assertTrue(Files.size(dir.resolve("scale.png")) > 0);
    List<JsonNode> objects = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : r[1].strip().split("\n")) {
      objects.add(json.readTree(line));
    }
    assertEquals(3, objects.size(), r[1]);
    for (JsonNode o : objects) {
      for (String field :
          List.of(
              "grantLatencyMsP50",
              "grantLatencyMsP99",
              "grantLatencyMsP99AfterFirstWave",
              "firstGrantSeconds",
              "replanMsP99",
              "messagesPerTask",
              "expiredPollsPerTask",
              "driverCpuSeconds",
              "peakHeapMb",
              "makespanOverLowerBound")) {
        assertTrue(o.has(field) && o.get(field).isNumber(), field + " in " + o);
      }
      assertEquals(40, o.get("tasksComplete").asLong(), "every task got all its bytes: " + o);
      assertTrue(
          o.get("expiredPollsPerTask").asDouble() <= o.get("messagesPerTask").asDouble() - 1,
          "a task's expired polls are among its messages, beside its registration: " + o);
      assertEquals(0, o.get("tasksUngated").asLong(), o.toString());
      assertEquals(0, o.get("linkViolations").asLong(), o.toString());
      assertTrue(o.get("flows").asLong() >= 40 * 2 / 2, o.toString());
      assertTrue(o.get("makespanOverLowerBound").asDouble() >= 0.99, o.toString());
      assertTrue(
          o.get("firstGrantSeconds").asDouble() > 0
              && o.get("firstGrantSeconds").asDouble() < o.get("makespanSeconds").asDouble(),
          "the first grant comes after the first launch, within the stage: " + o);
    }
  }

  @Test
  void theLatencyAfterTheFirstWaveCountsOnlyPortsFreedAfterIt(@TempDir Path dir) throws Exception {
    BenchConfig c = twoHostsPerSite();
    StageSpec stage = new StageSpec(c);
    int a0 = stage.indexOf(stage.hosts()[0]);
    int b0 = stage.indexOf(stage.hosts()[2]);
    FlowLog log = new FlowLog();
    log.launched(0);
    log.launched(1_000); // launches go on until t = 1000 ns: every end before counts
    // one site's backbone side (k = 1): ends at 100 and 300, the next grants at 150 and 400 ns
    log.flow(a0, b0, 10, 100);
    log.flow(a0, b0, 150, 300);
    log.flow(a0, b0, 400, 500);
    log.ended(200, true, false);
    log.ended(250, true, false);
    Path f = dir.resolve("log.flows");
    log.write(f);
    FlowLog back = FlowLog.read(f);
    assertEquals(List.of(200L, 250L), java.util.Arrays.stream(back.taskEnds()).boxed().toList());
    double[] all = RunAnalysis.grantLatenciesMs(stage, back, Long.MIN_VALUE);
    assertEquals(2, all.length);
    assertEquals(50e-6, all[0], 1e-12);
    assertEquals(100e-6, all[1], 1e-12);
    // the R-th (2nd) task ended at 250: only the port freed at 300 counts after the first wave
    double[] after = RunAnalysis.grantLatenciesMs(stage, back, back.taskEnds()[c.running() - 1]);
    assertEquals(1, after.length);
    assertEquals(100e-6, after[0], 1e-12);
  }

  /**
   * A warm-up stage three times the measured one's size runs first in the same JVMs, in each mode:
   * the measured stage's figures are its own (its tasks, its flows, its messages), the contract
   * holds in it, and the JSON names the warm-up.
   */
  @Test
  void aWarmUpStageRunsFirstAndOnlyTheMeasuredStageIsCounted(@TempDir Path dir) throws Exception {
    String[] r =
        runShortFlows(
            "coordinator",
            "--mode",
            "inprocess,rpc",
            "--hosts",
            "3",
            "--tasks",
            "20",
            "--running",
            "6",
            "--blocks",
            "2",
            "--k",
            "2",
            "--warmup-tasks",
            "60",
            "--format",
            "json",
            "--out",
            dir.toString());
    assertEquals("0", r[0], "exit status (1: contract broken)\n" + r[1] + r[2]);
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> objects = new ArrayList<>();
    for (String line : r[1].strip().split("\n")) {
      objects.add(json.readTree(line));
    }
    assertEquals(2, objects.size(), r[1]);
    for (JsonNode o : objects) {
      assertEquals(60, o.get("warmupTasks").asInt(), o.toString());
      assertEquals(20, o.get("tasksComplete").asLong(), "the measured stage's tasks: " + o);
      assertEquals(0, o.get("linkViolations").asLong(), o.toString());
      // 20 tasks x 2 blocks, a block granted whole or in a few pieces; the warm-up's 120 blocks
      // counted too would give at least 160 flows and about 4 more messages per task
      assertTrue(o.get("flows").asLong() >= 40 && o.get("flows").asLong() < 80, o.toString());
      assertTrue(o.get("messagesPerTask").asDouble() < 5, o.toString());
      // β auto adopted what the warm-up measured (a few ms here), planning with at least the floor
      assertEquals(
          WanShuffleConf.AUTO_BETA_FLOOR_SECONDS * 1000,
          o.get("betaMs").asDouble(),
          1e-9,
          o.toString());
    }
  }

  @Test
  void theLastPlanGrantingWhileThePlannerIsBusyHoldsTheContract(@TempDir Path dir) {
    String[] r =
        runShortFlows(
            "coordinator",
            "--hosts",
            "6",
            "--tasks",
            "60",
            "--running",
            "12",
            "--k",
            "3",
            "--conf",
            "spark.wanshuffle.planning.replanWait=0",
            "--out",
            dir.toString());
    assertEquals("0", r[0], r[1] + r[2]);
    assertTrue(r[1].contains("contract held"), r[1]);
  }

  @Test
  void theContractCheckFindsALinkAboveItsCapacity(@TempDir Path dir) throws Exception {
    BenchConfig c = twoHostsPerSite();
    StageSpec stage = new StageSpec(c);
    BenchPlatform platform = BenchPlatform.of(stage, dir);
    int a0 = stage.indexOf(stage.hosts()[0]);
    int a1 = stage.indexOf(stage.hosts()[1]);
    int b0 = stage.indexOf(stage.hosts()[2]);
    int b1 = stage.indexOf(stage.hosts()[3]);
    assertTrue(stage.siteOf(a0) == stage.siteOf(a1) && stage.siteOf(b0) != stage.siteOf(a0));
    FlowLog one = new FlowLog();
    one.flow(a0, b0, 0, 100);
    one.flow(a1, b1, 100, 200); // the first ended as this one started
    assertEquals(List.of(), RunAnalysis.violations(platform, one));
    FlowLog two = new FlowLog();
    two.flow(a0, b0, 0, 100);
    two.flow(a1, b1, 50, 200); // k = 1: two flows on the backbone sides at once
    assertTrue(RunAnalysis.violations(platform, two).size() >= 1);
  }

  /** Two sites of two hosts, 4 tasks (2 running), one block each, k = 1, δ = 1, in-process. */
  private static BenchConfig twoHostsPerSite() {
    return new BenchConfig(
        BenchConfig.INPROCESS,
        2,
        2,
        1,
        4,
        2,
        1,
        0,
        1,
        1,
        "auto",
        1_000_000,
        10,
        0,
        0,
        0,
        1,
        1,
        0,
        Map.of());
  }
}
