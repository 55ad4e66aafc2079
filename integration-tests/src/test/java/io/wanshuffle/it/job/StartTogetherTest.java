package io.wanshuffle.it.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications of one group begin a measured run only once all of them are ready; a group that is
 * not complete in time runs anyway; a run without a group does not wait.
 */
class StartTogetherTest {
  @TempDir Path dir;

  @Test
  void theFirstWaitsForTheLastOfItsGroup() throws Exception {
    Map<String, String> conf =
        Map.of(StartTogether.DIR_KEY, dir.resolve("g").toString(), StartTogether.APPS_KEY, "2");
    AtomicLong lastArrived = new AtomicLong();
    CompletableFuture<Long> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                assertTrue(StartTogether.await(conf, "app1", 0, Duration.ofSeconds(30)));
                return System.currentTimeMillis();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(300);
    assertFalse(first.isDone(), "app1 ran before app2 was ready");
    lastArrived.set(System.currentTimeMillis());
    assertTrue(StartTogether.await(conf, "app2", 0, Duration.ofSeconds(30)));
    assertTrue(first.get() >= lastArrived.get(), "app1 left before app2 arrived");
    // the next run is a barrier of its own: run 0's marks do not count for it
    CompletableFuture<Boolean> next =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return StartTogether.await(conf, "app2", 1, Duration.ofMillis(400));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    assertEquals(false, next.get(), "run 1 ran without app1 only after the wait");
  }

  @Test
  void withoutAGroupNobodyWaits() throws Exception {
    assertTrue(StartTogether.await(Map.of(), "app1", 0, Duration.ofMillis(1)));
  }
}
