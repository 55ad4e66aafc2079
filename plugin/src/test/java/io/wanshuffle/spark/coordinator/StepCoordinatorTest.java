package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class StepCoordinatorTest {
  private final ManualTimer timer = new ManualTimer();
  private final RecordingListener events = new RecordingListener();

  private StepCoordinator coordinator(String... kv) {
    WanShuffleConf conf = conf(kv);
    return coordinator(conf, conf.gated() ? new GreedyTestScheduler() : null);
  }

  private StepCoordinator coordinator(
      WanShuffleConf conf, io.wanshuffle.scheduler.StepScheduler scheduler) {
    return StepCoordinator.builder(conf)
        .scheduler(scheduler)
        .listeners(List.of(events))
        .timer(timer)
        .clock(timer::now)
        .build();
  }

  private static WanShuffleConf conf(String... kv) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.STEP_MIN_DEADLINE.key(), "1s")
            .set(Settings.GATHER_WINDOW.key(), "100ms")
            // plan on the calling thread, unbounded: exact steps whatever the machine's load
            .set(Settings.PLANNING_BUDGET.key(), "0");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c, Set.of("greedy-test"));
  }

  private static RegisterDemand demand(long task, String exec, String dst, Object... srcBytes) {
    String[] src = new String[srcBytes.length / 2];
    long[] bytes = new long[src.length];
    for (int i = 0; i < src.length; i++) {
      src[i] = (String) srcBytes[2 * i];
      bytes[i] = ((Number) srcBytes[2 * i + 1]).longValue();
    }
    return new RegisterDemand(3, 0, 7, task, exec, dst, src, bytes);
  }

  /**
   * Registers the demands in order, then polls each once.
   *
   * @param ids filled with the demands' ids, in order
   * @return the pending (or answered) grants, in order
   */
  private static List<CompletableFuture<GrantReply>> registerAndPoll(
      StepCoordinator c, long[] ids, RegisterDemand... ds) {
    for (int i = 0; i < ds.length; i++) {
      ids[i] = c.register(ds[i]).demandId();
    }
    List<CompletableFuture<GrantReply>> out = new ArrayList<>();
    for (long id : ids) {
      out.add(c.awaitGrant(AwaitGrant.poll(id)));
    }
    return out;
  }

  /** The report of the whole grant as fetched, sent ahead of its end (no end time). */
  private static AwaitGrant reportAhead(
      long demandId, RegisterDemand d, GrantReply g, long startMs) {
    AwaitGrant full = FlowSimulation.reportOf(demandId, d, g, d.bytes().clone());
    return new AwaitGrant(
        demandId,
        full.doneStepId(),
        full.srcHosts(),
        full.fetchedBytes(),
        full.remainingBytes(),
        startMs,
        0);
  }

  /** Reports the whole grant as fetched and asks for the next one. */
  private static CompletableFuture<GrantReply> report(
      StepCoordinator c, long demandId, RegisterDemand d, GrantReply g, long[] remaining) {
    return c.awaitGrant(FlowSimulation.reportOf(demandId, d, g, remaining));
  }

  @Test
  void noneGrantsEverythingAtOnceWithoutCountingFlows() {
    StepCoordinator c = coordinator(Settings.ALGORITHM.key(), "none");
    RegisterDemand d = demand(1, "e1", "b1", "a1", 100, "a2", 50);
    Registered r = c.register(d);
    assertFalse(r.gated());
    CompletableFuture<GrantReply> g = c.awaitGrant(AwaitGrant.poll(r.demandId()));
    assertTrue(g.isDone());
    assertEquals(Status.GRANT, g.join().status());
    assertArrayEquals(new String[] {"a1", "a2"}, g.join().srcHosts());
    assertArrayEquals(new long[] {100, 50}, g.join().budgets());
    assertEquals(0, c.openFlowCount());
    assertTrue(events.steps.isEmpty());
  }

  @Test
  void firstStepIsGrantedAfterTheGatherWindowWithinKAndDelta() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    RegisterDemand d1 = demand(1, "e1", "b1", "a1", 300, "a2", 100);
    RegisterDemand d2 = demand(2, "e2", "b2", "a1", 200, "a2", 400);
    RegisterDemand d3 = demand(3, "e3", "b3", "a1", 50);
    long id1 = c.register(d1).demandId();
    long id2 = c.register(d2).demandId();
    long id3 = c.register(d3).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(id3));
    assertFalse(p1.isDone() || p2.isDone() || p3.isDone(), "nothing before the gather window");
    timer.advance(100);
    assertEquals(1, events.steps.size());
    StepEvent step = events.steps.get(0);
    // pipelined steps take the plan's pairs bottleneck ports first: b2 has the most bytes to
    // receive (600), a1 the most to send (550): a1->b2, then a2->b1 (a2 500 > b1 400);
    // k = 2, delta = 1 -> exactly those
    assertEquals(
        List.of(new FlowGrant("a1", "b2", 200), new FlowGrant("a2", "b1", 100)), step.flows());
    assertEquals(2, c.openFlowCount());
    assertEquals(Status.GRANT, p1.join().status());
    assertArrayEquals(new String[] {"a2"}, p1.join().srcHosts());
    assertArrayEquals(new long[] {100}, p1.join().budgets());
    assertArrayEquals(new String[] {"a1"}, p2.join().srcHosts());
    assertFalse(p3.isDone(), "b3 gets nothing in step 1");
    PlanEvent plan = events.plans.get(0);
    assertEquals(2, plan.platform().k());
    assertEquals(
        400L,
        plan.residualBytes().bytesAt(plan.senders().indexOf("a2"), plan.receivers().indexOf("b2")));
  }

  /**
   * The backbone is full duplex: with k = 1 and the hosts in two clusters, a demand A->B and a
   * demand B->A are granted at once (one flow each way); a second A->B demand waits until the first
   * A->B flow is done. Without clusters (every host in one) the same demands get one flow.
   */
  @Test
  void kCountsFlowsPerDirectionOfTheBackbone() {
    for (boolean clusters : new boolean[] {true, false}) {
      WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.DELTA.key(), "1");
      StepCoordinatorBuilder b =
          StepCoordinator.builder(conf)
              .scheduler(new GreedyTestScheduler())
              .listeners(List.of(events))
              .timer(timer)
              .clock(timer::now);
      if (clusters) {
        b.clusters(h -> h.substring(0, 1)); // a1, a2 -> a; b1, b2 -> b
      }
      StepCoordinator c = b.build();
      RegisterDemand ab = demand(1, "e1", "b1", "a1", 300);
      RegisterDemand ba = demand(2, "e2", "a2", "b2", 300);
      RegisterDemand ab2 = demand(3, "e3", "b2", "a2", 100);
      long[] ids = new long[3];
      List<CompletableFuture<GrantReply>> p = registerAndPoll(c, ids, ab, ba, ab2);
      timer.advance(100);
      if (!clusters) {
        assertEquals(1, c.openFlowCount(), "one k for all flows");
        assertEquals(1, p.stream().filter(CompletableFuture::isDone).count());
        continue;
      }
      assertEquals(2, c.openFlowCount(), "one flow each way");
      assertEquals(Status.GRANT, p.get(0).join().status());
      assertEquals(Status.GRANT, p.get(1).join().status());
      assertArrayEquals(new String[] {"b2"}, p.get(1).join().srcHosts());
      assertFalse(p.get(2).isDone(), "a second A->B flow would exceed k = 1 in that direction");
      PlanEvent plan = events.plans.get(events.plans.size() - 1);
      assertEquals(2, plan.platform().k(), "planned on k per direction x 2 directions");
      report(c, ids[0], ab, p.get(0).join(), new long[] {0});
      assertEquals(Status.GRANT, p.get(2).join().status(), "A->B is free again");
      assertArrayEquals(new String[] {"a2"}, p.get(2).join().srcHosts());
      assertEquals(2, c.openFlowCount());
    }
  }

  /**
   * A reply tells how long its request waited for ports: from the first plan after it to the plan
   * that granted it (the executor leaves that out of its hand-over loop, so {@code c} is not a wait
   * for ports); a request the first plan grants was not held.
   */
  @Test
  void aGrantThatWaitedForPortsSaysHowLong() throws InterruptedException {
    StepCoordinator c = coordinator(Settings.K.key(), "1", Settings.DELTA.key(), "1");
    RegisterDemand d1 = demand(1, "e1", "b1", "a1", 300);
    RegisterDemand d2 = demand(2, "e2", "b2", "a2", 100);
    long[] ids = new long[2];
    List<CompletableFuture<GrantReply>> p = registerAndPoll(c, ids, d1, d2);
    timer.advance(100);
    int first = p.get(0).isDone() ? 0 : 1;
    assertFalse(p.get(1 - first).isDone(), "k = 1: the other demand waits");
    assertEquals(0, p.get(first).join().heldMs(), "granted by the first plan after its poll");
    Thread.sleep(40);
    RegisterDemand d = first == 0 ? d1 : d2;
    report(c, ids[first], d, p.get(first).join(), new long[] {0});
    GrantReply later = p.get(1 - first).join();
    assertEquals(Status.GRANT, later.status());
    assertTrue(
        later.heldMs() >= 40,
        "held from the gather plan to the plan after the report: " + later.heldMs());
  }

  /**
   * A wave of reduce tasks is planned as one: the gather window ends as soon as every task the
   * driver launched in the stage has registered (a map task of another stage is not waited for),
   * and the wave's bottleneck receiver is granted first even though it registered last.
   */
  @Test
  void gatherEndsOnceTheLaunchedWaveRegisteredAndPlansItBottleneckFirst() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    c.taskLaunched(3, 0, 1);
    c.taskLaunched(3, 0, 2);
    c.taskLaunched(3, 0, 3);
    c.taskLaunched(2, 0, 40); // a map task still running in another stage
    long i1 = c.register(demand(1, "e1", "b1", "a1", 200)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    long i2 = c.register(demand(2, "e2", "b2", "a2", 200)).demandId();
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    assertFalse(p1.isDone() || p2.isDone(), "task 3 of the wave has not registered yet");
    long i3 = c.register(demand(3, "e3", "b3", "a3", 400)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(i3));
    assertEquals(1, events.steps.size(), "planned without waiting for the window");
    assertTrue(p3.isDone(), "b3 has the most bytes to receive: granted first");
    assertEquals(new FlowGrant("a3", "b3", 400), events.steps.get(0).flows().get(0));
    assertEquals(1, (p1.isDone() ? 1 : 0) + (p2.isDone() ? 1 : 0), "k = 2");
  }

  /**
   * Wave 1 of a stage whose tasks prefer b1, b3, b2, b3 (k = 2, δ = 1): b1's task (100 B) and the
   * heavy receiver b3's task (400 B) are granted, and b3's task has fetched all its bytes (it has
   * not ended).
   */
  private StepCoordinator heavyReceiverFetchedItsFirstTask() {
    return heavyReceiverFetchedItsFirstTask(
        coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1"));
  }

  /** {@link #heavyReceiverFetchedItsFirstTask()} on the given coordinator (k = 2, δ = 1). */
  private static StepCoordinator heavyReceiverFetchedItsFirstTask(StepCoordinator c) {
    c.stageSubmitted(3, 0, List.of(List.of("b1"), List.of("b3"), List.of("b2"), List.of("b3")));
    c.taskLaunched(3, 0, 1, "b1");
    c.taskLaunched(3, 0, 2, "b3");
    RegisterDemand d1 = demand(1, "e1", "b1", "a1", 100);
    RegisterDemand d2 = demand(2, "e3", "b3", "a3", 400);
    long i1 = c.register(d1).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    long i2 = c.register(d2).demandId();
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    assertTrue(p1.isDone() && p2.isDone(), "wave 1: both flows granted");
    assertEquals(Status.FINISHED, report(c, i2, d2, p2.join(), new long[] {400}).join().status());
    return c;
  }

  /**
   * The fair-sharing-poor race: b3's next task (about 400 B, as its first) is launched but not yet
   * registered when b2's lighter task registers and could take the last free flow; the flow is kept
   * for b3 until its task registers (or for one gather window if it never does).
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aFreeFlowIsKeptForAHeavierReceiversTaskAboutToRegister(boolean registers) {
    StepCoordinator c = heavyReceiverFetchedItsFirstTask();
    CompletableFuture<GrantReply> p3 = b2WaitsBehindAFlowKeptForB3(c);
    if (registers) {
      assertB3TakesTheKeptFlow(c, p3);
    } else {
      assertKeptFor(99, p3);
    }
  }

  /**
   * The same race one step later, seen on the testbed (fair-poor, RTT 0, 1 run in about 20): b3's
   * next task registers while the plan that b2's registration asked for is being computed. Its
   * demand is not in that plan and it is no longer "about to register"; it must still get the last
   * free flow, not b2's lighter task.
   */
  @Test
  void aHeavierTaskRegisteringWhileThePlanIsComputedStillGetsTheKeptFlow() {
    java.util.concurrent.atomic.AtomicReference<Runnable> duringPlan =
        new java.util.concurrent.atomic.AtomicReference<>();
    GreedyTestScheduler greedy = new GreedyTestScheduler();
    io.wanshuffle.scheduler.StepScheduler hooked =
        new io.wanshuffle.scheduler.StepScheduler() {
          @Override
          public String name() {
            return greedy.name();
          }

          @Override
          public io.wanshuffle.scheduler.Schedule schedule(
              TrafficMatrix m, io.wanshuffle.scheduler.Platform p) {
            Runnable r = duringPlan.getAndSet(null);
            if (r != null) {
              r.run(); // the coordinator's lock is not held while a plan is computed
            }
            return greedy.schedule(m, p);
          }
        };
    StepCoordinator c =
        heavyReceiverFetchedItsFirstTask(
            coordinator(conf(Settings.K.key(), "2", Settings.DELTA.key(), "1"), hooked));
    c.taskEnded(2);
    c.taskLaunched(3, 0, 3, "b2");
    c.taskLaunched(3, 0, 4, "b3");
    long[] i4 = new long[1];
    List<CompletableFuture<GrantReply>> p4 = new ArrayList<>();
    duringPlan.set(
        () -> {
          i4[0] = c.register(demand(4, "e3", "b3", "a3", 400)).demandId();
          p4.add(c.awaitGrant(AwaitGrant.poll(i4[0])));
        });
    long i3 = c.register(demand(3, "e2", "b2", "a2", 100)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(i3));
    assertEquals(1, p4.size(), "b3's task registered during the plan");
    assertTrue(p4.get(0).isDone(), "b3's task takes the last free flow in the next plan");
    assertEquals(Status.GRANT, p4.get(0).join().status());
    assertFalse(p3.isDone(), "k = 2: b1 and b3 hold the flows");
  }

  /**
   * After {@link #heavyReceiverFetchedItsFirstTask}: b3's task ends and its next task is launched
   * but not registered; b2's lighter task registers and waits, the last free flow being kept for
   * b3.
   *
   * @return b2's pending poll
   */
  private static CompletableFuture<GrantReply> b2WaitsBehindAFlowKeptForB3(StepCoordinator c) {
    c.taskEnded(2);
    c.taskLaunched(3, 0, 4, "b3"); // b3's next task: launched, not registered yet
    c.taskLaunched(3, 0, 3, "b2");
    long i3 = c.register(demand(3, "e2", "b2", "a2", 100)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(i3));
    assertFalse(p3.isDone(), "the last free flow is kept for b3's task");
    return p3;
  }

  /** b3's next task registers 400 bytes from a3 and is granted the kept flow; b2's poll waits. */
  private static void assertB3TakesTheKeptFlow(
      StepCoordinator c, CompletableFuture<GrantReply> p3) {
    long i4 = c.register(demand(4, "e3", "b3", "a3", 400)).demandId();
    CompletableFuture<GrantReply> p4 = c.awaitGrant(AwaitGrant.poll(i4));
    assertTrue(p4.isDone(), "b3's task takes the kept flow");
    assertEquals(Status.GRANT, p4.join().status());
    assertFalse(p3.isDone(), "k = 2: b1 and b3 hold the flows");
  }

  /**
   * The flow is still kept {@code leftMs} - 1 ms from now and goes to the waiting poll at {@code
   * leftMs}.
   */
  private void assertKeptFor(long leftMs, CompletableFuture<GrantReply> waiting) {
    timer.advance(leftMs);
    assertFalse(waiting.isDone());
    timer.advance(1);
    assertTrue(waiting.isDone(), "kept for one gather window at most");
    assertEquals(Status.GRANT, waiting.join().status());
  }

  /**
   * The heavy receiver b3's task has fetched everything but not ended, and a task preferring b3 is
   * still to launch: the last free flow is kept for b3 (at most one gather window, 100 ms here),
   * restarted once when b3's next task launches, and b3's task takes it when it registers; when no
   * task launches there, the flow goes to the lighter demand after one window.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aFreeFlowIsKeptForABottleneckReceiverWhoseNextTaskIsAboutToLaunch(boolean launches) {
    StepCoordinator c = heavyReceiverFetchedItsFirstTask();
    // b3's task still computes; b2's task launches and registers first
    c.taskLaunched(3, 0, 3, "b2");
    long i3 = c.register(demand(3, "e2", "b2", "a2", 100)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(i3));
    assertFalse(
        p3.isDone(), "the last free flow is kept for b3, whose next task is about to launch");
    timer.advance(60);
    if (launches) {
      c.taskEnded(2);
      c.taskLaunched(3, 0, 4, "b3");
      timer.advance(90);
      assertFalse(p3.isDone(), "kept again from the launch: 60 + 90 ms > one window");
      assertB3TakesTheKeptFlow(c, p3);
    } else {
      assertKeptFor(39, p3);
    }
  }

  /**
   * A launched task that has not registered holds the gather window until it ends or the window
   * passes.
   */
  @Test
  void gatherWaitsForALaunchedTaskUntilItEndsOrTheWindowPasses() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    c.taskLaunched(3, 0, 1);
    c.taskLaunched(3, 0, 2);
    c.taskLaunched(3, 0, 3);
    long i1 = c.register(demand(1, "e1", "b1", "a1", 200)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    c.taskEnded(2); // e.g. a task with only same-cluster blocks: it never registers
    timer.advance(99);
    assertFalse(p1.isDone(), "task 3 is still expected");
    timer.advance(1);
    assertTrue(p1.isDone(), "the window is the longest wait");
    c.taskEnded(3);
    c.taskLaunched(3, 0, 4);
    c.taskLaunched(3, 0, 5);
    assertEquals(
        Status.FINISHED,
        report(c, i1, demand(1, "e1", "b1", "a1", 200), p1.join(), new long[] {200})
            .join()
            .status());
    long i4 = c.register(demand(4, "e4", "b1", "a1", 100)).demandId();
    CompletableFuture<GrantReply> p4 = c.awaitGrant(AwaitGrant.poll(i4));
    assertFalse(p4.isDone(), "idle again: the next wave is gathered");
    c.taskEnded(5);
    assertTrue(p4.isDone(), "the last launched task ended: planned at once");
  }

  /**
   * A launched task whose read has no cross-cluster blocks says so, and the wave is planned at once
   * instead of after the window; a notice that overtakes the listener's launch event counts as
   * well.
   */
  @Test
  void aTaskWithoutCrossClusterDemandDoesNotHoldTheGatherWindow() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    c.taskLaunched(3, 0, 1);
    c.taskLaunched(3, 0, 2);
    long i1 = c.register(demand(1, "e1", "b1", "a1", 200)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    assertFalse(p1.isDone(), "task 2 is expected");
    c.noCrossClusterDemand(3, 0, 2, "b2");
    assertTrue(p1.isDone(), "task 2 has nothing to fetch across: planned at once");
    assertEquals(Status.GRANT, p1.join().status());
    // next wave: task 4's notice reaches the coordinator before the listener reports its launch
    assertEquals(
        Status.FINISHED,
        report(c, i1, demand(1, "e1", "b1", "a1", 200), p1.join(), new long[] {200})
            .join()
            .status());
    c.taskEnded(1);
    c.taskEnded(2);
    c.noCrossClusterDemand(3, 0, 4, "b2");
    c.taskLaunched(3, 0, 3);
    c.taskLaunched(3, 0, 4);
    long i3 = c.register(demand(3, "e1", "b1", "a1", 100)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(i3));
    assertTrue(p3.isDone(), "task 4 already said it has no demand: nothing to wait for");
  }

  /**
   * The heavy receiver's next task turns out to have no cross-cluster blocks: the free flow kept
   * for it goes to the waiting lighter demand at once, not after the keep bound.
   */
  @Test
  void aFlowKeptForATaskWithoutCrossClusterDemandIsHandedOnAtItsNotice() {
    StepCoordinator c = heavyReceiverFetchedItsFirstTask();
    CompletableFuture<GrantReply> p3 = b2WaitsBehindAFlowKeptForB3(c);
    c.noCrossClusterDemand(3, 0, 4, "b3");
    assertTrue(p3.isDone(), "b3's task has nothing to fetch across: the flow goes to b2");
    assertEquals(Status.GRANT, p3.join().status());
  }

  /**
   * A grant no poll collects by the step's deadline (the task stopped polling) is taken back: its
   * flow is freed for another demand, and the task is planned again when it polls.
   */
  @Test
  void uncollectedGrantIsTakenBackAtTheDeadline() {
    // 1000 B/s: 300 B take 0.3 s, deadline max(1 s, 3 x 0.3 s) = 1 s
    StepCoordinator c =
        coordinator(
            Settings.K.key(), "1", Settings.DELTA.key(), "1", Settings.BACKBONE_RATE.key(), "1000");
    RegisterDemand silent = demand(1, "e1", "b1", "a1", 300);
    long is = c.register(silent).demandId();
    timer.advance(100);
    assertEquals(1, c.openFlowCount(), "granted to task 1, which is not polling");
    long ib = c.register(demand(2, "e2", "b2", "a2", 200)).demandId();
    CompletableFuture<GrantReply> pb = c.awaitGrant(AwaitGrant.poll(ib));
    assertFalse(pb.isDone(), "k = 1 is taken by the uncollected grant");
    timer.advance(999);
    assertFalse(pb.isDone());
    timer.advance(1);
    assertTrue(pb.isDone(), "deadline (1 s): the uncollected grant is taken back, b2 is granted");
    assertArrayEquals(new String[] {"a2"}, pb.join().srcHosts());
    assertEquals(1, c.openFlowCount());
    CompletableFuture<GrantReply> ps = c.awaitGrant(AwaitGrant.poll(is));
    assertFalse(ps.isDone(), "task 1 polls again: planned anew, after b2's flow (k = 1)");
    assertEquals(
        Status.FINISHED,
        report(c, ib, demand(2, "e2", "b2", "a2", 200), pb.join(), new long[] {200})
            .join()
            .status());
    assertTrue(ps.isDone());
    assertArrayEquals(new long[] {300}, ps.join().budgets());
  }

  /**
   * Predicted hand-over: a step reported ahead of its end frees its ports at once (the next flow on
   * them is granted), and its realised transfer is recorded when its arrival comes, with that end
   * time; a transfer whose arrival never comes is recorded when its stage completes.
   */
  @Test
  void stepReportedAheadHandsItsPortsOnAndIsRecordedWhenItsLastBlockArrives() {
    StepCoordinator c = coordinator(Settings.K.key(), "1", Settings.DELTA.key(), "1");
    long t0 = timer.now();
    RegisterDemand d1 = demand(1, "e1", "b1", "a1", 300);
    RegisterDemand d2 = demand(2, "e2", "b2", "a1", 200);
    long i1 = c.register(d1).demandId();
    long i2 = c.register(d2).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    timer.advance(100);
    // bottleneck first: b1 receives more (300 B) than b2, so a1 -> b1 goes first
    assertTrue(p1.isDone() && !p2.isDone(), "k = 1");
    GrantReply g = p1.join();
    timer.advance(400);
    AwaitGrant ahead = reportAhead(i1, d1, g, t0 + 100);
    assertTrue(ahead.reportsAhead());
    assertEquals(Status.FINISHED, c.awaitGrant(ahead).join().status());
    assertTrue(p2.isDone(), "the ports went to the next flow at the report");
    assertTrue(events.transfers.isEmpty(), "the first flow is still arriving");
    timer.advance(50);
    c.flowArrived(new FlowArrived(i1, g.stepId(), t0 + 495, timer.now()));
    assertEquals(1, events.transfers.size());
    assertEquals(t0 + 100, events.transfers.get(0).startMs());
    assertEquals(
        t0 + 550, events.transfers.get(0).endMs(), "the end is the arrival, not the report");
    assertEquals(t0 + 495, events.transfers.get(0).handedOnMs(), "handed on at the task's report");
    c.flowArrived(new FlowArrived(i1, g.stepId(), t0 + 495, timer.now()));
    assertEquals(1, events.transfers.size(), "a repeated arrival is ignored");

    timer.advance(100);
    c.awaitGrant(reportAhead(i2, d2, p2.join(), t0 + 560));
    c.stageCompleted(3, 0);
    assertEquals(2, events.transfers.size(), "recorded at stage end without its arrival");
    assertEquals(t0 + 650, events.transfers.get(1).endMs(), "its report time stands for its end");
    assertEquals(t0 + 650, events.transfers.get(1).handedOnMs());
    assertEquals(1, events.stages.size());
  }

  /** A collected grant is never taken back: a slow task keeps its flow past the deadline. */
  @Test
  void collectedGrantOutlivesTheDeadline() {
    StepCoordinator c =
        coordinator(
            Settings.K.key(), "1", Settings.DELTA.key(), "1", Settings.BACKBONE_RATE.key(), "1000");
    long i1 = c.register(demand(1, "e1", "b1", "a1", 300)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    timer.advance(100);
    assertTrue(p1.isDone());
    long i2 = c.register(demand(2, "e2", "b2", "a2", 200)).demandId();
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    timer.advance(5000);
    assertFalse(p2.isDone(), "task 1 is fetching: its flow stays counted (k = 1)");
    assertEquals(1, c.openFlowCount());
  }

  @Test
  void stepIsABarrierAndEveryDemandIsEventuallyRealised() {
    StepCoordinator c =
        coordinator(
            Settings.K.key(),
            "2",
            Settings.DELTA.key(),
            "1",
            Settings.STEP_MODE.key(),
            Settings.BARRIER);
    RegisterDemand d1 = demand(1, "e1", "b1", "a1", 300, "a2", 100);
    RegisterDemand d2 = demand(2, "e2", "b2", "a1", 200, "a2", 400);
    long id1 = c.register(d1).demandId();
    long id2 = c.register(d2).demandId();
    GrantReply g1 = waitFor(c.awaitGrant(AwaitGrant.poll(id1)));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
    timer.advance(100);
    g1 = p1orNow(g1, c, id1);
    GrantReply g2 = p2.join();
    long[] rem1 = {300, 100};
    long[] rem2 = {200, 400};
    CompletableFuture<GrantReply> n1 = report(c, id1, d1, g1, rem1);
    assertFalse(n1.isDone(), "the step is a barrier: task 1 waits for task 2");
    assertEquals(1, c.openFlowCount(), "task 1's flow is closed");
    CompletableFuture<GrantReply> n2 = report(c, id2, d2, g2, rem2);
    assertTrue(n1.isDone() && n2.isDone(), "step 2 granted when the last receiver reported");
    assertEquals(2, events.steps.size());
    assertEquals(
        List.of(new FlowGrant("a1", "b2", 200), new FlowGrant("a2", "b1", 100)),
        events.steps.get(1).flows());
    CompletableFuture<GrantReply> f1 = report(c, id1, d1, n1.join(), rem1);
    CompletableFuture<GrantReply> f2 = report(c, id2, d2, n2.join(), rem2);
    assertEquals(Status.FINISHED, f1.join().status());
    assertEquals(Status.FINISHED, f2.join().status());
    assertEquals(0, c.openFlowCount());
    assertEquals(0, c.pendingDemandCount());
    c.stageCompleted(3, 0);
    StageSummary s = events.stages.get(0);
    assertEquals(List.of("a1", "a2", "b1", "b2"), s.hosts());
    assertEquals(300, s.realisedBytes()[0][2]);
    assertEquals(200, s.realisedBytes()[0][3]);
    assertEquals(100, s.realisedBytes()[1][2]);
    assertEquals(400, s.realisedBytes()[1][3]);
    assertEquals(1000, sum(s.registeredBytes()));
    assertEquals(2, s.steps());
  }

  /**
   * A registration that timed out on the executor but reached the driver leaves a demand whose task
   * never learns its id and fetches ungated (found by fuzzing with askTimeout = 1 ms): the task's
   * ungated report releases it, frees what it was granted, and its bytes are registered once in the
   * stage's matrix, not twice.
   */
  @Test
  void anUngatedReportOfATaskThatNeverLearnedItsDemandIdReleasesTheOrphan() {
    StepCoordinator c = coordinator(Settings.K.key(), "2");
    RegisterDemand orphan = demand(11, "e1", "b1", "a1", 300, "a2", 100);
    RegisterDemand other = demand(12, "e2", "b2", "a1", 50);
    c.register(orphan); // its answer timed out on the executor
    long id = c.register(other).demandId();
    c.awaitGrant(AwaitGrant.poll(id));
    timer.advance(100); // the gather window
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 300)),
        events.steps.get(0).flows(),
        "the orphan holds a1's only port (delta = 1)");
    c.ungatedRealised(new UngatedReport(0, orphan, 1000, 2000));
    assertEquals(1, c.pendingDemandCount(), "the orphan is released, the other demand stays");
    assertEquals(
        List.of(new FlowGrant("a1", "b2", 50)),
        events.steps.get(1).flows(),
        "a1's port goes to the other demand at once");
    assertEquals(1, c.openFlowCount());
    c.stageCompleted(3, 0);
    StageSummary s = events.stages.get(0);
    assertEquals(450, sum(s.registeredBytes()), "300 + 100 registered once, and 50");
    assertEquals(400, sum(s.realisedBytes()), "the ungated 400 B");
    assertEquals(
        2, events.demands.size(), "no second registration event for the orphan: " + events.demands);
  }

  private GrantReply waitFor(CompletableFuture<GrantReply> f) {
    return f.isDone() ? f.join() : null;
  }

  private GrantReply p1orNow(GrantReply g, StepCoordinator c, long id) {
    return g != null ? g : c.awaitGrant(AwaitGrant.poll(id)).join();
  }

  private static long sum(long[][] m) {
    long s = 0;
    for (long[] r : m) {
      for (long v : r) {
        s += v;
      }
    }
    return s;
  }

  /**
   * Pipelined steps: when a short flow ends while a long one runs, the freed ports carry the next
   * transfer at once (a second step overlapping the first); barrier steps make it wait for the long
   * flow. Both keep at most k flows open.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {Settings.PIPELINED, Settings.BARRIER})
  void pipelinedStepsReuseFreedPortsAtOnceBarrierStepsWait(String mode) {
    StepCoordinator c =
        coordinator(
            Settings.K.key(), "2", Settings.DELTA.key(), "1", Settings.STEP_MODE.key(), mode);
    RegisterDemand x = demand(1, "e1", "b1", "a1", 500);
    RegisterDemand y = demand(2, "e2", "b2", "a2", 200);
    RegisterDemand z = demand(3, "e3", "b2", "a3", 150);
    long[] ids = new long[3];
    List<CompletableFuture<GrantReply>> polls = registerAndPoll(c, ids, x, y, z);
    CompletableFuture<GrantReply> px = polls.get(0);
    CompletableFuture<GrantReply> py = polls.get(1);
    CompletableFuture<GrantReply> pz = polls.get(2);
    timer.advance(100);
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 500), new FlowGrant("a2", "b2", 200)),
        events.steps.get(0).flows());
    assertFalse(pz.isDone(), "b2 receives from a2 (delta = 1)");
    assertEquals(
        Status.FINISHED, report(c, ids[1], y, py.join(), new long[] {200}).join().status());
    if (mode.equals(Settings.PIPELINED)) {
      assertTrue(pz.isDone(), "b2's port is free: a3 -> b2 starts while a1 -> b1 runs");
      assertEquals(List.of(new FlowGrant("a3", "b2", 150)), events.steps.get(1).flows());
      assertEquals(2, c.openFlowCount());
      assertTrue(events.done.stream().noneMatch(d -> d[0].equals(1L)), "step 1 still runs");
    } else {
      assertFalse(pz.isDone(), "barrier: a3 -> b2 waits for step 1's last flow");
      assertEquals(1, c.openFlowCount());
      assertEquals(
          Status.FINISHED, report(c, ids[0], x, px.join(), new long[] {500}).join().status());
      assertTrue(pz.isDone());
    }
    assertArrayEquals(new long[] {150}, pz.join().budgets());
    assertEquals(
        Status.FINISHED, report(c, ids[2], z, pz.join(), new long[] {150}).join().status());
    if (mode.equals(Settings.PIPELINED)) {
      assertEquals(
          Status.FINISHED, report(c, ids[0], x, px.join(), new long[] {500}).join().status());
    }
    assertEquals(0, c.openFlowCount());
    assertEquals(0, c.pendingDemandCount());
    assertEquals(2, events.steps.size());
  }

  /**
   * Pipelined steps plan the future bytes of the fetching demands too: a pair whose receiver is
   * busy is not granted on a free sender port ahead of what the plan puts first.
   */
  @Test
  void pipelinedPlanCountsWhatRunningGrantsWillFetch() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    RegisterDemand x = demand(1, "e1", "b1", "a1", 400, "a2", 300);
    long ix = c.register(x).demandId();
    CompletableFuture<GrantReply> px = c.awaitGrant(AwaitGrant.poll(ix));
    timer.advance(100);
    assertArrayEquals(new String[] {"a1"}, px.join().srcHosts(), "delta(b1) = 1");
    RegisterDemand y = demand(2, "e2", "b2", "a2", 100);
    long iy = c.register(y).demandId();
    CompletableFuture<GrantReply> py = c.awaitGrant(AwaitGrant.poll(iy));
    assertTrue(py.isDone(), "a free port pair is used without waiting for step 1 to end");
    PlanEvent plan = events.plans.get(events.plans.size() - 1);
    int a1 = plan.senders().indexOf("a1");
    int a2 = plan.senders().indexOf("a2");
    int b1 = plan.receivers().indexOf("b1");
    assertEquals(-1, a1, "a1 -> b1 is fully granted: no future bytes");
    assertEquals(300L, plan.residualBytes().bytesAt(a2, b1), "x's a2 bytes are still to come");
    assertEquals(2, plan.platform().k(), "pipelined plans see the whole platform");
  }

  @Test
  void deadlineEndsTheStepButTheLaggardKeepsItsFlow() {
    StepCoordinator c =
        coordinator(
            Settings.K.key(),
            "2",
            Settings.DELTA.key(),
            "1",
            Settings.BACKBONE_RATE.key(),
            "2000",
            Settings.STEP_MIN_DEADLINE.key(),
            "1s",
            Settings.STEP_MODE.key(),
            Settings.BARRIER);
    RegisterDemand x = demand(1, "e1", "b1", "a1", 500);
    RegisterDemand y = demand(2, "e2", "b2", "a2", 400);
    RegisterDemand z = demand(3, "e3", "b2", "a1", 300);
    long[] ids = new long[3];
    List<CompletableFuture<GrantReply>> polls = registerAndPoll(c, ids, x, y, z);
    CompletableFuture<GrantReply> px = polls.get(0);
    CompletableFuture<GrantReply> py = polls.get(1);
    CompletableFuture<GrantReply> pz = polls.get(2);
    timer.advance(100);
    assertTrue(px.isDone() && py.isDone());
    assertFalse(pz.isDone());
    // x finishes, y hangs
    CompletableFuture<GrantReply> nx = report(c, ids[0], x, px.join(), new long[] {500});
    assertEquals(Status.FINISHED, nx.join().status());
    assertEquals(1, events.steps.size(), "barrier: y still fetching");
    StepEvent s1 = events.steps.get(0);
    timer.advance(s1.deadlineMs() - timer.now());
    assertEquals(List.<Object>of(1L, true), List.of(events.done.get(0)));
    // z (a1 -> b2) cannot start: b2 still receives y's flow (delta = 1)
    assertFalse(pz.isDone());
    assertEquals(1, c.openFlowCount());
    report(c, ids[1], y, py.join(), new long[] {400});
    assertTrue(pz.isDone(), "z granted once the laggard's flow closed");
    assertEquals(List.of(new FlowGrant("a1", "b2", 300)), events.steps.get(1).flows());
  }

  @Test
  void taskEndReleasesDemandAndFreesItsFlows() {
    StepCoordinator c = coordinator(Settings.K.key(), "1");
    RegisterDemand x = demand(1, "e1", "b1", "a1", 500);
    RegisterDemand y = demand(2, "e2", "b2", "a2", 400);
    long ix = c.register(x).demandId();
    long iy = c.register(y).demandId();
    CompletableFuture<GrantReply> px = c.awaitGrant(AwaitGrant.poll(ix));
    CompletableFuture<GrantReply> py = c.awaitGrant(AwaitGrant.poll(iy));
    timer.advance(100);
    assertTrue(px.isDone());
    assertFalse(py.isDone(), "k = 1");
    c.release(ix, "task-end");
    assertEquals(List.of("1:task-end:500"), events.released);
    assertTrue(py.isDone(), "the freed flow goes to the next demand at once");
    assertEquals(1, c.openFlowCount());
    assertEquals(
        Status.UNGATED,
        c.awaitGrant(AwaitGrant.poll(ix)).join().status(),
        "a released demand never waits");
  }

  /**
   * Two stages read across the backbone at once (two jobs, or two branches of one SQL plan each
   * reading a shuffle): their demands share the backbone's k; each stage's matrix counts only its
   * own bytes; the end of one stage releases only its demands, and the flows they held go to the
   * other stage's waiting demand.
   */
  @Test
  void twoStagesAtOnceShareKAndTheEndOfOneReleasesOnlyItsDemands() {
    StepCoordinator c = coordinator(Settings.K.key(), "2", Settings.DELTA.key(), "1");
    RegisterDemand x =
        new RegisterDemand(3, 0, 7, 1, "e1", "b1", new String[] {"a1"}, new long[] {500});
    RegisterDemand y =
        new RegisterDemand(5, 0, 9, 2, "e2", "b2", new String[] {"a2"}, new long[] {450});
    RegisterDemand z =
        new RegisterDemand(5, 0, 9, 3, "e3", "b3", new String[] {"a3"}, new long[] {400});
    long[] ids = new long[3];
    List<CompletableFuture<GrantReply>> p = registerAndPoll(c, ids, x, y, z);
    timer.advance(100);
    assertEquals(2, c.openFlowCount(), "k = 2 over both stages");
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 500), new FlowGrant("a2", "b2", 450)),
        events.steps.get(0).flows(),
        "one plan over both stages' demands, heaviest receivers first");
    assertTrue(p.get(0).isDone() && p.get(1).isDone());
    assertFalse(p.get(2).isDone(), "stage 5's second task waits for a free flow");

    c.stageCompleted(3, 0); // stage 3 ends (say its job was cancelled) with its flow still open
    assertEquals(List.of("1:stage-done:500"), events.released, "only stage 3's demand is dropped");
    assertEquals(Status.GRANT, p.get(2).join().status(), "the freed flow goes to stage 5 at once");
    assertArrayEquals(new String[] {"a3"}, p.get(2).join().srcHosts());
    assertEquals(2, c.openFlowCount());
    assertEquals(2, c.pendingDemandCount());
    StageSummary s3 = events.stages.get(0);
    assertEquals(new StageRef(3, 0), s3.stage());
    assertArrayEquals(new int[] {7}, s3.shuffleIds());
    long registered3 =
        java.util.Arrays.stream(s3.registeredBytes()).flatMapToLong(java.util.Arrays::stream).sum();
    assertEquals(500, registered3, "stage 3's matrix holds its own bytes only");

    report(c, ids[1], y, p.get(1).join(), y.bytes().clone());
    report(c, ids[2], z, p.get(2).join(), z.bytes().clone());
    c.stageCompleted(5, 0);
    assertEquals(0, c.openFlowCount());
    assertEquals(0, c.pendingDemandCount());
    StageSummary s5 = events.stages.get(1);
    assertEquals(new StageRef(5, 0), s5.stage());
    long realised5 =
        java.util.Arrays.stream(s5.realisedBytes()).flatMapToLong(java.util.Arrays::stream).sum();
    assertEquals(850, realised5, "stage 5 realised both of its tasks' bytes");
  }

  @Test
  void executorLossAndDriverTaskEndReleaseDemands() {
    StepCoordinator c = coordinator(Settings.K.key(), "4");
    long a = c.register(demand(1, "e1", "b1", "a1", 10)).demandId();
    c.register(demand(2, "e1", "b1", "a2", 10));
    c.register(demand(3, "e2", "b2", "a1", 10));
    CompletableFuture<GrantReply> pa = c.awaitGrant(AwaitGrant.poll(a));
    c.executorLost("e1");
    assertEquals(Status.UNGATED, pa.join().status());
    assertEquals(1, c.pendingDemandCount());
    c.releaseTask(3, "task-end");
    assertEquals(0, c.pendingDemandCount());
    assertEquals(
        List.of("1:executor-lost:10", "2:executor-lost:10", "3:task-end:10"), events.released);
  }

  @Test
  void speculativeAttemptHasItsOwnDemand() {
    StepCoordinator c = coordinator(Settings.K.key(), "4", Settings.DELTA.key(), "2");
    RegisterDemand first = demand(10, "e1", "b1", "a1", 100);
    RegisterDemand spec = demand(11, "e2", "b2", "a1", 100);
    long i1 = c.register(first).demandId();
    long i2 = c.register(spec).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    timer.advance(100);
    assertTrue(p1.isDone() && p2.isDone(), "delta(a1) = 2 serves both attempts");
    c.releaseTask(10, "task-end");
    assertEquals(1, c.openFlowCount());
    assertEquals(Status.FINISHED, report(c, i2, spec, p2.join(), new long[] {100}).join().status());
  }

  @Test
  void expiredPollDoesNotLoseAGrant() {
    StepCoordinator c = coordinator(Settings.K.key(), "1");
    long i = c.register(demand(1, "e1", "b1", "a1", 10)).demandId();
    CompletableFuture<GrantReply> p = c.awaitGrant(AwaitGrant.poll(i));
    c.pollExpired(i, p);
    assertEquals(Status.NOT_YET, p.join().status());
    timer.advance(100); // grant issued while nobody polls
    GrantReply g = c.awaitGrant(AwaitGrant.poll(i)).join();
    assertEquals(Status.GRANT, g.status());
    assertEquals(1, g.stepId());
  }

  @Test
  void stopUngatesParkedTasks() {
    StepCoordinator c = coordinator(Settings.K.key(), "1");
    long i = c.register(demand(1, "e1", "b1", "a1", 10)).demandId();
    CompletableFuture<GrantReply> p = c.awaitGrant(AwaitGrant.poll(i));
    c.stop();
    assertEquals(Status.UNGATED, p.join().status());
    assertFalse(c.register(demand(2, "e1", "b1", "a1", 10)).gated());
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"throws", "empty"})
  void brokenSchedulerNeverStallsTheShuffle(String failure) {
    WanShuffleConf conf =
        WanShuffleConf.from(
            new SparkConf(false).set(Settings.ALGORITHM.key(), "broken").set(Settings.K.key(), "2"),
            Set.of("broken"));
    io.wanshuffle.scheduler.StepScheduler broken =
        new io.wanshuffle.scheduler.StepScheduler() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public io.wanshuffle.scheduler.Schedule schedule(
              TrafficMatrix m, io.wanshuffle.scheduler.Platform p) {
            if (failure.equals("throws")) {
              throw new IllegalArgumentException("instance too large");
            }
            return new io.wanshuffle.scheduler.Schedule(List.of());
          }
        };
    StepCoordinator c =
        StepCoordinator.builder(conf)
            .scheduler(broken)
            .listeners(List.of(events))
            .timer(timer)
            .clock(timer::now)
            .build();
    RegisterDemand x = demand(1, "e1", "b1", "a1", 10, "a2", 30);
    long i = c.register(x).demandId();
    CompletableFuture<GrantReply> p = c.awaitGrant(AwaitGrant.poll(i));
    timer.advance(conf.get(Settings.GATHER_WINDOW));
    assertEquals(Status.GRANT, p.join().status(), "the largest transfer is granted alone");
    assertArrayEquals(new String[] {"a2"}, p.join().srcHosts());
    CompletableFuture<GrantReply> n = report(c, i, x, p.join(), new long[] {10, 30});
    assertArrayEquals(new String[] {"a1"}, n.join().srcHosts());
    assertEquals(Status.FINISHED, report(c, i, x, n.join(), new long[] {10, 0}).join().status());
  }

  @Test
  void listenerFailureDoesNotBreakTheCoordinator() {
    WanShuffleConf conf =
        WanShuffleConf.from(
            new SparkConf(false)
                .set(Settings.ALGORITHM.key(), "greedy-test")
                .set(Settings.K.key(), "1"),
            Set.of("greedy-test"));
    CoordinatorListener bad =
        new CoordinatorListener() {
          @Override
          public void onStepGranted(StepEvent e) {
            throw new IllegalStateException("boom");
          }
        };
    StepCoordinator c =
        StepCoordinator.builder(conf)
            .scheduler(new GreedyTestScheduler())
            .listeners(List.of(bad))
            .timer(timer)
            .clock(timer::now)
            .build();
    long i = c.register(demand(1, "e1", "b1", "a1", 10)).demandId();
    CompletableFuture<GrantReply> p = c.awaitGrant(AwaitGrant.poll(i));
    timer.advance(conf.get(Settings.GATHER_WINDOW));
    assertEquals(Status.GRANT, p.join().status());
  }

  /**
   * Random demands, random report order, random laggards: at every instant at most k flows are open
   * and at most δ per host (sending and receiving), and every byte is eventually realised.
   */
  static List<String> schedulers() {
    List<String> names = new ArrayList<>(List.of("greedy-test", GreedyFirstStep.NAME));
    for (String n : Algorithms.names()) {
      if (!n.equals("exact")) {
        names.add(n);
      }
    }
    return names;
  }

  static List<org.junit.jupiter.params.provider.Arguments> schedulersAndModes() {
    List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
    for (String n : schedulers()) {
      for (String mode : List.of(Settings.PIPELINED, Settings.BARRIER)) {
        out.add(org.junit.jupiter.params.provider.Arguments.of(n, mode));
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("schedulersAndModes")
  void randomWorkloadsRespectKAndDeltaAndFinish(String algorithm, String mode) {
    Random rnd = new Random(42);
    for (int round = 0; round < 30; round++) {
      int k = 1 + rnd.nextInt(4);
      int delta = 1 + rnd.nextInt(3);
      RecordingListener ev = new RecordingListener();
      PlanValidator validator = new PlanValidator();
      ManualTimer t = new ManualTimer();
      WanShuffleConf conf =
          WanShuffleConf.from(
              new SparkConf(false)
                  .set(Settings.ALGORITHM.key(), algorithm)
                  .set(Settings.K.key(), "" + k)
                  .set(Settings.DELTA.key(), "" + delta)
                  .set(Settings.STEP_MIN_DEADLINE.key(), "1s")
                  .set(Settings.STEP_MODE.key(), mode)
                  .set(Settings.BACKBONE_RATE.key(), "" + 1000 * k),
              Set.copyOf(schedulers()));
      StepCoordinator c =
          StepCoordinator.builder(conf)
              .scheduler(
                  algorithm.equals("greedy-test")
                      ? new GreedyTestScheduler()
                      : algorithm.equals(GreedyFirstStep.NAME)
                          ? new GreedyFirstStep()
                          : Algorithms.byName(algorithm))
              .listeners(List.of(ev, validator))
              .timer(t)
              .clock(t::now)
              .build();
      int tasks = 2 + rnd.nextInt(10);
      Map<Long, RegisterDemand> regs = new HashMap<>();
      Map<Long, long[]> rem = new HashMap<>();
      Map<Long, CompletableFuture<GrantReply>> polls = new HashMap<>();
      long total = 0;
      for (int task = 0; task < tasks; task++) {
        List<Object> sb = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
          if (rnd.nextBoolean()) {
            long b = 1 + rnd.nextInt(1000);
            sb.add("a" + s);
            sb.add(b);
            total += b;
          }
        }
        if (sb.isEmpty()) {
          continue;
        }
        RegisterDemand d = demand(task, "e" + task, "b" + rnd.nextInt(3), sb.toArray());
        long id = c.register(d).demandId();
        regs.put(id, d);
        rem.put(id, d.bytes().clone());
        polls.put(id, c.awaitGrant(AwaitGrant.poll(id)));
      }
      t.advance(200);
      Map<Long, GrantReply> holding = new HashMap<>();
      int guard = 0;
      while (!polls.isEmpty() || !holding.isEmpty()) {
        assertTrue(++guard < 10_000, "no progress");
        for (Map.Entry<Long, CompletableFuture<GrantReply>> e : new ArrayList<>(polls.entrySet())) {
          if (e.getValue().isDone()) {
            GrantReply g = e.getValue().join();
            polls.remove(e.getKey());
            if (g.status() == Status.GRANT) {
              holding.put(e.getKey(), g);
            } else {
              assertEquals(Status.FINISHED, g.status());
            }
          }
        }
        checkFlows(holding, regs, k, delta);
        assertTrue(c.openFlowCount() <= k);
        if (holding.isEmpty()) {
          t.advance(1000);
          continue;
        }
        // one random holder reports (others lag); sometimes time passes a deadline instead
        if (rnd.nextInt(5) == 0) {
          t.advance(5000);
          continue;
        }
        List<Long> ids = new ArrayList<>(holding.keySet());
        long id = ids.get(rnd.nextInt(ids.size()));
        GrantReply g = holding.remove(id);
        polls.put(id, report(c, id, regs.get(id), g, rem.get(id)));
      }
      assertEquals(0, c.openFlowCount());
      long realised = 0;
      for (TransferRecord r : ev.transfers) {
        for (long b : r.bytes()) {
          realised += b;
        }
      }
      assertEquals(total, realised, "every registered byte was granted and realised");
      for (StepEvent s : ev.steps) {
        assertTrue(s.flows().size() <= k);
      }
      assertEquals(List.of(), validator.invalid, algorithm + " produced an invalid plan");
    }
  }

  private static void checkFlows(
      Map<Long, GrantReply> holding, Map<Long, RegisterDemand> regs, int k, int delta) {
    Set<String> pairs = new java.util.HashSet<>();
    for (Map.Entry<Long, GrantReply> e : holding.entrySet()) {
      for (String s : e.getValue().srcHosts()) {
        pairs.add(s + ">" + regs.get(e.getKey()).dstHost());
      }
    }
    assertTrue(pairs.size() <= k, "open flows " + pairs + " exceed k = " + k);
    Map<String, Integer> out = new HashMap<>();
    Map<String, Integer> in = new HashMap<>();
    for (String p : pairs) {
      String[] sd = p.split(">");
      out.merge(sd[0], 1, Integer::sum);
      in.merge(sd[1], 1, Integer::sum);
    }
    for (int v : out.values()) {
      assertTrue(v <= delta, "sender delta exceeded: " + pairs);
    }
    for (int v : in.values()) {
      assertTrue(v <= delta, "receiver delta exceeded: " + pairs);
    }
    assertNotNull(regs);
  }

  /**
   * An idle poll (the task reads another shuffle and waits there) takes back the demand's unstarted
   * grant: its flow is free at once, the step ends, the other demand is granted, and the idle
   * demand is not planned again until a poll without the idle mark; its bytes stay to fetch.
   */
  @Test
  void idlePollTakesBackAnUnstartedGrantAndHoldsTheDemandUntilReadAgain() {
    StepCoordinator c = coordinator(Settings.K.key(), "1");
    RegisterDemand big = demand(1, "e1", "b1", "a2", 500);
    RegisterDemand small =
        new RegisterDemand(3, 0, 8, 1, "e1", "b1", new String[] {"a1"}, new long[] {100});
    long idBig = c.register(big).demandId();
    long idSmall = c.register(small).demandId();
    CompletableFuture<GrantReply> pBig = c.awaitGrant(AwaitGrant.poll(idBig));
    CompletableFuture<GrantReply> pSmall = c.awaitGrant(AwaitGrant.poll(idSmall));
    timer.advance(100);
    assertEquals(Status.GRANT, pBig.join().status(), "k = 1: the larger demand goes first");
    assertFalse(pSmall.isDone());
    assertEquals(1, c.openFlowCount());

    CompletableFuture<GrantReply> idle = c.awaitGrant(AwaitGrant.idle(idBig));
    assertFalse(idle.isDone(), "an idle demand gets no grant");
    assertEquals(Status.GRANT, pSmall.join().status(), "the freed flow goes to the other demand");
    assertArrayEquals(new String[] {"a1"}, pSmall.join().srcHosts());
    assertEquals(1, c.openFlowCount(), "never more than k flows");
    CompletableFuture<GrantReply> done = report(c, idSmall, small, pSmall.join(), new long[] {100});
    assertEquals(Status.FINISHED, done.join().status());
    assertEquals(0, c.openFlowCount());
    assertFalse(idle.isDone(), "still idle: not planned");

    CompletableFuture<GrantReply> again = c.awaitGrant(AwaitGrant.poll(idBig));
    assertEquals(Status.NOT_YET, idle.join().status(), "the idle poll is superseded");
    timer.advance(100);
    GrantReply g = again.join();
    assertEquals(Status.GRANT, g.status());
    assertArrayEquals(new long[] {500}, g.budgets(), "the taken-back bytes are planned again");
    assertEquals(Status.FINISHED, report(c, idBig, big, g, new long[] {500}).join().status());
    assertEquals(0, c.openFlowCount());
    assertEquals(0, c.pendingDemandCount());
  }
}
