package io.wanshuffle.spark.reader;

import java.util.ArrayDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * When to hand a granted step's ports on before its bytes have all arrived (predicted hand-over,
 * {@code spark.wanshuffle.step.handover = predicted}; docs/plugin.md, "Predicted hand-over").
 *
 * <p>A port changes hands in three delays: the report travels to the coordinator and the next
 * grant back (one coordinator round trip, {@code c}), then the new flow's fetch opens a stream and
 * asks for its chunks before its first byte comes back (the fetch latency {@code L}, about two
 * network round trips with Spark's fetch protocol). A flow of {@code B} bytes that starts at
 * {@code t0} ends at {@code t0 + L + B / r}, {@code r} its transfer rate; the next flow on its
 * ports delivers its first byte at {@code report + c + L}. Reporting at
 * {@code t0 + B / r - c} makes the two meet, whatever {@code L} is. This executor-wide estimator
 * measures the two unknowns:
 * <ul>
 *   <li>{@code r}, bytes/s: from flows of two or more blocks on one connection, (bytes after the
 *       first block) / (time from the first block's arrival to the last one's), so the fetch
 *       latency is not counted; exponentially weighted over flows (weight {@value #RATE_WEIGHT}).
 *   <li>{@code c}, ms: the smallest of the last {@value #RTT_SAMPLES} coordinator round trips of a
 *       call the coordinator answers at once (a registration).
 * </ul>
 * Until both are measured, steps are reported when their bytes arrive.
 *
 * <p>Thread-safe; the timers run on one daemon thread per executor.
 */
final class HandoverPredictor {
  static final double RATE_WEIGHT = 0.25;
  static final int RTT_SAMPLES = 32;
  /** Shortest first-to-last arrival span that yields a rate sample, ms (clock resolution). */
  static final long MIN_SPAN_MS = 5;

  private static final HandoverPredictor EXECUTOR = new HandoverPredictor();
  private static volatile ScheduledExecutorService timer;

  private final ArrayDeque<Long> roundTrips = new ArrayDeque<>();
  private double bytesPerSecond;

  /** @return the estimator shared by the tasks of this executor */
  static HandoverPredictor executor() {
    return EXECUTOR;
  }

  /**
   * Records one coordinator round trip of a call answered at once.
   *
   * @param ms elapsed from send to reply, ms (negative values are ignored)
   */
  synchronized void coordinatorRoundTrip(long ms) {
    if (ms < 0) {
      return;
    }
    roundTrips.addLast(ms);
    if (roundTrips.size() > RTT_SAMPLES) {
      roundTrips.removeFirst();
    }
  }

  /**
   * Records one flow's transfer after its first block.
   *
   * @param bytesAfterFirst bytes of the flow's blocks after its first one
   * @param spanMs from the first block's arrival to the last one's, ms; spans under
   *     {@value #MIN_SPAN_MS} ms or without bytes give no sample
   */
  synchronized void flowObserved(long bytesAfterFirst, long spanMs) {
    if (bytesAfterFirst <= 0 || spanMs < MIN_SPAN_MS) {
      return;
    }
    double sample = bytesAfterFirst * 1000.0 / spanMs;
    bytesPerSecond = bytesPerSecond == 0 ? sample
        : RATE_WEIGHT * sample + (1 - RATE_WEIGHT) * bytesPerSecond;
  }

  /**
   * @param flowBytes bytes of the step's largest flow (one source host)
   * @return ms after the step's requests were sent at which to report it, ≥ 0; -1 while the rate
   *     or the coordinator round trip is not measured yet (report on arrival)
   */
  synchronized long reportDelayMs(long flowBytes) {
    if (bytesPerSecond <= 0 || roundTrips.isEmpty()) {
      return -1;
    }
    long c = roundTrips.stream().mapToLong(Long::longValue).min().orElse(0);
    long transferMs = (long) (flowBytes * 1000.0 / bytesPerSecond);
    return Math.max(0, transferMs - c);
  }

  /** @return the current rate estimate, bytes/s (0 before the first sample) */
  synchronized double bytesPerSecond() {
    return bytesPerSecond;
  }

  /**
   * Runs {@code action} after {@code delayMs} on the executor's hand-over timer thread.
   *
   * @param action what to run (must not block)
   * @param delayMs ms from now, ≥ 0
   * @return the scheduled run, cancellable
   */
  static ScheduledFuture<?> schedule(Runnable action, long delayMs) {
    return timer().schedule(action, delayMs, TimeUnit.MILLISECONDS);
  }

  private static ScheduledExecutorService timer() {
    ScheduledExecutorService t = timer;
    if (t == null) {
      synchronized (HandoverPredictor.class) {
        t = timer;
        if (t == null) {
          ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "wan-shuffle-handover");
            th.setDaemon(true);
            return th;
          });
          e.setRemoveOnCancelPolicy(true); // a step that arrived first cancels its timer
          timer = e;
          t = e;
        }
      }
    }
    return t;
  }
}
