package io.wanshuffle.spark.coordinator.demand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class FlowKeepingTest {
  @Test
  void theBoundIsTheGatherWindowOrOneAndAHalfTimesTheMedianRegistrationDelay() {
    FlowKeeping k = new FlowKeeping(100);
    assertEquals(100, k.boundMs());
    k.noteRegistrationDelay(40);
    assertEquals(100, k.boundMs(), "1.5 x 40 ms is below the gather window");
    k.noteRegistrationDelay(400);
    k.noteRegistrationDelay(300);
    assertEquals(450, k.boundMs(), "median of 40, 300, 400 = 300 ms, x 1.5");
    for (int i = 0; i < FlowKeeping.DELAY_SAMPLES; i++) {
      k.noteRegistrationDelay(10);
    }
    assertEquals(100, k.boundMs(), "only the last samples count");
  }

  @Test
  void aKeptFlowExpiresAfterTheBoundAndRestartsOnceAtTheTaskLaunch() {
    FlowKeeping k = new FlowKeeping(100);
    k.keep("b1", 1000);
    k.keep("b1", 1050); // already kept: unchanged
    assertFalse(k.expired("b1", 1099));
    assertTrue(k.expired("b1", 1100));
    assertEquals(1100, k.nextExpiryMs(1060));
    k.taskLaunched("b1", 1090);
    assertFalse(k.expired("b1", 1189));
    assertTrue(k.expired("b1", 1190));
    k.taskLaunched("b1", 1180); // restarted once only
    assertTrue(k.expired("b1", 1190));
    assertFalse(k.expired("b2", 5000), "nothing kept for b2");
  }

  @Test
  void releaseAndRetainOnlyDropKeptFlows() {
    FlowKeeping k = new FlowKeeping(100);
    k.keep("b1", 0);
    k.keep("b2", 10);
    k.keep("b3", 20);
    assertTrue(k.release("b1"));
    assertFalse(k.release("b1"));
    k.retainOnly(Set.of("b3"));
    assertEquals(120, k.nextExpiryMs(50), "b2 dropped, b3 kept since 20");
    assertEquals(150, new FlowKeeping(100).nextExpiryMs(50), "none kept: now + bound");
  }
}
