package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PendingTasksTest {
  private static final StageRef STAGE = new StageRef(3, 0);

  @Test
  void pendingTasksAreExpectedToFetchWhatTheStagesTasksOnTheirHostFetched() {
    PendingTasks p = new PendingTasks();
    // 2 tasks on b1, 2 on b2, 1 that may run on b1 or b2
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b1"), List.of("b2"),
        List.of("b1", "b2")));
    assertTrue(p.receiverBytes().isEmpty(), "no registered demand: nothing to estimate from");
    p.launched(STAGE, "b1");
    p.launched(STAGE, "b2");
    p.registered(STAGE, 1, "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    p.registered(STAGE, 2, "b2", new String[] {"a1"}, new long[] {100});
    // pending: b1 1.5 tasks of 400 B, b2 1.5 tasks of 100 B
    Map<String, Double> r = p.receiverBytes();
    assertEquals(600, r.get("b1"), 1e-6);
    assertEquals(150, r.get("b2"), 1e-6);
    // 750 B pending, split as registered: a1 400 / 500, a2 100 / 500
    Map<String, Double> s = p.senderBytes();
    assertEquals(600, s.get("a1"), 1e-6);
    assertEquals(150, s.get("a2"), 1e-6);
  }

  @Test
  void aLaunchTakesATaskOffItsHostOrOffTheOthersAndACompletedStageCountsNoMore() {
    PendingTasks p = new PendingTasks();
    p.submitted(STAGE, List.of(List.of("b1"), List.of("b2"), List.of("b2")));
    p.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {100});
    p.launched(STAGE, "b1");
    assertEquals(Map.of("b2", 200.0), p.receiverBytes(), "b1's only task launched");
    p.launched(STAGE, "b3"); // no task preferred b3: one task fewer over the hosts still pending
    assertEquals(100, p.receiverBytes().get("b2"), 1e-6);
    p.launched(STAGE, "b2");
    assertTrue(p.receiverBytes().isEmpty());
    p.launched(STAGE, "b2"); // more launches than tasks (retries): nothing below zero
    assertTrue(p.receiverBytes().isEmpty());

    PendingTasks q = new PendingTasks();
    q.submitted(STAGE, List.of(List.of("b1"), List.of("b1")));
    q.registered(STAGE, 1, "b1", new String[] {"a1"}, new long[] {100});
    assertEquals(200, q.receiverBytes().get("b1"), 1e-6);
    q.done(STAGE);
    assertTrue(q.receiverBytes().isEmpty());
    assertTrue(q.senderBytes().isEmpty());
  }
}
