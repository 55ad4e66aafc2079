package io.wanshuffle.spark.coordinator.event;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Delayed actions of the coordinator (step deadlines, gather window, long-poll expiry). An
 * interface so that unit tests drive time by hand.
 */
public interface CoordinatorTimer {

  /** A scheduled action that can be cancelled. */
  interface Cancellable {
    /** Cancels the action if it has not run yet. */
    void cancel();
  }

  /**
   * @param action what to run
   * @param delayMs delay in ms, ≥ 0
   * @return a handle to cancel it
   */
  Cancellable schedule(Runnable action, long delayMs);

  /** Stops the timer; pending actions are dropped. */
  void shutdown();

  /**
   * @param threadName name of the daemon thread
   * @return a timer on one daemon thread
   */
  static CoordinatorTimer daemon(String threadName) {
    ScheduledExecutorService ex =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    return new CoordinatorTimer() {
      @Override
      public Cancellable schedule(Runnable action, long delayMs) {
        ScheduledFuture<?> f = ex.schedule(action, delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
      }

      @Override
      public void shutdown() {
        ex.shutdownNow();
      }
    };
  }
}
