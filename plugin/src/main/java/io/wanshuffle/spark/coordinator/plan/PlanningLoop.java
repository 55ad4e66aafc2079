package io.wanshuffle.spark.coordinator.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hand-over between the coordinator's lock and its planner thread. A request to plan is a flag
 * set under the lock ({@link #request}); {@link #kick}, called without the lock, hands one run to
 * the planner unless one is queued or running. A run loops while plans are requested: it takes a
 * snapshot of the residual demand under the lock, plans it with the lock released (registrations,
 * reports and releases proceed meanwhile; capacity can only grow, as only the planner opens flows),
 * applies the plan under the lock, and completes the replies the plan produced (parked long-polls)
 * after releasing it. The flag is re-checked under the same lock before the run ends, so no request
 * is lost.
 *
 * <p>With a planning share below 1 the planner rests after each round that planned, so that rounds
 * take at most that share of the wall-clock time: after a round of t ms it starts the next no
 * sooner than t (1 / share - 1) ms later (at most {@link #MAX_REST_MS}). The rest waits on the
 * lock's monitor (released meanwhile); {@link #wake} ends it early, for an event the last plan
 * cannot serve. A request made during the rest is planned when it ends.
 *
 * <p>The flags are guarded by {@code lock}.
 *
 * @param <I> the snapshot planned on
 * @param <O> the plan
 */
public final class PlanningLoop<I, O> {
  private static final Logger LOG = LoggerFactory.getLogger(PlanningLoop.class);

  /**
   * The three phases of one planning round.
   *
   * @param <I> the snapshot planned on
   * @param <O> the plan
   */
  public interface Round<I, O> {
    /**
     * Under the lock: what to plan on.
     *
     * @param startedNanos {@code System.nanoTime()} at the start of the round
     * @return the snapshot, or null when there is nothing to plan
     */
    I snapshot(long startedNanos);

    /**
     * Without the lock: plans the snapshot.
     *
     * @param input the snapshot
     * @return the plan
     */
    O plan(I input);

    /**
     * Under the lock: grants what the plan allows.
     *
     * @param input the snapshot planned on
     * @param output its plan
     * @param startedNanos {@code System.nanoTime()} at the start of the round
     * @param replies replies to complete once the lock is released
     */
    void apply(I input, O output, long startedNanos, List<Runnable> replies);
  }

  private final Object lock;
  private final Executor executor;
  private final Round<I, O> round;

  /** A plan was asked for since the planner last took a snapshot. */
  private boolean requested;

  /** A planner run is queued or running (at most one at a time). */
  private boolean queued;

  /** The planner holds a snapshot and is planning it (lock released). */
  private boolean planning;

  private boolean stopped;

  /** Longest rest between two rounds, ms, whatever the share and the last round's length. */
  public static final long MAX_REST_MS = 250;

  /** Largest share of the wall-clock time spent in rounds, in (0, 1]; 1: no rest. */
  private final double share;

  /** Longest rest, ns. */
  private final long maxRestNanos;

  /** {@code System.nanoTime()} before which the next round does not start, unless woken. */
  private long restUntilNanos = System.nanoTime();

  /** The clock the rounds are timed with, ms. */
  private final LongSupplier clockMs;

  /** {@link #clockMs} when the round being planned took its snapshot. */
  private long planningSinceMs;

  /** How long the last round took, from its snapshot to the end of its apply, ms. */
  private long lastRoundMs;

  /**
   * @param lock the coordinator's lock
   * @param executor runs the planner (one run at a time is submitted); production: one daemon
   *     thread; tests: the calling thread
   * @param round the phases of a round
   */
  public PlanningLoop(Object lock, Executor executor, Round<I, O> round) {
    this(lock, executor, round, System::currentTimeMillis, 1, MAX_REST_MS);
  }

  /**
   * @param lock the coordinator's lock
   * @param executor the planner thread
   * @param round the three phases of a round
   * @param clockMs the clock {@link #planningForMs} and {@link #lastRoundMs} read, ms
   * @param share largest share of the wall-clock time the rounds take, in (0, 1]; 1: rounds run
   *     back to back while plans are requested
   * @param maxRestMs longest rest after a round, ms ({@link #MAX_REST_MS} in production)
   * @throws IllegalArgumentException if {@code share} is not in (0, 1] or {@code maxRestMs} is
   *     negative
   */
  public PlanningLoop(
      Object lock,
      Executor executor,
      Round<I, O> round,
      LongSupplier clockMs,
      double share,
      long maxRestMs) {
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException("planning share must be in (0, 1], got " + share);
    }
    if (maxRestMs < 0) {
      throw new IllegalArgumentException("longest rest must be >= 0 ms, got " + maxRestMs);
    }
    this.lock = lock;
    this.executor = executor;
    this.round = round;
    this.clockMs = clockMs;
    this.share = share;
    this.maxRestNanos = maxRestMs * 1_000_000;
  }

  /**
   * @param name thread name
   * @return a single daemon thread to plan on (the coordinator builder's {@code planner}); shut it
   *     down after the coordinator stopped
   */
  public static ExecutorService thread(String name) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  /** Asks for a plan (under the lock). */
  public void request() {
    requested = true;
  }

  /**
   * @return true while the planner plans a snapshot (under the lock)
   */
  public boolean isPlanning() {
    return planning;
  }

  /**
   * @return true while a run is queued or running: a request made now waits for the rounds before
   *     it (under the lock)
   */
  public boolean isBusy() {
    return queued;
  }

  /**
   * @return how long the round being planned has run since its snapshot, ms on the loop's clock; -1
   *     when none is being planned (under the lock)
   */
  public long planningForMs() {
    return planning ? Math.max(0, clockMs.getAsLong() - planningSinceMs) : -1;
  }

  /**
   * @return how long the last round that planned took, from its snapshot to the end of its apply,
   *     ms on the loop's clock; 0 before the first (under the lock)
   */
  public long lastRoundMs() {
    return lastRoundMs;
  }

  /**
   * @return true within the rest after the last round: no round is being planned and the next one
   *     starts when the rest ends or on {@link #wake} (under the lock)
   */
  public boolean isResting() {
    return !planning && restUntilNanos - System.nanoTime() > 0;
  }

  /** Ends the planner's rest at once: the next round may start now (under the lock). */
  public void wake() {
    restUntilNanos = System.nanoTime();
    lock.notifyAll();
  }

  /** No more plans (under the lock). */
  public void stop() {
    stopped = true;
    lock.notifyAll();
  }

  /** Hands a requested plan to the planner unless a run is queued or running; without the lock. */
  public void kick() {
    synchronized (lock) {
      if (!requested || queued || stopped) {
        return;
      }
      queued = true;
    }
    try {
      executor.execute(this::run);
    } catch (RejectedExecutionException e) {
      synchronized (lock) {
        queued = false;
      }
      LOG.debug("wan-shuffle planner stopped; plan request dropped", e);
    }
  }

  private void run() {
    boolean normalExit = false;
    try {
      while (once()) {
        // loop while plans are requested
      }
      normalExit = true;
    } finally {
      if (!normalExit) {
        // an Error escaped: let the next request start a new run instead of waiting
        synchronized (lock) {
          queued = false;
          planning = false;
        }
      }
    }
  }

  /**
   * Waits out the rest after the last round (under the lock, which the wait releases), unless woken
   * or stopped.
   */
  private void rest() {
    try {
      long left;
      while (!stopped && (left = restUntilNanos - System.nanoTime()) > 0) {
        long ms = left / 1_000_000;
        lock.wait(ms, (int) (left - ms * 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * @return false when no plan is requested (the planner went idle)
   */
  private boolean once() {
    I input;
    long started;
    synchronized (lock) {
      if (!requested || stopped) {
        queued = false;
        return false;
      }
      rest();
      if (stopped) {
        queued = false;
        return false;
      }
      requested = false;
      started = System.nanoTime();
      try {
        input = round.snapshot(started);
      } catch (RuntimeException e) {
        LOG.error("wan-shuffle planner could not read the residual demand", e);
        return true;
      }
      if (input == null) {
        return true;
      }
      planning = true;
      planningSinceMs = clockMs.getAsLong();
    }
    O output = round.plan(input);
    List<Runnable> replies = new ArrayList<>();
    synchronized (lock) {
      planning = false;
      if (!stopped) {
        try {
          round.apply(input, output, started, replies);
          lastRoundMs = clockMs.getAsLong() - planningSinceMs;
          if (share < 1) {
            long ended = System.nanoTime();
            long restNanos = (long) ((ended - started) * (1 / share - 1));
            restUntilNanos = ended + Math.min(restNanos, maxRestNanos);
          }
        } catch (RuntimeException e) {
          LOG.error(
              "wan-shuffle planner could not grant its plan; the next step boundary or release"
                  + " re-plans",
              e);
        }
      }
    }
    for (Runnable r : replies) {
      r.run();
    }
    return true;
  }
}
