package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The faults' clock and records, on a fake testbed, with the signal lines written by the test. */
class FaultSessionTest {
  @TempDir Path dir;

  private FaultPlan plan(FakeNetwork net, String... specs) {
    return FaultPlan.of(Arrays.stream(specs).map(FaultSpec::parse).toList(), net.layout());
  }

  private static void signal(Path file, String line) throws IOException {
    Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static void awaitCalls(FakeNetwork net, int n) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (net.calls().size() < n && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
    assertTrue(net.calls().size() >= n, "calls so far: " + net.calls());
  }

  @Test
  void faultsApplyAtAtFromTheFirstReduceStageAndUndoForLaterOrWhenTheRunEnds() throws Exception {
    FakeNetwork net = new FakeNetwork(FaultPlanTest.TWO_SITES_40MS);
    Path signal = dir.resolve("run.signal");
    FaultSession s =
        FaultSession.start(
            plan(
                net,
                "delay:backbone.out[/A]:0:300ms:10",
                "delay:backbone.in[/A]:200ms:rest:20",
                "delay:backbone.in[/B]:1h:1:30"),
            net,
            signal,
            FaultSession.Windows.FIRST_REDUCE_STAGE);
    signal(signal, "listening " + System.currentTimeMillis());
    Thread.sleep(200);
    assertEquals(List.of(), net.calls(), "nothing before a reduce stage starts");
    long start = System.currentTimeMillis();
    signal(signal, "reduce " + start + " 1 0");
    awaitCalls(net, 3);
    assertEquals(
        List.of(
            "delay backbone.out[/A] 10.0",
            "delay backbone.in[/A] 20.0",
            "delay backbone.out[/A] 0.0"),
        net.calls());
    signal(signal, "reduce " + System.currentTimeMillis() + " 2 0"); // later stages: same clock
    List<FaultRun> runs = s.finish();
    assertEquals("delay backbone.in[/A] 0.0", net.calls().get(3), "rest: undone at the end");
    assertEquals(4, net.calls().size());
    assertEquals(1, runs.size());
    FaultRun r = runs.get(0);
    assertNull(r.measuredRun());
    assertNull(r.error());
    assertEquals(start, r.reduceStageStartEpochMs());
    assertFalse(r.failed());
    FaultRecord first = r.faults().get(0);
    assertEquals("delay:backbone.out[/A]:0:300ms:10", first.spec());
    assertEquals("delay", first.kind());
    assertEquals("backbone.out[/A]", first.target());
    assertEquals(0.3, first.forSeconds());
    assertTrue(first.applied());
    assertTrue(first.appliedAtSeconds() >= 0 && first.appliedAtSeconds() < 5, first.toString());
    assertTrue(
        first.undoneAtEpochMs() - first.appliedAtEpochMs() >= 300,
        "it lasts FOR from when it took effect: " + first);
    assertEquals(first.appliedAtEpochMs() - start, Math.round(first.appliedAtSeconds() * 1000));
    assertEquals(
        java.time.Instant.ofEpochMilli(first.undoneAtEpochMs()).toString(), first.undoneAt());
    assertEquals(Boolean.TRUE, first.undoOk());
    FaultRecord rest = r.faults().get(1);
    assertNull(rest.forSeconds());
    assertTrue(rest.appliedAtSeconds() >= 0.2, rest.toString());
    assertTrue(rest.undoneAtSeconds() >= rest.appliedAtSeconds());
    FaultRecord late = r.faults().get(2);
    assertFalse(late.applied());
    assertNull(late.undoOk());
    assertEquals("not applied: the run ended before AT", late.detail());
  }

  @Test
  void ofTwoRateFaultsOnOneLinkBackToBackTheSecondHolds() throws Exception {
    FakeNetwork net = new FakeNetwork(FaultPlanTest.TWO_SITES_40MS);
    net.outputs.put(
        "tc -n wst-swA -j qdisc show dev bbA",
        "[{\"kind\":\"tbf\",\"root\":true,\"options\":{\"rate\":25000000}}]");
    Path signal = dir.resolve("run.signal");
    FaultSession s =
        FaultSession.start(
            // the later one first: undoing the first must still come before applying the second
            plan(
                net,
                "rate:backbone.out[/A]:300ms:rest:25mbit",
                "rate:backbone.out[/A]:0:300ms:50mbit"),
            net,
            signal,
            FaultSession.Windows.FIRST_REDUCE_STAGE);
    signal(signal, "listening 1");
    signal(signal, "reduce " + System.currentTimeMillis() + " 1 0");
    awaitCalls(net, 5);
    s.finish();
    String change = "tc -n wst-swA qdisc change dev bbA root tbf rate ";
    String show = "tc -n wst-swA -j qdisc show dev bbA";
    assertEquals(
        List.of(
            show,
            change + "50000000bit burst 64kb latency 40ms",
            change + "200000000bit burst 64kb latency 40ms",
            show,
            change + "25000000bit burst 64kb latency 40ms",
            change + "200000000bit burst 64kb latency 40ms"),
        net.calls());
  }

  @Test
  void aFailedCommandIsRecordedAndTheOthersGoOn() throws Exception {
    FakeNetwork net = new FakeNetwork(FaultPlanTest.TWO_SITES_40MS);
    net.failing = "ip netns exec wst-swA nft delete";
    Path signal = dir.resolve("run.signal");
    FaultSession s =
        FaultSession.start(
            plan(net, "down:backbone.out[/A]:0:rest", "kill:b1:0"),
            net,
            signal,
            FaultSession.Windows.FIRST_REDUCE_STAGE);
    signal(signal, "listening 1");
    signal(signal, "reduce " + System.currentTimeMillis() + " 3 0");
    awaitCalls(net, 2);
    FaultRun r = s.finish().get(0);
    assertTrue(r.failed());
    FaultRecord down = r.faults().get(0);
    assertTrue(down.applied());
    assertEquals(Boolean.FALSE, down.undoOk());
    assertTrue(down.error().startsWith("undoing failed: `ip netns exec wst-swA nft delete table"));
    FaultRecord kill = r.faults().get(1);
    assertFalse(kill.applied());
    assertEquals("applying failed: no Spark executor runs on b1 (namespace wst-b1)", kill.error());
    assertNull(kill.undoOk());
  }

  @Test
  void measuredRunsEachGetTheFaultsFromTheirOwnReduceStage() throws Exception {
    FakeNetwork net = new FakeNetwork(FaultPlanTest.TWO_SITES_40MS);
    Path signal = dir.resolve("cell.signal");
    FaultSession s =
        FaultSession.start(
            plan(net, "delay:backbone.out[/A]:0:rest:5"),
            net,
            signal,
            FaultSession.Windows.MEASURED_RUNS);
    signal(signal, "listening 1");
    signal(signal, "reduce " + System.currentTimeMillis() + " 1 0"); // the warm-up: no faults
    Thread.sleep(200);
    assertEquals(List.of(), net.calls());
    for (int run = 1; run <= 2; run++) {
      signal(signal, "begin " + System.currentTimeMillis());
      signal(signal, "reduce " + System.currentTimeMillis() + " " + (2 * run + 1) + " 0");
      awaitCalls(net, 2 * run - 1);
      signal(signal, "end " + System.currentTimeMillis());
      awaitCalls(net, 2 * run);
    }
    signal(signal, "begin " + System.currentTimeMillis());
    signal(signal, "end " + System.currentTimeMillis()); // a run without a reduce stage
    List<FaultRun> runs = s.finish();
    assertEquals(
        List.of(
            "delay backbone.out[/A] 5.0",
            "delay backbone.out[/A] 0.0",
            "delay backbone.out[/A] 5.0",
            "delay backbone.out[/A] 0.0"),
        net.calls());
    assertEquals(List.of(1, 2, 3), runs.stream().map(FaultRun::measuredRun).toList());
    assertTrue(runs.get(1).faults().get(0).applied());
    assertNotNull(runs.get(1).reduceStageStart());
    assertNull(runs.get(2).reduceStageStart());
    assertEquals(
        "not applied: no reduce stage started in the measured run",
        runs.get(2).faults().get(0).detail());
  }

  @Test
  void aListenerThatNeverStartedIsAnError() {
    FakeNetwork net = new FakeNetwork(FaultPlanTest.TWO_SITES_40MS);
    FaultSession s =
        FaultSession.start(
            plan(net, "down:backbone.out[/A]:0:1"),
            net,
            dir.resolve("none.signal"),
            FaultSession.Windows.FIRST_REDUCE_STAGE);
    List<FaultRun> runs = s.finish();
    assertEquals(1, runs.size());
    assertTrue(runs.get(0).failed());
    assertTrue(
        runs.get(0).error().startsWith("the reduce-stage listener (io.wanshuffle.it.fault."),
        runs.get(0).error());
    assertFalse(runs.get(0).faults().get(0).applied());
    assertEquals(List.of(), net.calls());
    assertEquals(runs, s.finish(), "finishing twice changes nothing");
  }
}
