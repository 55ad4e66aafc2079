package io.wanshuffle.spark.coordinator.demand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LaunchedTasksTest {
  private static final StageRef S1 = new StageRef(1, 0);
  private static final StageRef S2 = new StageRef(2, 0);

  @Test
  void aWaveIsRegisteredWhenNoLaunchedTaskOfAStageWithDemandIsMissing() {
    LaunchedTasks t = new LaunchedTasks();
    assertFalse(t.allRegistered(Set.of(S1)), "no launch known for stage 1 (no driver listener)");
    t.launched(S1, 10, 1000, false);
    t.launched(S1, 11, 1001, false);
    t.launched(S2, 20, 1002, false);
    assertFalse(t.allRegistered(Set.of(S1)));
    assertEquals(new LaunchedTasks.Launch(S1, 1000), t.registered(10));
    assertNull(t.registered(10));
    assertEquals(new LaunchedTasks.Launch(S1, 1001), t.withoutDemand(11));
    assertTrue(t.allRegistered(Set.of(S1)), "task 20 belongs to a stage without demand");
    assertFalse(t.allRegistered(Set.of(S1, S2)));
    assertTrue(t.ended(20));
    assertFalse(t.ended(20));
    assertTrue(t.allRegistered(Set.of(S1, S2)));
  }

  @Test
  void aRegistrationOrNoticeThatOvertookTheLaunchEventIsNotAwaited() {
    LaunchedTasks t = new LaunchedTasks();
    t.launched(S1, 1, 0, false);
    t.launched(S1, 2, 0, true); // registered before the event
    assertNull(t.withoutDemand(3)); // notice before the event
    t.launched(S1, 3, 0, false);
    assertNull(t.registered(2));
    assertNull(t.registered(3));
    t.registered(1);
    assertTrue(t.allRegistered(Set.of(S1)));
  }

  @Test
  void aCompletedStageIsNoLongerAwaitedAndTheNoticesAreBounded() {
    LaunchedTasks t = new LaunchedTasks();
    t.launched(S1, 1, 0, false);
    t.stageDone(S1);
    assertFalse(t.allRegistered(Set.of(S1)), "launches of a completed stage are forgotten");
    for (long id = 100; id < 100 + LaunchedTasks.WITHOUT_DEMAND_MAX + 1; id++) {
      t.withoutDemand(id);
    }
    t.launched(S2, 100, 0, false); // the oldest notice was dropped: awaited again
    t.launched(S2, 101, 0, false); // still remembered: not awaited
    assertNull(t.registered(101));
    assertEquals(new LaunchedTasks.Launch(S2, 0), t.registered(100));
  }
}
