package io.wanshuffle.spark.reader;

import java.util.concurrent.ScheduledFuture;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.GuardedBy;

/**
 * The one report of a granted step: the report hands the step's ports on to the coordinator, which
 * grants the next flow on them. It is sent once, by whichever comes first:
 *
 * <ul>
 *   <li>the hand-over timer, at the time {@link HandoverPredictor} predicts that the next flow's
 *       first byte would meet this step's last one ({@code spark.wanshuffle.step.handover =
 *       predicted}, {@link #aheadAt}); the arrival of the last block is then sent later, once
 *       ({@link #arrived()} or {@link #readAll()}), for the capture;
 *   <li>a network thread, when every block of the step has reached this host, before the task has
 *       read them ({@link #arrived()});
 *   <li>the task thread, when it has read the step to its end or cuts a paced step ({@link
 *       #reportOnce});
 *   <li>the stall watch, when the step's requests in flight have gone {@code
 *       spark.wanshuffle.flow.stallTimeout} without their bytes advancing ({@link #watchStall}):
 *       the step is reported ahead of its end, marked stalled, and its arrival (if its blocks come
 *       after all) is sent later as for a predicted hand-over.
 * </ul>
 *
 * Reporting from the network and timer threads keeps the hand-over independent of the task, which
 * may be busy with the records of earlier blocks.
 *
 * <p>Thread-safe: every field is guarded by this object's lock, except {@link #sentMs()} (volatile,
 * read by the step-opener for the hand-over loop). The {@link Sender} is called under the lock.
 */
final class StepReport {
  /** What sends the step's messages to the coordinator. */
  interface Sender {
    /**
     * Sends the step's one report and routes its answer.
     *
     * @param endMs when the step's last block arrived or was read, epoch ms; 0 when reported ahead
     * @param idle whether the task reads another shuffle now (a paced step cut for it)
     * @param stalledMs how long the step's flows went without progress when it is reported stalled,
     *     ms; 0 otherwise
     * @return the report's call number, &gt; 0
     */
    long send(long endMs, boolean idle, long stalledMs);

    /**
     * Sends the arrival of a step reported ahead (one-way).
     *
     * @param reportedMs when the step was reported, epoch ms
     * @param endMs when its last block arrived, epoch ms
     * @param stalledMs the longest time its requests went without progress when that reached the
     *     stall timeout (reported ahead, then stalled before its end), ms; 0 otherwise
     */
    void arrived(long reportedMs, long endMs, long stalledMs);
  }

  private final Sender sender;
  private final ReaderContext executor;

  /** The report's call number once sent, 0 before. */
  @GuardedBy("this")
  private long call;

  /** The report went out before the last block arrived; its arrival is still to be sent. */
  @GuardedBy("this")
  private boolean ahead;

  /** When the step was reported ahead, epoch ms. */
  @GuardedBy("this")
  private long reportedMs;

  @GuardedBy("this")
  private ScheduledFuture<?> timer;

  /** The stall watch's next check, while the step is watched and not reported. */
  @GuardedBy("this")
  private ScheduledFuture<?> stallCheck;

  /** The watched step's progress and stall timeout (ms), null and 0 when not watched. */
  @GuardedBy("this")
  private FlowProgress watched;

  @GuardedBy("this")
  private long watchedTimeoutMs;

  @GuardedBy("this")
  private LongSupplier watchedClock;

  /** When the report was sent, epoch ms (0: not yet). */
  private volatile long sentMs;

  /**
   * @param sender sends the report and the arrival
   * @param executor the executor's context (its hand-over timer)
   */
  StepReport(Sender sender, ReaderContext executor) {
    this.sender = sender;
    this.executor = executor;
  }

  /**
   * Reports the step unless it was reported already, and cancels the hand-over timer.
   *
   * @param endMs when its last block arrived (or the task read it), epoch ms
   * @param idle the task reads another shuffle now (a paced step cut for it)
   * @return the report's call number (sent now or earlier)
   */
  synchronized long reportOnce(long endMs, boolean idle) {
    cancelTimer();
    if (call == 0) {
      send(endMs, idle);
    }
    return call;
  }

  @GuardedBy("this")
  private void send(long endMs, boolean idle) {
    sentMs = System.currentTimeMillis();
    call = sender.send(endMs, idle, 0);
  }

  /**
   * @return the report's call number, 0 while it is not sent
   */
  synchronized long call() {
    return call;
  }

  /**
   * @return when the report was sent, epoch ms; 0 while it is not
   */
  long sentMs() {
    return sentMs;
  }

  /**
   * Predicted hand-over: (re)schedules the report ahead of the step's end; nothing once it is
   * reported. Any thread.
   *
   * @param epochMs when to report, epoch ms
   */
  synchronized void aheadAt(long epochMs) {
    if (call != 0) {
      return;
    }
    cancelTimer();
    timer = executor.schedule(this::reportAhead, epochMs - System.currentTimeMillis());
  }

  private synchronized void reportAhead() {
    if (call == 0) {
      ahead = true;
      reportedMs = System.currentTimeMillis();
      send(0, false);
    }
  }

  /**
   * Watches the step's flows for a stall, until the step is reported: once {@code progress} says
   * its requests in flight went {@code timeoutMs} without their bytes advancing, the step is
   * reported ahead of its end, marked stalled with that quiet time, so that the coordinator takes
   * its ports back and re-plans them. Checked on the executor's hand-over timer, each time at the
   * earliest moment the flows could have been quiet that long, or a quarter timeout later while
   * nothing is in flight: a stall is reported at most 1.25 timeouts after the flows' last bytes.
   * Any thread.
   *
   * @param progress the step's requests and bytes
   * @param timeoutMs the quiet time that makes a stall, ms, positive
   * @param clockMs the clock {@code progress} is fed with, epoch ms
   */
  synchronized void watchStall(FlowProgress progress, long timeoutMs, LongSupplier clockMs) {
    watched = progress;
    watchedTimeoutMs = timeoutMs;
    watchedClock = clockMs;
    if (call == 0) {
      stallCheck = executor.schedule(this::checkStall, timeoutMs);
    }
  }

  private synchronized void checkStall() {
    if (call != 0) {
      return;
    }
    long quiet = watched.quietMs(watchedClock.getAsLong());
    if (quiet < watchedTimeoutMs) {
      // nothing in flight yet (or bytes this instant): look again soon, so that a flow whose
      // requests go out later is still reported within 1.25 timeouts of its last bytes
      long next = quiet > 0 ? watchedTimeoutMs - quiet : Math.max(1, watchedTimeoutMs / 4);
      stallCheck = executor.schedule(this::checkStall, next);
      return;
    }
    cancelTimer();
    ahead = true;
    reportedMs = System.currentTimeMillis();
    sentMs = reportedMs;
    call = sender.send(0, false, quiet);
  }

  /** Cancels the hand-over timer and the stall watch, if any. */
  synchronized void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
    }
    if (stallCheck != null) {
      stallCheck.cancel(false);
    }
  }

  /**
   * Every block of the step is on this host (network thread): reports it now, or sends the arrival
   * of a step reported ahead.
   */
  void arrived() {
    long now = System.currentTimeMillis();
    boolean reportedNow;
    synchronized (this) {
      reportedNow = call == 0;
      reportOnce(now, false);
    }
    if (!reportedNow) {
      sendArrivalIfAhead(now);
    }
  }

  /**
   * The task read every block of the step: a step reported ahead whose arrival was never signalled
   * (the fetcher held requests back) gets its arrival time now.
   */
  void readAll() {
    sendArrivalIfAhead(System.currentTimeMillis());
  }

  private void sendArrivalIfAhead(long endMs) {
    long reported;
    long stalled = 0;
    synchronized (this) {
      cancelTimer();
      if (!ahead) {
        return;
      }
      ahead = false;
      reported = reportedMs;
      if (watched != null) {
        // a step handed on ahead of its end (predicted) whose bytes then stopped: its span holds
        // the stall, which its arrival tells
        long quiet = watched.longestQuietMs(watchedClock.getAsLong());
        stalled = quiet >= watchedTimeoutMs ? quiet : 0;
      }
    }
    sender.arrived(reported, endMs, stalled);
  }
}
