package io.wanshuffle.spark.coordinator.demand;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tasks around their registration: launch-to-registration delays (for a task's first demand
 * only) bound the kept flows, registrations and notices release them, a launch restarts one, and a
 * wave is registered when no launched task of a stage with demand is missing.
 */
class TaskWavesTest {
  private static final StageRef S = new StageRef(5, 0);

  private final FlowKeeping keeping = new FlowKeeping(100);
  private final TaskWaves waves = new TaskWaves(keeping);
  private final DemandBook book = new DemandBook();

  private Demand demandOf(long task, String dst) {
    return book.add(register(S, task, dst, "a1", 400));
  }

  @Test
  void theRegistrationDelayIsMeasuredOnlyForATasksFirstDemand() {
    waves.launched(S, 1, "b1", false, 1000);
    waves.registered(demandOf(1, "b1"), false, 5000);
    assertEquals(100, keeping.boundMs(), "not the task's first demand: no delay measured");
    assertTrue(waves.waveRegistered(Set.of(S)), "the task is no longer awaited");

    waves.launched(S, 2, "b2", false, 2000);
    waves.registered(demandOf(2, "b2"), true, 2400);
    assertEquals(600, keeping.boundMs(), "1.5 x the 400 ms delay");
    waves.registered(demandOf(2, "b2"), true, 9000);
    assertEquals(600, keeping.boundMs(), "the launch was used by the first registration");
  }

  @Test
  void aNoticeOfNoDemandMeasuresTheDelayUnlessTheTaskHasDemandAndFreesAKeptFlow() {
    waves.launched(S, 3, "b3", false, 0);
    keeping.keep("b3", 0);
    assertTrue(waves.noDemand(S, 3, "b3", false, 800), "a flow was kept for b3");
    assertEquals(1200, keeping.boundMs(), "1.5 x the 800 ms delay");
    assertFalse(waves.noDemand(S, 3, "b3", false, 900), "nothing kept any more");

    waves.launched(S, 4, "b4", false, 0);
    waves.noDemand(S, 4, "b4", true, 5000);
    assertEquals(1200, keeping.boundMs(), "the task registered a demand of another read");
  }

  @Test
  void aRegistrationReleasesTheFlowKeptForItsHost() {
    keeping.keep("b1", 0);
    waves.registered(demandOf(1, "b1"), true, 10);
    assertFalse(keeping.release("b1"), "released by the registration");
  }

  @Test
  void aLaunchOnAKnownHostRestartsTheFlowKeptForIt() {
    keeping.keep("b1", 0);
    keeping.keep("b2", 0);
    waves.launched(S, 5, "b1", false, 90);
    waves.launched(S, 6, null, false, 90);
    assertFalse(keeping.expired("b1", 189), "a new bound from the launch");
    assertTrue(keeping.expired("b1", 190));
    assertTrue(keeping.expired("b2", 100), "host unknown: no restart");
    assertFalse(waves.waveRegistered(Set.of(S)), "the task without a host is awaited all the same");
    assertTrue(waves.ended(6));
    assertTrue(waves.ended(5));
    assertTrue(waves.waveRegistered(Set.of(S)));
  }

  @Test
  void aWaveIsRegisteredWhenEveryLaunchedTaskRegisteredOrEnded() {
    waves.launched(S, 1, "b1", false, 0);
    waves.launched(S, 2, "b2", false, 0);
    waves.launched(new StageRef(6, 0), 3, "b3", false, 0);
    waves.registered(demandOf(1, "b1"), true, 10);
    assertFalse(waves.waveRegistered(Set.of(S)));
    assertTrue(waves.ended(2), "the wave waited for it");
    assertFalse(waves.ended(2));
    assertFalse(waves.ended(99), "never launched");
    assertTrue(waves.waveRegistered(Set.of(S)), "task 3's stage has no demand");
    waves.stageDone(S);
    assertFalse(waves.waveRegistered(Set.of(S)), "a completed stage's launches are forgotten");
  }

  @Test
  void clearForgetsTheLaunches() {
    waves.launched(S, 1, "b1", false, 0);
    waves.clear();
    assertFalse(waves.ended(1));
    assertFalse(waves.waveRegistered(Set.of(S)));
  }

  @Test
  void theTasksStillToLaunchAreEstimated() {
    TaskWaves w = new TaskWaves(new FlowKeeping(100));
    w.submitted(S, List.of(List.of("b1"), List.of("b1"), List.of("b2")));
    w.launched(S, 1, "b1", false, 0);
    w.registered(demandOf(1, "b1"), true, 10);
    assertEquals(
        Map.of("b1", 400.0, "b2", 400.0),
        w.estimate().receivers(),
        "one task each on b1 and b2, at the stage's 400 B");
    w.fetched(S, 1, "b1");
    assertEquals(Map.of("b1", 400.0), w.estimate().awaited(), "b1's next task");
    w.stageDone(S);
    assertTrue(w.estimate().receivers().isEmpty());
  }
}
