package io.wanshuffle.spark.coordinator.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every listener gets every event in order; one that throws stops neither the others nor the
 * caller.
 */
class ListenersTest {
  private final List<String> calls = new ArrayList<>();

  private CoordinatorListener recording(String name) {
    return new CoordinatorListener() {
      @Override
      public void onStepDone(StepEvent event, long endMs, boolean deadlinePassed) {
        calls.add(name + ":" + event.stepId() + "@" + endMs);
      }

      @Override
      public void onCoordinatorStop() {
        calls.add(name + ":stop");
      }
    };
  }

  private CoordinatorListener throwing(String name) {
    return new CoordinatorListener() {
      @Override
      public void onStepDone(StepEvent event, long endMs, boolean deadlinePassed) {
        calls.add(name + ":" + event.stepId() + "@" + endMs);
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void onCoordinatorStop() {
        calls.add(name + ":stop");
        throw new UnsupportedOperationException("listener bug");
      }
    };
  }

  @Test
  void aListenerThatThrowsDoesNotKeepTheEventFromTheOthers() {
    Listeners all =
        new Listeners(
            List.of(
                throwing("first"), recording("second"), throwing("third"), recording("fourth")));
    StepEvent ev = new StepEvent(7, 1, List.of(), new long[0], 0, 10);
    all.fire(l -> l.onStepDone(ev, 42, false));
    all.fire(CoordinatorListener::onCoordinatorStop);
    assertEquals(
        List.of(
            "first:7@42",
            "second:7@42",
            "third:7@42",
            "fourth:7@42",
            "first:stop",
            "second:stop",
            "third:stop",
            "fourth:stop"),
        calls);
  }

  @Test
  void theListenersAreFixedAtConstruction() {
    List<CoordinatorListener> given = new ArrayList<>(List.of(recording("a")));
    Listeners all = new Listeners(given);
    given.add(recording("b"));
    all.fire(CoordinatorListener::onCoordinatorStop);
    assertEquals(List.of("a:stop"), calls);
    new Listeners(List.of()).fire(CoordinatorListener::onCoordinatorStop);
    assertEquals(List.of("a:stop"), calls, "no listener: nothing called");
  }
}
