package io.wanshuffle.it.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wanshuffle.it.demo.Captured;
import io.wanshuffle.it.demo.TraceInput;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.job.TpchAnswer;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.FlowProbe;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.PlanCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * End-to-end checks on the shaped two-cluster testbed (2 + 2 hosts, NIC 100 Mbit/s, backbone 200
 * Mbit/s): the backbone really is rate-limited, the TPC-H join and the trace replay give identical
 * answers with Spark's default shuffle and with wan-shuffle, the step contract holds when measured
 * from outside Spark (backbone counters) and from the plugin's flow log (at most k cross-cluster
 * flows at once), a killed executor on the receiving cluster mid-stage does not change the answer,
 * and one application on a second cluster runs with authentication and encryption, two reduce tasks
 * per executor (shared connections, shared flows), map output served by the Workers' external
 * shuffle services and fetches streamed to disk, all at once; and the job runs with nothing typed
 * about the network (the plugin measures β and the rates and converges to the k of the testbed's
 * rates).
 *
 * <p>Needs root and iproute2; without them every test fails with the reason. {@code
 * -Dwanshuffle.testbed=loopback} runs the same jobs on loopback addresses instead (the throughput
 * checks are then skipped, visibly).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoClusterTestbedIT {
  static final double SCALE = 0.01;
  static final String ALGORITHM = "auto";

  /**
   * Allowed excess of the measured 1 s peak over the backbone rate (tbf burst + sampling jitter).
   */
  static final double MARGIN = 0.06;

  Experiment ex;
  TestbedSpec spec =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);
  List<String> defaultAnswer;
  Experiment.Measured optionsRun;
  Path optionsDir;

  @BeforeAll
  void start() {
    String runs = System.getProperty("wanshuffle.it.runDir", "target/it-runs");
    ex = Experiment.start(spec, Path.of(runs, "testbed-" + System.currentTimeMillis()));
  }

  @AfterAll
  void stop() {
    if (ex != null) {
      ex.close();
    }
  }

  private JobRequest tpch(String name, Map<String, String> conf, int kill) {
    return new JobRequest(
        name,
        conf,
        Node.addresses(ex.testbed().clusterA()),
        Node.addresses(ex.testbed().clusterB()),
        "tpch",
        SCALE,
        4,
        4,
        null,
        0,
        1,
        false,
        kill);
  }

  private Map<String, String> wanConf() {
    Map<String, String> c = ex.baseConf("512m");
    c.putAll(ex.wanShuffleConf(ALGORITHM));
    // the tests' TPC-H join is small (about 1 MB per read): gate every read, gating is what is
    // checked
    c.put("spark.wanshuffle.gate.minBytes", "0");
    return c;
  }

  /**
   * The TPC-H join's answer under Spark's sort shuffle ({@link TpchAnswer}: computed without Spark,
   * checked against Spark in its unit test).
   */
  private synchronized List<String> defaultAnswer() {
    if (defaultAnswer == null) {
      defaultAnswer = TpchAnswer.of(SCALE, 4);
      assertEquals(35, defaultAnswer.size(), "5 order priorities x 7 ship modes: " + defaultAnswer);
    }
    return defaultAnswer;
  }

  /**
   * The run's capture shows granted steps and at most k cross-cluster flows open at once.
   *
   * @return the flow log's overlap, for further checks
   */
  private static FlowOverlap assertStepsGrantedWithinK(Experiment.Measured m, RunResult r) {
    Captured c = Captured.read(m.captureDir(), r);
    assertFalse(c.steps().isEmpty(), "cross-cluster blocks were fetched without any granted step");
    FlowOverlap o = c.gatedOverlap();
    assertTrue(
        o.maxPairs() >= 1 && o.maxPairs() <= c.k(),
        "flow log: " + o.maxPairs() + " cross-cluster flows open at once, k = " + c.k());
    return o;
  }

  @Test
  @Order(1)
  void backboneIsRateLimitedAndIsTheBottleneck() {
    assumeTrue(
        ex.testbed().shaped(), "loopback variant: nothing is shaped, throughput not checked");
    BackboneTrace t = FlowProbe.run(ex.testbed(), 4, System.getProperty("java.class.path"));
    double rate = spec.backboneBitsPerSecond();
    assertTrue(
        t.peakBitsPerSecond(1000) <= rate * (1 + MARGIN),
        "peak "
            + t.peakBitsPerSecond(1000) / 1e6
            + " Mbit/s over the "
            + rate / 1e6
            + " Mbit/s backbone");
    double secs = (t.end().epochMillis() - t.start().epochMillis()) / 1000.0;
    assertTrue(
        t.aToBBytes() * 8 / secs > 0.5 * rate,
        "4 flows from 2 hosts at 100 Mbit/s should fill most of the backbone: "
            + t.aToBBytes() * 8 / secs / 1e6);
    // every host runs the spec's TCP congestion control, whatever the machine's default
    for (Node n : ex.testbed().clusterB()) {
      assertEquals(
          spec.tcpCongestionControl(), hostSysctl(n, "net.ipv4.tcp_congestion_control"), n.name());
    }
  }

  /**
   * The executors' {@code stderr} files under {@code dir}; files and folders that vanish during the
   * walk (Spark cleaning up its local directories) are skipped.
   */
  private static List<Path> executorLogs(Path dir) throws java.io.IOException {
    List<Path> logs = new java.util.ArrayList<>();
    Files.walkFileTree(
        dir,
        new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult visitFile(
              Path p, java.nio.file.attribute.BasicFileAttributes a) {
            if (p.getFileName().toString().equals("stderr")) {
              logs.add(p);
            }
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFileFailed(Path p, java.io.IOException e) {
            return java.nio.file.FileVisitResult.CONTINUE; // removed while we walked
          }
        });
    return logs;
  }

  private static String hostSysctl(Node n, String key) {
    try {
      Process p =
          new ProcessBuilder("ip", "netns", "exec", n.namespace(), "sysctl", "-n", key)
              .redirectErrorStream(true)
              .start();
      String out =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .strip();
      assertEquals(0, p.waitFor(), out);
      return out;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  @Order(2)
  void tpchJoinIdenticalWithWanShuffleAndStepContractHolds() {
    List<String> expected = defaultAnswer();
    ex.sampleTcp(ex.testbed().shaped());
    Experiment.Measured m;
    try {
      m = ex.run("tpch-wan", tpch("tpch-wan", wanConf(), 0), 0);
    } finally {
      ex.sampleTcp(false);
    }
    RunResult r = m.result().runs().get(0);
    assertEquals(expected, r.answer());
    // every map output block (all written on A) is read once by a reduce task on B: the exact
    // per-host sums agree
    assertEquals(
        java.util.Arrays.stream(r.senderBytes()).sum(),
        java.util.Arrays.stream(r.receiverBytes()).sum(),
        "shuffle bytes written on A vs remote bytes read on B");
    assertEquals(
        r.remoteBytesRead(),
        r.matrixTotal(),
        2L * r.senders().size() * r.receivers().size(),
        "the run's traffic matrix holds the bytes the reduce tasks read");
    assertFalse(
        Captured.read(m.captureDir(), r).stages().isEmpty(),
        "the plugin captured no cross-cluster stage in " + m.captureDir());
    assertStepsGrantedWithinK(m, r);
    if (ex.testbed().shaped()) {
      double peak = m.backbone().peakBitsPerSecond(1000);
      assertTrue(
          peak <= spec.backboneBitsPerSecond() * (1 + MARGIN),
          "backbone peak " + peak / 1e6 + " Mbit/s");
      long across = m.backbone().aToBBytes(r.reduceStageStartMs(), r.reduceStageEndMs());
      assertTrue(
          across >= 0.9 * r.matrixTotal(),
          "backbone carried "
              + across
              + " bytes of a "
              + r.matrixTotal()
              + "-byte cross-cluster shuffle");
      // the senders' TCP connections to B, sampled with ss, carried the shuffle: at most what the
      // backbone
      // counted (frames), at least most of the shuffle (a connection's bytes before its first
      // sample are missed)
      long acked = m.tcp().bytesAcked();
      assertTrue(
          acked >= 0.8 * r.matrixTotal() && acked <= m.backbone().aToBBytes(),
          "TCP connections A to B"
              + " acknowledged "
              + acked
              + " bytes; shuffle "
              + r.matrixTotal()
              + ", backbone "
              + m.backbone().aToBBytes());
    }
  }

  @Test
  @Order(4)
  void traceReplayIdenticalWithAndWithoutWanShuffle() {
    Path trace =
        TraceInput.locate(null)
            .orElseThrow(() -> new AssertionError(TraceInput.FILE + ": the repository ships it"));
    TraceInput in = TraceInput.largestShuffle(trace, 2, 2, 24e6);
    JobRequest base =
        new JobRequest(
            "trace-default",
            ex.baseConf("512m"),
            Node.addresses(ex.testbed().clusterA()),
            Node.addresses(ex.testbed().clusterB()),
            "matrix",
            0,
            2,
            4,
            in.bytes(),
            32 * 1024,
            1,
            false,
            0);
    RunResult d = ex.run("trace-default", base, 0).result().runs().get(0);
    JobRequest wan =
        new JobRequest(
            "trace-wan",
            wanConf(),
            base.aHosts(),
            base.bHosts(),
            "matrix",
            0,
            2,
            4,
            in.bytes(),
            32 * 1024,
            1,
            false,
            0);
    RunResult w = ex.run("trace-wan", wan, 0).result().runs().get(0);
    assertEquals(4, d.answer().size());
    assertEquals(d.answer(), w.answer());
    long bytes = d.answer().stream().mapToLong(l -> Long.parseLong(l.split("\\|")[2])).sum();
    assertEquals(24e6, bytes, 24e6 * 0.01, "replayed bytes");
  }

  /**
   * The benchmark's warm-up run ({@code e2e-bench --warmup}): a full warm-up is the measured job
   * itself, so with the default {@code gate.minBytes=auto} its reads are gated as the measured
   * run's are and warm the plugin's gated path; a small warm-up's reads (1 MiB per host pair, 2 MiB
   * per reduce task) are below the threshold (5 MB for a read from 2 hosts here) and go ungated.
   * Checked in the plugin's capture: the stages with granted steps.
   */
  @Test
  @Order(5)
  void aFullWarmUpTakesTheGatedPathASmallOneDoesNot() throws IOException {
    Map<String, String> c = ex.baseConf("512m");
    c.putAll(ex.wanShuffleConf(ALGORITHM)); // gate.minBytes: the default, auto
    double[][] m = {{12e6, 12e6}, {12e6, 12e6}};
    for (boolean full : new boolean[] {true, false}) {
      String name = "warmup-" + (full ? "full" : "small");
      JobRequest req =
          new JobRequest(
              name,
              c,
              Node.addresses(ex.testbed().clusterA()),
              Node.addresses(ex.testbed().clusterB()),
              "matrix",
              0,
              2,
              2,
              m,
              64 * 1024,
              1,
              true,
              0,
              full);
      Experiment.Measured r = ex.run(name, req, 0);
      assertEquals(2, r.result().runs().get(0).answer().size());
      List<Integer> gated = stagesWithGrantedSteps(r.captureDir());
      assertEquals(
          full ? 2 : 1, gated.size(), name + ": shuffle stages with granted steps " + gated);
    }
  }

  /**
   * @return the ids of the stages the plugin granted steps in (its stage captures), ascending
   */
  private static List<Integer> stagesWithGrantedSteps(Path captureDir) throws IOException {
    java.util.SortedSet<Integer> stages = new java.util.TreeSet<>();
    try (var apps = Files.list(captureDir)) {
      for (Path app : apps.filter(Files::isDirectory).toList()) {
        for (StageCapture s : CaptureFiles.readStages(app)) {
          if (!s.steps().isEmpty()) {
            stages.add(s.stageId());
          }
        }
      }
    }
    return List.copyOf(stages);
  }

  /**
   * Maps and reduces on both clusters: one reduce stage fetches A to B and B to A at once. The
   * answers with and without wan-shuffle are identical; both directions are gated, with at most k
   * flows open each way (the backbone is full duplex, k is per direction); and, measured on the
   * backbone itself, each direction stays under its rate and carries the cross-cluster bytes the
   * traffic matrix sends that way.
   */
  @Test
  @Order(5)
  void shuffleAcrossTheBackboneBothWaysKeepsEachDirectionWithinItsRate() {
    List<String> a = Node.addresses(ex.testbed().clusterA());
    List<String> b = Node.addresses(ex.testbed().clusterB());
    int n = a.size() + b.size();
    double[][] matrix = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        matrix[i][j] =
            (i < a.size()) == (j < a.size()) ? 1e6 : 3e6; // same cluster 1 MB, across 3 MB
      }
    }
    JobRequest base =
        new JobRequest(
            "both-ways-default",
            ex.baseConf("512m"),
            a,
            b,
            JobRequest.MATRIX_ALL,
            0,
            n,
            n,
            matrix,
            32 * 1024,
            1,
            false,
            0);
    RunResult d = ex.run("both-ways-default", base, 0).result().runs().get(0);
    JobRequest wan =
        new JobRequest(
            "both-ways-wan",
            wanConf(),
            a,
            b,
            JobRequest.MATRIX_ALL,
            0,
            n,
            n,
            matrix,
            32 * 1024,
            1,
            false,
            0);
    Experiment.Measured m = ex.run("both-ways-wan", wan, 0);
    RunResult w = m.result().runs().get(0);
    assertEquals(n, d.answer().size());
    assertEquals(d.answer(), w.answer());
    long bytes = w.answer().stream().mapToLong(l -> Long.parseLong(l.split("\\|")[2])).sum();
    assertEquals(
        java.util.Arrays.stream(matrix).flatMapToDouble(java.util.Arrays::stream).sum(),
        bytes,
        n * n,
        "shuffled bytes");
    Captured c = Captured.read(m.captureDir(), w);
    Map<Boolean, List<FlowCapture>> byDirection =
        c.flows().stream()
            .filter(f -> f.stepId() > 0)
            .collect(java.util.stream.Collectors.partitioningBy(f -> a.contains(f.srcHost())));
    for (boolean fromA : List.of(true, false)) {
      List<FlowCapture> flows = byDirection.get(fromA);
      String way = fromA ? "A to B" : "B to A";
      assertFalse(flows.isEmpty(), "no gated flow " + way);
      flows.forEach(
          f -> assertEquals(fromA, b.contains(f.dstHost()), "flow within a cluster gated: " + f));
      int open = FlowOverlap.of(flows).maxPairs();
      assertTrue(
          open >= 1 && open <= c.k(), way + ": " + open + " flows open at once, k = " + c.k());
    }
    if (ex.testbed().shaped()) {
      for (BackboneTrace.Direction dir : BackboneTrace.Direction.values()) {
        double peak = m.backbone().peakBitsPerSecond(dir, 1000);
        assertTrue(
            peak <= spec.backboneBitsPerSecond() * (1 + MARGIN),
            dir + " peak " + peak / 1e6 + " Mbit/s");
        long across = m.backbone().bytes(dir, w.reduceStageStartMs(), w.reduceStageEndMs());
        double expected = 3e6 * a.size() * b.size();
        assertTrue(
            across >= 0.9 * expected,
            dir + ": the backbone carried " + across + " bytes of " + expected);
      }
    }
  }

  /**
   * Nothing typed about the network: no rate, β or k (only the capture and {@code gate.minBytes=0},
   * so that the small reads are gated). Three cross-cluster shuffles in one application: the first
   * runs on the start values and measures; the last plans with the measured β and the k the
   * base-speed rule gives for the testbed's shaped rates, the k a configured run uses. The answers
   * are Spark's, and the step contract holds in every shuffle: at most the k in force and one flow
   * per host (δ = 1) at once, the backbone under its rate. Needs the shaped testbed for the k (on
   * loopback the measured rates are the machine's).
   */
  @Test
  @Order(6)
  void withNothingTypedKConvergesToTheConfiguredRunsK() throws IOException {
    List<String> a = Node.addresses(ex.testbed().clusterA());
    List<String> b = Node.addresses(ex.testbed().clusterB());
    // every sender busy all along (45 MB each), so that two flows cross the backbone at once; flows
    // of 2.5 and 5 MB, a spread the rate fit needs; 12 reduce tasks reading from 2 hosts: 24 flows,
    // so the first shuffle's measurement holds the 20 flows a switch needs
    double[][] matrix = {{30e6, 15e6}, {15e6, 30e6}};
    Map<String, String> conf = ex.baseConf("512m");
    conf.putAll(ex.wanShuffleConf(ALGORITHM + PluginSettings.RACK_BLIND));
    for (String key :
        List.of(
            Settings.BACKBONE_RATE.key(),
            Settings.NIC_RATE.key(),
            Settings.BETA.key(),
            Settings.K.key())) {
      conf.remove(key);
    }
    conf.put(Settings.GATE_MIN_BYTES.key(), "0");
    JobRequest plain =
        new JobRequest(
            "auto-values-default",
            ex.baseConf("512m"),
            a,
            b,
            "matrix",
            0,
            2,
            12,
            matrix,
            64 * 1024,
            1,
            false,
            0);
    List<String> expected = ex.run(plain.appName(), plain, 0).result().runs().get(0).answer();
    JobRequest wan =
        new JobRequest(
            "auto-values", conf, a, b, "matrix", 0, 2, 12, matrix, 64 * 1024, 3, false, 0);
    Experiment.Measured m = ex.run(wan.appName(), wan, 0);
    List<RunResult> runs = m.result().runs();
    assertEquals(3, runs.size());
    for (RunResult r : runs) {
      assertEquals(expected, r.answer());
    }
    List<StageCapture> stages = new java.util.ArrayList<>();
    try (var apps = Files.list(m.captureDir())) {
      for (Path app : apps.filter(Files::isDirectory).toList()) {
        stages.addAll(CaptureFiles.readStages(app));
      }
    }
    stages.removeIf(st -> st.plans().isEmpty());
    stages.sort(java.util.Comparator.comparingInt(StageCapture::stageId));
    assertEquals(3, stages.size(), "one gated stage per shuffle");
    int configuredK = PluginSettings.check(spec, ALGORITHM).k();
    assertEquals(2, configuredK, "200 / 100 Mbit/s");
    for (int i = 0; i < stages.size(); i++) {
      StageCapture st = stages.get(i);
      String shuffle = "shuffle " + (i + 1);
      int k = st.plans().stream().mapToInt(PlanCapture::k).max().orElseThrow();
      FlowOverlap o = FlowOverlap.of(st.flows().stream().filter(f -> f.stepId() > 0).toList());
      assertTrue(
          o.maxPairs() >= 1 && o.maxPairs() <= k,
          shuffle + ": " + o.maxPairs() + " flows open at once, k = " + k);
      o.maxPerReceiver().forEach((h, n) -> assertTrue(n <= 1, shuffle + ": " + h + " got " + n));
      o.maxPerSender().forEach((h, n) -> assertTrue(n <= 1, shuffle + ": " + h + " sent " + n));
      if (i == 0) {
        assertEquals(10, k, "the start values: 10 NICs of 1 gbit over one");
      }
      if (i < stages.size() - 1) {
        continue; // the switch waits for a stage end with 20 flows measured and none open
      }
      if (ex.testbed().shaped()) {
        assertEquals(configuredK, st.network().plannedK(), shuffle + ": k recorded for the stage");
      }
      // β measured when the stage before ended: planned with when above the floor
      double measuredBefore = stages.get(i - 1).network().measuredBetaSeconds();
      for (PlanCapture p : st.plans()) {
        assertTrue(
            p.betaSeconds() >= WanShuffleConf.AUTO_BETA_FLOOR_SECONDS && p.betaSeconds() < 1,
            shuffle + ": β in [floor, 1) s: " + p.betaSeconds());
        if (measuredBefore > 2 * WanShuffleConf.AUTO_BETA_FLOOR_SECONDS) {
          assertTrue(
              p.betaSeconds() != WanShuffleConf.AUTO_BETA_START_SECONDS,
              shuffle + ": β measured " + measuredBefore + " s adopted: " + p.betaSeconds());
        }
        if (ex.testbed().shaped()) {
          assertEquals(configuredK, p.k(), shuffle + ": k of plan " + p.planId());
        }
      }
    }
    if (ex.testbed().shaped()) {
      double peak = m.backbone().peakBitsPerSecond(1000);
      assertTrue(
          peak <= spec.backboneBitsPerSecond() * (1 + MARGIN),
          "backbone peak " + peak / 1e6 + " Mbit/s");
    }
  }

  @Test
  @Order(6)
  void executorKilledOnReceivingClusterMidStageStillGivesTheAnswer() throws Exception {
    List<String> expected = defaultAnswer();
    // 300 ms after the first reduce task started: at this scale the reduce stage lasts 1-2 s, and a
    // kill after it ended would find no executor (the application has stopped)
    Experiment.Measured m = ex.run("tpch-wan-kill", tpch("tpch-wan-kill", wanConf(), 1), 300);
    RunResult r = m.result().runs().get(0);
    assertEquals(expected, r.answer());
    Path fault = m.driverLog().getParent().getParent();
    try (var files = Files.list(fault)) {
      String text =
          files
              .filter(p -> p.getFileName().toString().endsWith("tpch-wan-kill.fault.txt"))
              .findFirst()
              .map(
                  p -> {
                    try {
                      return Files.readString(p);
                    } catch (java.io.IOException e) {
                      return "";
                    }
                  })
              .orElse("");
      assertTrue(
          text.startsWith("killed 1 executor"),
          "the executor of b1 was not killed: '" + text + "'");
    }
  }

  /**
   * One TPC-H run with wan-shuffle on a second testbed whose cluster has every deployment option
   * the tests below check: Spark authentication with network encryption, two cores per executor,
   * the Workers' external shuffle services (shaped testbed only: on loopback the Workers cannot
   * each bind its port), and fetches above 64 KiB streamed to disk. One cluster start and one
   * application for all of them.
   */
  private synchronized Experiment.Measured optionsRun() {
    if (optionsRun == null) {
      boolean shaped = ex.testbed().shaped();
      ex.close(); // one testbed per machine: the second one replaces it
      ex = null;
      ClusterOptions options =
          ClusterOptions.defaults()
              .withAuthSecret("wan-shuffle-it-" + System.nanoTime())
              .withWorkerCores(2);
      if (shaped) {
        options = options.withExternalShuffleService();
      }
      optionsDir =
          Path.of(
              System.getProperty("wanshuffle.it.runDir", "target/it-runs"),
              "testbed-options-" + System.currentTimeMillis());
      ex = Experiment.start(spec, optionsDir, options);
      Map<String, String> c = new LinkedHashMap<>(wanConf());
      assertEquals("true", c.get("spark.authenticate"));
      assertEquals("2", c.get("spark.executor.cores"));
      assertEquals(shaped, "true".equals(c.get("spark.shuffle.service.enabled")));
      c.put("spark.network.crypto.enabled", "true");
      c.put("spark.network.maxRemoteBlockSizeFetchToMem", "64k");
      optionsRun = ex.run("tpch-wan-options", tpch("tpch-wan-options", c, 0), 0);
    }
    return optionsRun;
  }

  /**
   * Spark authentication and network encryption on: the answer is exact and wan-shuffle granted
   * steps (the coordinator's RPC and the gated fetches run over authenticated, encrypted channels).
   */
  @Test
  @Order(7)
  void runsWithAuthenticationAndEncryption() {
    Experiment.Measured m = optionsRun();
    RunResult r = m.result().runs().get(0);
    assertEquals(defaultAnswer(), r.answer());
    assertFalse(
        Captured.read(m.captureDir(), r).steps().isEmpty(),
        "with authentication and encryption on, wan-shuffle granted no step");
  }

  /**
   * Requests above {@code spark.network.maxRemoteBlockSizeFetchToMem} (64 KiB here, 200 MB by
   * default) are streamed by Spark into temporary files instead of memory, through the same gated
   * fetchers: the answer stays exact, Spark's task metrics show the bytes went to disk, and the
   * flow log shows granted steps with at most k flows at once.
   */
  @Test
  @Order(7)
  void blocksFetchedToDiskGiveTheAnswerAndKeepTheStepContract() {
    Experiment.Measured m = optionsRun();
    RunResult r = m.result().runs().get(0);
    assertEquals(defaultAnswer(), r.answer());
    assertTrue(
        r.remoteBytesReadToDisk() >= 0.5 * r.remoteBytesRead(),
        "Spark fetched "
            + r.remoteBytesReadToDisk()
            + " of "
            + r.remoteBytesRead()
            + " remote bytes to disk");
    assertStepsGrantedWithinK(m, r);
  }

  /**
   * Two cores per executor: both reduce tasks of a receiving host run at once, fetch over the
   * executor's shared connections and may share one granted flow. The answer stays exact and the
   * flow log still shows at most k cross-cluster flows and one per host (δ = 1 here) holding ports
   * at once.
   */
  @Test
  @Order(8)
  void twoTasksPerExecutorGiveTheAnswerAndKeepTheStepContract() {
    Experiment.Measured m = optionsRun();
    RunResult r = m.result().runs().get(0);
    assertEquals(defaultAnswer(), r.answer());
    long concurrent =
        r.tasks().stream()
            .filter(
                a ->
                    r.tasks().stream()
                        .anyMatch(
                            b ->
                                b != a
                                    && b.host().equals(a.host())
                                    && b.launchMs() < a.finishMs()
                                    && a.launchMs() < b.finishMs()))
            .count();
    assertTrue(concurrent >= 2, "no two reduce tasks ran at once on one executor: " + r.tasks());
    FlowOverlap o = assertStepsGrantedWithinK(m, r);
    o.maxPerReceiver()
        .forEach((host, n) -> assertTrue(n <= 1, host + " received " + n + " flows at once"));
    o.maxPerSender()
        .forEach((host, n) -> assertTrue(n <= 1, host + " sent " + n + " flows at once"));
  }

  /**
   * Spark's external shuffle service on every Worker (the usual set-up with dynamic allocation):
   * map output is served by the Workers' shuffle services on port 7337 instead of the executors'
   * block managers, through Spark's external block store client. The gated fetches go through it
   * too: the answer stays exact, the flow log shows granted steps and at most k cross-cluster
   * flows, and the backbone stays under its rate.
   */
  @Test
  @Order(9)
  void externalShuffleServiceServesTheGatedFetches() throws Exception {
    Experiment.Measured m = optionsRun();
    assumeTrue(
        ex.testbed().shaped(),
        "loopback variant: Workers on one host cannot each bind the shuffle service's port");
    RunResult r = m.result().runs().get(0);
    assertEquals(defaultAnswer(), r.answer());
    // the executors registered with their Workers' shuffle services, so those served the map output
    long registered =
        executorLogs(optionsDir).stream()
            .filter(
                p -> {
                  try {
                    return Files.readString(p)
                        .contains("Registering executor with local external shuffle service");
                  } catch (java.io.IOException e) {
                    return false;
                  }
                })
            .count();
    assertEquals(
        spec.nodesA() + spec.nodesB(), registered, "executors registered with a shuffle service");
    assertStepsGrantedWithinK(m, r);
    double peak = m.backbone().peakBitsPerSecond(1000);
    assertTrue(
        peak <= spec.backboneBitsPerSecond() * (1 + MARGIN),
        "backbone peak " + peak / 1e6 + " Mbit/s");
  }
}
