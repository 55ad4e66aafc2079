package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.StageGate;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class StageGateTest {
  private final ManualTimer timer = new ManualTimer();
  private final List<String> decisions = new ArrayList<>();
  private final List<double[]> predictions = new ArrayList<>();
  private final List<String> released = new ArrayList<>();
  private final List<StepEvent> steps = new ArrayList<>();
  private final CoordinatorListener events =
      new CoordinatorListener() {
        @Override
        public void onStagePredicted(StageRef stage, double scheduled, double dflt) {
          predictions.add(new double[] {stage.stageId(), scheduled, dflt});
        }

        @Override
        public void onStageGated(
            StageRef stage, boolean gated, double scheduled, double dflt, String reason) {
          decisions.add(stage.stageId() + "." + stage.attempt() + " " + gated + " " + reason);
        }

        @Override
        public void onStepGranted(StepEvent e) {
          steps.add(e);
        }

        @Override
        public void onDemandReleased(
            long demandId, long taskAttemptId, long unrealisedBytes, String reason) {
          released.add(reason);
        }
      };

  @Test
  void aStageIsGatedOnlyWhenTheScheduleBeatsTheDefaultByTheMargin() {
    StageGate.Decision pays = StageGate.rule(0.05, 9, 10);
    assertTrue(pays.gated());
    assertEquals(
        "gated: predicted 9.000 s scheduled against 10.000 s as Spark's default (more than 5 %"
            + " faster)",
        pays.reason());
    StageGate.Decision close = StageGate.rule(0.05, 9.6, 10);
    assertFalse(close.gated());
    assertEquals(
        "ungated: predicted 9.600 s scheduled against 10.000 s as Spark's default (not more than"
            + " 5 % faster)",
        close.reason());
    assertFalse(StageGate.rule(0, 10, 10).gated(), "equal: the default costs no setup");
    assertTrue(StageGate.rule(0.5, Double.NaN, 10).gated(), "no prediction: gated");
    assertTrue(StageGate.rule(0.5, 1, Double.NaN).gated());
  }

  @Test
  void decisionsAreKeptPerStageUntilItCompletes() {
    StageGate g = new StageGate(0.1);
    StageRef s = new StageRef(3, 0);
    assertTrue(g.enabled());
    assertFalse(g.decided(s));
    g.decide(s, 10, 10);
    assertTrue(g.decided(s) && g.ungated(s));
    assertFalse(g.ungated(new StageRef(3, 1)));
    g.forget(s);
    assertFalse(g.decided(s));
    assertFalse(new StageGate(-1).enabled());
  }

  private StepCoordinator coordinator(String margin) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.NIC_RATE.key(), "1mb")
            .set(Settings.BACKBONE_RATE.key(), "10mb")
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.STEP_MIN_DEADLINE.key(), "1s")
            .set(Settings.GATHER_WINDOW.key(), "100ms")
            .set(Settings.PLANNING_BUDGET.key(), "0")
            .set(Settings.GATE_MARGIN.key(), margin);
    return StepCoordinator.builder(WanShuffleConf.from(c, Set.of("greedy-test")))
        .scheduler(new GreedyTestScheduler())
        .listeners(List.of(events))
        .timer(timer)
        .clock(timer::now)
        .clusters(h -> h.substring(0, 1))
        .build();
  }

  private static RegisterDemand demand(long task, String dst, String src, long bytes) {
    return new RegisterDemand(
        3, 0, 7, task, "e" + task, dst, new String[] {src}, new long[] {bytes});
  }

  private static RegisterDemand demand(long task, String dst, long fromA1, long fromA2) {
    return new RegisterDemand(
        3, 0, 7, task, "e" + task, dst, new String[] {"a1", "a2"}, new long[] {fromA1, fromA2});
  }

  @Test
  void aStageThatDoesNotPayIsReleasedWaitingAndLaterTasksFetchAtOnce() {
    // margin 1: no schedule saves all of the default's time, so the stage is never gated
    StepCoordinator c = coordinator("1");
    long id1 = c.register(demand(1, "b1", "a1", 1000)).demandId();
    long id2 = c.register(demand(2, "b2", "a2", 500)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
    timer.advance(100);
    assertEquals(Status.UNGATED, p1.join().status());
    assertEquals(Status.UNGATED, p2.join().status());
    assertTrue(steps.isEmpty(), "no step granted");
    assertEquals(0, c.openFlowCount());
    assertEquals(1, decisions.size());
    assertTrue(decisions.get(0).startsWith("3.0 false ungated: predicted"), decisions.toString());
    assertEquals(List.of("stage-ungated", "stage-ungated"), released);
    // a task of the stage that registers later is told at once to fetch ungated
    Registered late = c.register(demand(3, "b1", "a2", 700));
    assertFalse(late.gated());
    assertEquals(Status.UNGATED, c.awaitGrant(AwaitGrant.poll(late.demandId())).join().status());
    assertEquals(1, decisions.size(), "decided once per stage");
  }

  @Test
  void withoutAMarginEveryStageIsGatedAsBefore() {
    StepCoordinator c = coordinator("off");
    long id1 = c.register(demand(1, "b1", "a1", 1000)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    timer.advance(100);
    assertEquals(Status.GRANT, p1.join().status());
    assertTrue(decisions.isEmpty());
  }

  @Test
  void aStageThatPaysIsGated() {
    // one flow per NIC; b3 receives twice what b1 and b2 do from each sender: fair sharing
    // (η_o) takes 10 units, where a schedule needs the senders' 8 (the matrix where η_o is
    // furthest above the lower bound among small ones); margin 0.1: 8 < 0.9 x 10
    StepCoordinator c = coordinator("0.1");
    long[] ids = {
      c.register(demand(1, "b1", 2_000_000, 2_000_000)).demandId(),
      c.register(demand(2, "b2", 2_000_000, 2_000_000)).demandId(),
      c.register(demand(3, "b3", 4_000_000, 4_000_000)).demandId()
    };
    List<CompletableFuture<GrantReply>> polls = new ArrayList<>();
    for (long id : ids) {
      polls.add(c.awaitGrant(AwaitGrant.poll(id)));
    }
    timer.advance(100);
    assertEquals(1, decisions.size());
    assertTrue(decisions.get(0).startsWith("3.0 true gated: predicted"), decisions.toString());
    assertFalse(steps.isEmpty(), "granted in steps");
    assertTrue(released.isEmpty());
    assertEquals(
        2, polls.stream().filter(p -> p.isDone() && p.join().status() == Status.GRANT).count());
  }

  @Test
  void aStageOfSeveralWavesIsPredictedOnceOnAllItsTasks() {
    // no margin: nothing is decided, the stage is still predicted once at its first plan
    StepCoordinator c = coordinator("off");
    // 6 tasks without a preferred host; the first wave: one task on each of b1, b2
    c.stageSubmitted(
        3, 0, List.of(List.of(), List.of(), List.of(), List.of(), List.of(), List.of()));
    c.taskLaunched(3, 0, 1, "b1");
    c.taskLaunched(3, 0, 2, "b2");
    long id1 = c.register(demand(1, "b1", "a1", 1 << 20)).demandId();
    long id2 = c.register(demand(2, "b2", "a2", 1 << 20)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    c.awaitGrant(AwaitGrant.poll(id2));
    timer.advance(100);
    assertEquals(Status.GRANT, p1.join().status());
    assertTrue(decisions.isEmpty());
    assertEquals(1, predictions.size());
    // 2 registered + 4 expected tasks of 1 MiB: 3 per receiver, one after the other on each
    // sender's 1-flow NIC of 1 MiB/s (β 0): 3 s, not the first wave's 1 s; fair sharing the same
    assertEquals(3.0, predictions.get(0)[1], 1e-6);
    assertEquals(3.0, predictions.get(0)[2], 1e-6);
    c.register(demand(3, "b1", "a1", 1 << 20));
    timer.advance(2000);
    assertEquals(1, predictions.size(), "predicted once per stage attempt");
  }
}
