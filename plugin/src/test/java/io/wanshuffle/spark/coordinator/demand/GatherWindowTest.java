package io.wanshuffle.spark.coordinator.demand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.ManualTimer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The gather window opens, elapses after its length on the timer, or is closed early. */
class GatherWindowTest {
  private final ManualTimer timer = new ManualTimer();
  private final GatherWindow window = new GatherWindow(timer, 100);
  private final AtomicInteger elapsed = new AtomicInteger();

  /** What the coordinator's callback does: note the window's end, under the lock. */
  private void onElapsed() {
    elapsed.incrementAndGet();
    window.elapsed();
  }

  @Test
  void aWindowElapsesAfterItsLength() {
    assertFalse(window.isOpen());
    window.open(this::onElapsed);
    assertTrue(window.isOpen());
    timer.advance(99);
    assertEquals(0, elapsed.get());
    assertTrue(window.isOpen());
    timer.advance(1);
    assertEquals(1, elapsed.get());
    assertFalse(window.isOpen());
    assertFalse(window.close(), "nothing open to close");
  }

  @Test
  void closingAnOpenWindowCancelsItsEnd() {
    window.open(this::onElapsed);
    timer.advance(50);
    assertTrue(window.close());
    assertFalse(window.isOpen());
    assertFalse(window.close(), "closed once");
    timer.advance(1000);
    assertEquals(0, elapsed.get(), "a closed window never elapses");
  }

  @Test
  void aWindowOpenedAgainRunsItsWholeLengthFromItsOpening() {
    window.open(this::onElapsed);
    timer.advance(60);
    window.close();
    window.open(this::onElapsed);
    timer.advance(99);
    assertEquals(0, elapsed.get(), "the first window's end was cancelled");
    timer.advance(1);
    assertEquals(1, elapsed.get());
    assertFalse(window.isOpen());
  }
}
