package io.wanshuffle.spark.coordinator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The planner's rest ({@code spark.wanshuffle.planning.share}) on a real planner thread: after a
 * round of t the next starts no sooner than t (1 / share - 1) later, {@link PlanningLoop#wake} and
 * {@link PlanningLoop#stop} end the rest. Only lower bounds of the rest are asserted, and waits of
 * seconds where a rest must have been cut short, so that a loaded machine cannot fail them.
 */
class PlanningLoopRestTest {
  private static final long ROUND_MS = 60;

  private final Object lock = new Object();
  private final ExecutorService thread = PlanningLoop.thread("rest-test-planner");

  /** Per round, {@code System.nanoTime()} at its snapshot and at the end of its apply. */
  private final BlockingQueue<long[]> rounds = new LinkedBlockingQueue<>();

  private PlanningLoop<Long, Long> loop(double share, long maxRestMs) {
    return new PlanningLoop<>(
        lock,
        thread,
        new PlanningLoop.Round<>() {
          @Override
          public Long snapshot(long startedNanos) {
            return System.nanoTime();
          }

          @Override
          public Long plan(Long snapshotNanos) {
            try {
              Thread.sleep(ROUND_MS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return snapshotNanos;
          }

          @Override
          public void apply(
              Long snapshotNanos, Long plan, long startedNanos, List<Runnable> replies) {
            rounds.add(new long[] {snapshotNanos, System.nanoTime()});
          }
        },
        System::currentTimeMillis,
        share,
        maxRestMs);
  }

  @AfterEach
  void stopThread() {
    thread.shutdownNow();
  }

  private void requestAndKick(PlanningLoop<Long, Long> loop) {
    synchronized (lock) {
      loop.request();
    }
    loop.kick();
  }

  private long[] nextRound() throws InterruptedException {
    long[] r = rounds.poll(30, TimeUnit.SECONDS);
    assertTrue(r != null, "a round ran");
    return r;
  }

  @Test
  void theNextRoundStartsNoSoonerThanTheRestAfterTheLast() throws Exception {
    PlanningLoop<Long, Long> loop = loop(0.5, 10_000);
    requestAndKick(loop);
    long[] first = nextRound();
    synchronized (lock) {
      assertTrue(loop.isResting(), "resting after a round that planned");
    }
    requestAndKick(loop);
    long[] second = nextRound();
    long roundNanos = first[1] - first[0];
    // share 0.5: a rest as long as the round (measured from its snapshot; the round's own start,
    // a little earlier, makes the rest a little longer)
    assertTrue(
        second[0] - first[1] >= roundNanos,
        "rest " + (second[0] - first[1]) / 1e6 + " ms after a round of " + roundNanos / 1e6);
  }

  @Test
  void aShareOfOneNeverRests() throws Exception {
    PlanningLoop<Long, Long> loop = loop(1, 10_000);
    requestAndKick(loop);
    nextRound();
    synchronized (lock) {
      assertFalse(loop.isResting());
    }
  }

  @Test
  void theRestIsAtMostTheLongestRest() throws Exception {
    PlanningLoop<Long, Long> loop = loop(0.01, 0);
    requestAndKick(loop);
    nextRound();
    synchronized (lock) {
      assertFalse(loop.isResting(), "a longest rest of 0: none");
    }
  }

  @Test
  void wakeEndsTheRest() throws Exception {
    // share 0.01: a rest of 99 rounds (about 6 s); woken after 0.1 s, the round starts long before
    PlanningLoop<Long, Long> loop = loop(0.01, 60_000);
    requestAndKick(loop);
    long[] first = nextRound();
    requestAndKick(loop);
    Thread.sleep(100);
    synchronized (lock) {
      assertTrue(loop.isResting());
      loop.wake();
      assertFalse(loop.isResting());
    }
    long[] second = nextRound();
    long restNanos = (long) ((first[1] - first[0]) * 99);
    assertTrue(
        second[0] - first[1] < restNanos / 2,
        "woken: " + (second[0] - first[1]) / 1e6 + " ms against a rest of " + restNanos / 1e6);
  }

  @Test
  void stopEndsTheRestWithoutAnotherRound() throws Exception {
    PlanningLoop<Long, Long> loop = loop(0.01, 60_000);
    requestAndKick(loop);
    nextRound();
    requestAndKick(loop);
    Thread.sleep(100);
    synchronized (lock) {
      loop.stop();
    }
    thread.shutdown();
    assertTrue(thread.awaitTermination(3, TimeUnit.SECONDS), "the run ended at the stop");
    assertEquals(0, rounds.size(), "no round after the stop");
  }

  @Test
  void aShareOutsideZeroToOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> loop(0, 250));
    assertThrows(IllegalArgumentException.class, () -> loop(1.5, 250));
    assertThrows(IllegalArgumentException.class, () -> loop(0.5, -1));
  }
}
