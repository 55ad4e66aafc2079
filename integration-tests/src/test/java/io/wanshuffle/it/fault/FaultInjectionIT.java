package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.Exec;
import io.wanshuffle.it.net.FlowProbe;
import io.wanshuffle.it.net.HandshakeProbe;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Faults on the namespace testbed, measured with its own counters and probes, without Spark: the
 * session's clock is started by writing the signal line a reduce stage's listener writes. One 2 + 2
 * testbed (NIC 100 Mbit/s, backbone 200 Mbit/s, WAN RTT 10 ms) for every test.
 *
 * <p>Needs root, iproute2, python3 (the delay line) and nftables; without them every test fails
 * with the reason ({@code .ci/run} installs them), as the other namespace testbed ITs do. Not run
 * on the loopback variant, which has no links to break: there it fails saying so.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultInjectionIT {
  static final TestbedSpec SPEC =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 10);

  /** The link the traffic probes load: every A host sends to every B host across it. */
  static final String LINK = "backbone.out[/A]";

  final String cp = System.getProperty("java.class.path");
  final Path dir = Path.of(System.getProperty("wanshuffle.it.runDir", "target/it-runs"), "faults");
  NamespaceTestbed testbed;

  @BeforeAll
  void start() throws IOException {
    if (Testbed.loopbackRequested()) {
      throw new IllegalStateException(
          "faults need the network-namespace testbed; -Dwanshuffle.testbed=loopback has no links"
              + " to break");
    }
    if (!Exec.onPath("nft")) {
      throw new IllegalStateException(
          "down, loss and partition need nftables' nft (.ci/run installs Debian's nftables)");
    }
    Files.createDirectories(dir);
    testbed = (NamespaceTestbed) Testbed.open(SPEC);
  }

  @AfterAll
  void stop() {
    if (testbed != null) {
      testbed.close();
    }
  }

  /** Starts a session of {@code specs} and its clock (as a reduce stage's start would). */
  private FaultSession inject(String name, String... specs) throws IOException {
    FaultPlan plan =
        FaultPlan.of(Arrays.stream(specs).map(FaultSpec::parse).toList(), testbed.layout());
    Path signal = dir.resolve(name + ".signal");
    FaultSession s =
        FaultSession.start(
            plan,
            new NamespaceFaultNetwork(testbed),
            signal,
            FaultSession.Windows.FIRST_REDUCE_STAGE);
    Files.writeString(
        signal,
        ReduceStageSignal.LISTENING
            + " 0\n"
            + ReduceStageSignal.REDUCE
            + " "
            + System.currentTimeMillis()
            + " 1 0\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return s;
  }

  /**
   * Runs the traffic probe for {@code seconds} with the faults started once it flows.
   *
   * @return the link's counters over the probe and what the faults did
   */
  private Probed probeWith(String name, int seconds, String... specs) throws IOException {
    try (FlowProbe.Running probe = FlowProbe.start(testbed, seconds, cp)) {
      probe.awaitSending(20_000);
      FaultSession s = inject(name, specs);
      FlowProbe.Measured m;
      try {
        m = probe.finish();
      } finally {
        s.finish();
      }
      List<FaultRun> runs = s.finish();
      assertEquals(1, runs.size());
      FaultRun r = runs.get(0);
      assertTrue(!r.failed(), r.toString());
      return new Probed(m.links().of(LINK), r.reduceStageStartEpochMs(), r.faults().get(0));
    }
  }

  /**
   * What a probe with a fault measured.
   *
   * @param link the loaded link's counters
   * @param startMs when the faults' clock started, epoch ms
   * @param fault what the fault did
   */
  record Probed(LinkTrace.Series link, long startMs, FaultRecord fault) {
    /** The link's rate from the clock's start to just before the fault was due, Mbit/s. */
    double before() {
      return mbit(link, startMs, startMs + (long) (fault.atSeconds() * 1000) - 100);
    }

    /**
     * The window in which the fault surely held: from 300 ms after its command returned to 600 ms
     * before the command that undid it returned (a command takes effect before it returns).
     */
    long[] held() {
      long[] w = {fault.appliedAtEpochMs() + 300, fault.undoneAtEpochMs() - 600};
      assertTrue(
          w[1] - w[0] >= 1_000,
          "the fault held too briefly to measure (its commands ran late on a busy machine): "
              + fault);
      return w;
    }

    String trace() {
      return FaultInjectionIT.trace(link, startMs, fault.undoneAtEpochMs() + 4_000);
    }
  }

  @Test
  void aBackboneOutageStopsTheTrafficAcrossItAndTheTrafficResumesAfter() throws IOException {
    Probed p = probeWith("down", 12, "down:" + LINK + ":1:3");
    FaultRecord down = p.fault();
    assertTrue(down.applied() && down.undoOk(), down.toString());
    assertTrue(down.appliedAtSeconds() >= 1 && down.undoneAtSeconds() >= 4, "on time: " + down);
    assertTrue(p.before() > 50, "traffic before the outage: " + p.trace());
    // from what the tbf held when the link went down to the first frame TCP sends after it
    long[] held = {down.appliedAtEpochMs() + 300, down.undoneAtEpochMs() - 100};
    assertTrue(held[1] - held[0] >= 1_000, "applied too late to measure: " + down);
    long during = p.link().bytes(held[0], held[1]);
    assertTrue(
        during < 100_000, during + " bytes crossed the link while it was down: " + p.trace());
    // TCP retransmits after the outage with its backed-off timeout (up to a few seconds after it)
    long undone = down.undoneAtEpochMs();
    long[] t = p.link().epochMillis();
    assertTrue(
        p.link().bytes(undone, t[t.length - 1]) > 5_000_000,
        "the traffic resumes after the outage: " + p.trace());
  }

  @Test
  void aRateDropHoldsTheLinksThroughputAtTheNewRateUntilUndone() throws IOException {
    Probed p = probeWith("rate", 11, "rate:" + LINK + ":1:4:50mbit");
    FaultRecord rate = p.fault();
    assertTrue(rate.applied() && rate.undoOk(), rate.toString());
    assertEquals(
        "tbf on bbA in wst-swA: 200000000 -> 50000000 bit/s", rate.detail(), rate.toString());
    long[] held = p.held();
    double dropped = mbit(p.link(), held[0], held[1]);
    assertTrue(dropped <= 50 * 1.1 && dropped >= 50 * 0.6, dropped + " Mbit/s at 50: " + p.trace());
    assertTrue(p.before() > 100, "before: " + p.trace());
    long undone = rate.undoneAtEpochMs();
    assertTrue(mbit(p.link(), undone + 1_000, undone + 3_000) > 100, "after: " + p.trace());
    String tbf = Exec.check("tc", "-n", "wst-swA", "-j", "qdisc", "show", "dev", "bbA");
    assertTrue(tbf.contains("\"rate\":25000000"), "the tbf is back at 200 Mbit/s: " + tbf);
  }

  @Test
  void aPartitionedHostCannotReachTheDriversHostButStillReachesTheOthers() throws Exception {
    Node b1 = testbed.clusterB().get(0);
    Node a1 = testbed.clusterA().get(0);
    String ctl = testbed.control().address();
    FaultSession s = inject("partition", "partition:b1:0:rest");
    Thread.sleep(300);
    Map<String, Boolean> fromB1;
    Map<String, Boolean> fromA1;
    try {
      Process pb = Reach.start(b1, cp, ctl, a1.address(), testbed.clusterB().get(1).address());
      Process pa = Reach.start(a1, cp, ctl, b1.address());
      fromB1 = Reach.result(pb);
      fromA1 = Reach.result(pa);
    } finally {
      s.finish();
    }
    assertEquals(
        new TreeMap<>(
            Map.of(ctl, false, a1.address(), true, testbed.clusterB().get(1).address(), true)),
        fromB1,
        "b1 during the partition");
    assertEquals(new TreeMap<>(Map.of(ctl, true, b1.address(), true)), fromA1, "a1 during it");
    FaultRecord p = s.finish().get(0).faults().get(0);
    assertTrue(p.applied() && p.undoOk(), p.toString());
    assertEquals(Map.of(ctl, true), Reach.result(Reach.start(b1, cp, ctl)), "b1 after it");
  }

  @Test
  void aDelayAddsToTheRoundTripAcrossTheBackboneUntilUndone() throws Exception {
    Node a1 = testbed.clusterA().get(0);
    Node b1 = testbed.clusterB().get(0);
    FaultSession s = inject("delay", "delay:" + LINK + ":0:rest:30");
    double[] during;
    try {
      Thread.sleep(300);
      during = HandshakeProbe.millis(a1, b1, 5, cp);
    } finally {
      s.finish();
    }
    assertTrue(
        HandshakeProbe.median(during) >= SPEC.wanRttMillis() + 30 - 1,
        "a1 -> b1 handshakes with 30 ms more from A to B: " + Arrays.toString(during));
    double[] after = HandshakeProbe.millis(a1, b1, 5, cp);
    assertTrue(
        HandshakeProbe.median(after) < SPEC.wanRttMillis() + 15,
        "after the delay is undone: " + Arrays.toString(after));
    FaultRecord d = s.finish().get(0).faults().get(0);
    assertTrue(d.applied() && d.undoOk(), d.toString());
    assertNull(d.forSeconds(), "rest");
  }

  /**
   * The link's rate between the samples that bound a window, Mbit/s: its bytes between the last
   * sample at or before {@code from} and the first at or after {@code to}, over their time.
   */
  static double mbit(LinkTrace.Series s, long from, long to) {
    long[] t = s.epochMillis();
    int a = 0;
    int b = t.length - 1;
    for (int i = 0; i < t.length; i++) {
      if (t[i] <= from) {
        a = i;
      }
    }
    for (int i = t.length - 1; i >= 0; i--) {
      if (t[i] >= to) {
        b = i;
      }
    }
    return (s.bytes()[b] - s.bytes()[a]) * 8 / ((t[b] - t[a]) / 1000.0) / 1e6;
  }

  /** The link's rate per 500 ms over a window, for the failure messages. */
  static String trace(LinkTrace.Series s, long from, long to) {
    List<String> out = new ArrayList<>();
    for (long t = from; t + 500 <= to; t += 500) {
      out.add(String.format("%+.1fs %.0f", (t - from) / 1000.0, mbit(s, t, t + 500)));
    }
    return String.join(", ", out) + " Mbit/s";
  }

  /**
   * Per-host program: {@code <address>...} connects to port 9 (closed) of each address within 2 s
   * and prints {@code <address> true} when the host answered (a connection or a refusal) and {@code
   * <address> false} when the connect timed out.
   */
  static final class Reach {
    private Reach() {}

    static Process start(Node from, String cp, String... to) throws IOException {
      List<String> cmd = new ArrayList<>(from.launchPrefix());
      cmd.addAll(
          List.of(
              ProcessHandle.current().info().command().orElse("java"),
              "-Xmx32m",
              "-cp",
              cp,
              Reach.class.getName()));
      cmd.addAll(List.of(to));
      return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    static Map<String, Boolean> result(Process p) throws Exception {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("reach probe timed out");
      }
      String out = new String(p.getInputStream().readAllBytes());
      Map<String, Boolean> m = new TreeMap<>();
      out.lines()
          .map(l -> l.strip().split(" "))
          .filter(w -> w.length == 2 && (w[1].equals("true") || w[1].equals("false")))
          .forEach(w -> m.put(w[0], Boolean.parseBoolean(w[1])));
      if (p.exitValue() != 0 || m.isEmpty()) {
        throw new IllegalStateException("reach probe failed: " + out);
      }
      return m;
    }

    public static void main(String[] args) throws InterruptedException {
      List<Thread> ts = new ArrayList<>();
      for (String a : args) {
        Thread t =
            new Thread(
                () -> {
                  boolean answered;
                  try (java.net.Socket s = new java.net.Socket()) {
                    s.connect(new java.net.InetSocketAddress(a, 9), 2_000);
                    answered = true;
                  } catch (java.net.ConnectException refused) {
                    answered = true;
                  } catch (IOException timedOut) {
                    answered = false;
                  }
                  synchronized (System.out) {
                    System.out.println(a + " " + answered);
                  }
                });
        t.start();
        ts.add(t);
      }
      for (Thread t : ts) {
        t.join();
      }
    }
  }
}
