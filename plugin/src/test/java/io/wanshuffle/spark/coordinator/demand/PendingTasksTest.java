package io.wanshuffle.spark.coordinator.demand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingTasksTest {
  /** A limit no forecast here reaches: every expected task listed. */
  private static final int LIMIT = io.wanshuffle.spark.measure.TransferPrediction.MAX_SIMULATED;

  private static final StageRef STAGE = new StageRef(3, 0);

  @Test
  void pendingTasksAreExpectedToFetchWhatTheStagesTasksOnTheirHostFetched() {
    PendingTasks p = new PendingTasks();
    // 2 tasks on b1, 2 on b2, 1 that may run on b1 or b2
    p.submitted(
        STAGE,
        List.of(List.of("b1"), List.of("b2"), List.of("b1"), List.of("b2"), List.of("b1", "b2")));
    assertTrue(
        p.estimate().receivers().isEmpty(), "no registered demand: nothing to estimate from");
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    p.registered(STAGE, 2, "b2", new String[] {"a1"}, new long[] {100});
    // pending: b1 1.5 tasks of 400 B, b2 1.5 tasks of 100 B
    Map<String, Double> r = p.estimate().receivers();
    assertEquals(600, r.get("b1"), 1e-6);
    assertEquals(150, r.get("b2"), 1e-6);
    // 750 B pending, split as registered: a1 400 / 500, a2 100 / 500
    Map<String, Double> s = p.estimate().senders();
    assertEquals(600, s.get("a1"), 1e-6);
    assertEquals(150, s.get("a2"), 1e-6);
    assertTrue(p.estimate().awaited().isEmpty(), "every launched task registered");
  }

  @Test
  void anEstimateKeepsTheSplitOfItsMomentWhileLaterTasksRegister() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b1"), List.of("b1"), List.of("b2")));
    p.launched(STAGE, "b1", 1);
    p.registered(STAGE, 1, "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    // pending: b1 2 tasks of 400 B split 3:1; b2 1 task at the stage's mean, split as the stage's
    PendingTasks.Estimate before = p.estimate();
    p.launched(STAGE, "b1", 2);
    p.registered(STAGE, 2, "b1", new String[] {"a2"}, new long[] {400});
    p.launched(STAGE, "b2", 4);
    p.registered(STAGE, 4, "b2", new String[] {"a3"}, new long[] {50});
    // read after the registrations (the planner sums the split off the coordinator's lock)
    Map<String, Double> s = before.senders();
    assertEquals(Map.of("a1", 900.0, "a2", 300.0), s);
    // a later estimate sees the new rows: b1 1 task of 400 B split 3:5, b2 none left
    Map<String, Double> after = p.estimate().senders();
    assertEquals(150, after.get("a1"), 1e-6);
    assertEquals(250, after.get("a2"), 1e-6);
    assertEquals(0, after.getOrDefault("a3", 0.0), 1e-6);
  }

  @Test
  void aTaskWithoutCrossClusterBytesIsNoLongerAwaitedAndLowersItsHostsEstimate() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b1"), List.of("b2")));
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {400});
    assertEquals(
        Map.of("b2", 800.0), p.estimate().awaited(), "b2's two tasks count at the stage's mean");
    p.noCrossClusterBytes(STAGE, 2, "b2");
    assertTrue(p.estimate().awaited().isEmpty(), "b2's task will not register");
    // pending: one task on b1 at b1's mean (400 B), one on b2 at b2's mean (0 B)
    assertEquals(400, p.estimate().receivers().get("b1"), 1e-6);
    assertEquals(0, p.estimate().receivers().getOrDefault("b2", 0.0), 1e-6);
    assertEquals(400, p.estimate().senders().get("a1"), 1e-6);
    // a stage not submitted (or done) is not created by a late notice
    p.noCrossClusterBytes(new StageRef(9, 0), 7, "b1");
    p.done(STAGE);
    assertTrue(p.estimate().receivers().isEmpty());
  }

  @Test
  void aLaunchedTaskCountsOnItsHostUntilItRegistersOrEnds() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b2")));
    p.launched(STAGE, "b1", 1);
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {100});
    assertEquals(Map.of("b2", 200.0), p.estimate().receivers(), "b1's only task registered");
    p.launched(STAGE, "b3", 2); // no task preferred b3: one task fewer over the hosts pending
    assertEquals(
        Map.of("b2", 100.0, "b3", 100.0),
        p.estimate().receivers(),
        "the launched task counts on b3, at the stage's mean, until it registers");
    assertEquals(Map.of("b3", 100.0), p.estimate().awaited());
    p.ended(2);
    assertEquals(Map.of("b2", 100.0), p.estimate().receivers());
    assertTrue(p.estimate().awaited().isEmpty());
    p.launched(STAGE, "b2", 3);
    p.registered(STAGE, 3, "b2", new String[] {"a1"}, new long[] {50});
    assertTrue(p.estimate().receivers().isEmpty(), "every task launched and registered");
    p.launched(STAGE, "b2", 4); // a retry: counts until it registers, at b2's mean
    assertEquals(Map.of("b2", 50.0), p.estimate().receivers());
    p.done(STAGE);
    assertTrue(p.estimate().receivers().isEmpty());
    assertTrue(p.estimate().senders().isEmpty());
    assertTrue(p.estimate().awaited().isEmpty());
  }

  /**
   * A diagonal pattern (each receiver fetches from one sender): a host's pending tasks load the
   * senders its own tasks fetch from, not every sender of the stage.
   */
  @Test
  void aHostsPendingBytesLoadTheSendersItsOwnTasksFetchFrom() {
    PendingTasks p = new PendingTasks();
    p.submitted(
        STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b1"), List.of("b2"), List.of("b3")));
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {100});
    p.registered(STAGE, 2, "b2", new String[] {"a2"}, new long[] {300});
    // b1: 100 B to come from a1; b2: 300 B from a2; b3 (no task yet): the stage's mean, 200 B,
    // split as the stage's registered bytes (a1 1/4, a2 3/4)
    Map<String, Double> s = p.estimate().senders();
    assertEquals(100 + 50, s.get("a1"), 1e-6);
    assertEquals(300 + 150, s.get("a2"), 1e-6);
  }

  /**
   * A host whose task fetched all its bytes runs its next task as soon as that one ends: while
   * tasks preferring it are still to launch, it awaits a registration; not once the task ended, nor
   * when no task is left for it.
   */
  @Test
  void aHostWhoseTaskFetchedEverythingAwaitsItsNextTask() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b1")));
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {400});
    p.registered(STAGE, 2, "b2", new String[] {"a1"}, new long[] {100});
    p.fetched(STAGE, 2, "b2");
    assertTrue(p.estimate().awaited().isEmpty(), "no task left to launch on b2");
    p.fetched(STAGE, 1, "b1");
    assertEquals(Map.of("b1", 400.0), p.estimate().awaited(), "b1's next task, at b1's mean");
    p.ended(1);
    assertTrue(p.estimate().awaited().isEmpty(), "the task ended: the launch is what counts now");
    p.launched(STAGE, "b1", 3);
    assertEquals(Map.of("b1", 400.0), p.estimate().awaited(), "launched, not registered");
    p.fetched(STAGE, 9, "b1");
    p.registered(STAGE, 3, "b1", new String[] {"a1"}, new long[] {400});
    assertTrue(p.estimate().awaited().isEmpty(), "an unregistered task's fetch is ignored");
  }

  @Test
  void theForecastCountsTheStagesTasksWithoutAPlaceSpreadAsTheRegisteredOnes() {
    PendingTasks p = new PendingTasks();
    // 8 tasks without a preferred host; the first wave: one task on each of b1, b2 and b3 (b3's
    // task has no cross-cluster bytes) and one launched on b2 that has not registered yet
    p.submitted(
        STAGE,
        List.of(
            List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
            List.of()));
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.launched(STAGE, "b3", 3);
    p.launched(STAGE, "b2", 4);
    p.registered(STAGE, 1, "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    p.registered(STAGE, 2, "b2", new String[] {"a1"}, new long[] {200});
    p.noCrossClusterBytes(STAGE, 3, "b3");
    assertTrue(p.estimate().receivers().get("b1") == null, "port ranking: unplaced tasks nowhere");
    PendingTasks.Forecast f = p.forecast(STAGE);
    // 8 - 4 seen = 4 unplaced, a third on each registered host; b2 also awaits task 4
    assertEquals(4.0 / 3, f.tasks().get("b1"), 1e-9);
    assertEquals(1 + 4.0 / 3, f.tasks().get("b2"), 1e-9);
    assertEquals(4.0 / 3, f.tasks().get("b3"), 1e-9);
    assertEquals(Map.of("a1", 300.0, "a2", 100.0), f.taskBytes().get("b1"));
    assertEquals(Map.of("a1", 200.0), f.taskBytes().get("b2"));
    assertTrue(f.taskBytes().get("b3").isEmpty(), "b3's tasks fetch nothing cross-cluster");
    // b1: one whole task and a third; b2: two whole tasks and a third
    assertEquals(
        List.of(
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b1", 300),
            new io.wanshuffle.spark.measure.PlannedFlow("a2", "b1", 100),
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b1", 100),
            new io.wanshuffle.spark.measure.PlannedFlow("a2", "b1", 33),
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b2", 200),
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b2", 200),
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b2", 67)),
        f.flows(LIMIT));
    // the expected bytes: the stage's mean (600 / 3) x 4 unplaced + b2's mean for task 4
    double sum =
        f.flows(LIMIT).stream().mapToLong(io.wanshuffle.spark.measure.PlannedFlow::bytes).sum();
    assertEquals(4 * 600.0 / 3 + 200, sum, 1.0);
    // once every task is launched and registered, nothing is expected
    for (long t = 4; t <= 8; t++) {
      p.launched(STAGE, "b1", t);
      p.registered(STAGE, t, "b1", new String[] {"a1"}, new long[] {10});
    }
    assertTrue(p.forecast(STAGE).flows(LIMIT).isEmpty(), p.forecast(STAGE).toString());
    assertTrue(p.forecast(new StageRef(9, 0)).flows(LIMIT).isEmpty(), "unknown stage");
  }

  @Test
  void aForecastOfMoreTransfersThanTheLimitSumsEachHostPair() {
    PendingTasks p = new PendingTasks();
    List<List<String>> places = new java.util.ArrayList<>();
    for (int t = 0; t < 1000; t++) {
      places.add(List.of());
    }
    p.submitted(STAGE, places);
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    p.registered(STAGE, 2, "b2", new String[] {"a1"}, new long[] {200});
    PendingTasks.Forecast f = p.forecast(STAGE);
    List<io.wanshuffle.spark.measure.PlannedFlow> each = f.flows(LIMIT);
    assertEquals(499 * 2 + 499, each.size(), "998 unplaced tasks, half on each host");
    List<io.wanshuffle.spark.measure.PlannedFlow> summed = f.flows(100);
    assertEquals(
        List.of(
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b1", 149_700, 499),
            new io.wanshuffle.spark.measure.PlannedFlow("a2", "b1", 49_900, 499),
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b2", 99_800, 499)),
        summed);
    assertEquals(
        each.stream().mapToLong(io.wanshuffle.spark.measure.PlannedFlow::bytes).sum(),
        summed.stream().mapToLong(io.wanshuffle.spark.measure.PlannedFlow::bytes).sum(),
        "the same bytes");
    assertEquals(
        each.size(),
        summed.stream().mapToInt(io.wanshuffle.spark.measure.PlannedFlow::transfers).sum(),
        "the same transfers");
  }

  @Test
  void tasksPreferringAHostAreForecastThereAndNotAgainAsUnplaced() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b1"), List.of("b2")));
    p.launched(STAGE, "b1", 1);
    p.launched(STAGE, "b2", 2);
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {100});
    p.registered(STAGE, 2, "b2", new String[] {"a2"}, new long[] {300});
    PendingTasks.Forecast f = p.forecast(STAGE);
    assertEquals(Map.of("b1", 1.0, "b2", 1.0), f.tasks());
    assertEquals(
        List.of(
            new io.wanshuffle.spark.measure.PlannedFlow("a1", "b1", 100),
            new io.wanshuffle.spark.measure.PlannedFlow("a2", "b2", 300)),
        f.flows(LIMIT));
  }
}
