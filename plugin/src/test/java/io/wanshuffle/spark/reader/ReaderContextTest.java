package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.TaskContext$;
import org.apache.spark.TaskContextImpl;
import org.junit.jupiter.api.Test;

/** The executor-wide reader context: its threads, and what {@code close()} stops. */
class ReaderContextTest {
  @Test
  void openerAndTimerRunOnTheirOwnDaemonThreads() throws InterruptedException {
    ReaderContext c = new ReaderContext();
    try {
      AtomicReference<Thread> opener = new AtomicReference<>();
      AtomicReference<Thread> timer = new AtomicReference<>();
      CountDownLatch done = new CountDownLatch(2);
      assertTrue(
          c.execute(
              () -> {
                opener.set(Thread.currentThread());
                done.countDown();
              }));
      assertNotNull(
          c.schedule(
              () -> {
                timer.set(Thread.currentThread());
                done.countDown();
              },
              10));
      assertTrue(done.await(10, TimeUnit.SECONDS));
      assertEquals("wan-shuffle-step-opener", opener.get().getName());
      assertEquals("wan-shuffle-handover", timer.get().getName());
      assertTrue(opener.get().isDaemon());
      assertTrue(timer.get().isDaemon());
    } finally {
      c.close();
    }
  }

  @Test
  void closeStopsTheThreadsDropsScheduledReportsAndForgetsTheTasks() throws InterruptedException {
    ReaderContext c = new ReaderContext();
    AtomicBoolean ran = new AtomicBoolean();
    assertNotNull(c.schedule(() -> ran.set(true), 60_000));
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    c.execute(
        () -> {
          started.countDown();
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            interrupted.set(true);
          }
        });
    TaskContextImpl task = TaskContext$.MODULE$.empty();
    c.readers().add(task, () -> {});
    assertTrue(started.await(10, TimeUnit.SECONDS));
    assertFalse(c.isClosed());

    c.close();
    assertTrue(c.isClosed());
    assertTrue(c.awaitTermination(10_000), "the opener and timer threads end");
    assertTrue(interrupted.get(), "a running opening is interrupted");
    assertFalse(ran.get(), "a scheduled report never runs");
    assertEquals(0, c.readers().tasks());
    assertFalse(c.execute(() -> {}), "no opening after close");
    assertNull(c.schedule(() -> ran.set(true), 0), "no timer after close");
    c.close(); // idempotent
    assertTrue(c.isClosed());
  }

  @Test
  void eachContextHasItsOwnPredictor() {
    ReaderContext a = new ReaderContext();
    ReaderContext b = new ReaderContext();
    try {
      a.predictor().flowCompleted("a1");
      assertTrue(a.predictor().connected("a1"));
      assertFalse(b.predictor().connected("a1"), "no executor-wide state outside the context");
    } finally {
      a.close();
      b.close();
    }
  }
}
