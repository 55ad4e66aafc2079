package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TeardownTest {
  @Test
  void theActionRunsOnceHoweverOftenItIsClosed() {
    AtomicInteger runs = new AtomicInteger();
    Teardown t = Teardown.register(Teardown.TESTBED_PRIORITY, runs::incrementAndGet);
    assertFalse(t.done());
    t.close();
    t.close();
    assertTrue(t.done());
    assertEquals(1, runs.get());
  }

  @Test
  void aFailingActionFailsTheFirstCloseOnlyAndIsNotRetried() {
    AtomicInteger runs = new AtomicInteger();
    Teardown t =
        Teardown.register(
            Teardown.SPARK_PRIORITY,
            () -> {
              runs.incrementAndGet();
              throw new IllegalStateException("cannot stop");
            });
    assertThrows(IllegalStateException.class, t::close);
    t.close();
    assertEquals(1, runs.get());
  }

  @Test
  void aSecondCloseWaitsUntilTheFirstHasTornDown() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    Teardown t =
        Teardown.register(
            Teardown.TESTBED_PRIORITY,
            () -> {
              started.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              finished.incrementAndGet();
            });
    Thread first = new Thread(t::close);
    first.start();
    assertTrue(started.await(10, TimeUnit.SECONDS));
    Thread second =
        new Thread(
            () -> {
              t.close();
              assertEquals(1, finished.get(), "returned before the teardown had finished");
            });
    second.start();
    Thread.sleep(100);
    assertTrue(second.isAlive(), "the second close waits for the running teardown");
    release.countDown();
    first.join(10_000);
    second.join(10_000);
    assertEquals(1, finished.get());
  }
}
