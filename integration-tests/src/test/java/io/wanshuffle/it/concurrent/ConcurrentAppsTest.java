package io.wanshuffle.it.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConcurrentAppsTest {
  @Test
  void theCopiesRunAtTheSameTimeAndAnswerInOrder() {
    CyclicBarrier all = new CyclicBarrier(3);
    List<String> out =
        ConcurrentApps.atOnce(
            3,
            i -> {
              try {
                all.await(10, TimeUnit.SECONDS); // only passes if the three run together
              } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("not together", e);
              }
              return "app" + i;
            });
    assertEquals(List.of("app0", "app1", "app2"), out);
    assertEquals(List.of("only"), ConcurrentApps.atOnce(1, i -> "only"));
  }

  @Test
  void aFailureIsThrownAfterEveryCopyEnded() {
    AtomicInteger ended = new AtomicInteger();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ConcurrentApps.atOnce(
                    3,
                    i -> {
                      if (i == 1) {
                        throw new IllegalArgumentException("copy 1");
                      }
                      try {
                        Thread.sleep(100);
                      } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                      }
                      return ended.incrementAndGet();
                    }));
    assertEquals("copy 1", e.getMessage());
    assertEquals(2, ended.get(), "the other copies finished");
  }
}
