package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the time of one re-plan ({@code spark.wanshuffle.planning.budget}): the configured
 * scheduler runs on a worker thread; if it has not answered within the budget, the step is planned
 * with the fast fallback scheduler ({@code spark.wanshuffle.planning.fallback}) instead, so that
 * the backbone does not idle while a large instance is planned. The late plan is discarded (it is
 * for a residual matrix that is already out of date). While a late plan is still running, later
 * step boundaries go straight to the fallback, so slow runs never pile up: at most one runs at a
 * time. After t consecutive plans over the budget, the next 2^(t-1) boundaries (at most {@value
 * #MAX_SKIP}, those waiting for the late run included) are planned by the fallback without trying
 * the scheduler, so a scheduler that is always too slow for the current matrices costs the driver a
 * bounded share of a core; one plan within the budget resets t. Without a budget (0) or without a
 * distinct fallback, the scheduler runs on the calling thread with no bound.
 *
 * <p>Used by the coordinator's planner thread only (not thread-safe).
 */
final class BudgetedPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(BudgetedPlanner.class);

  /** A schedule and the name of the algorithm that made it. */
  record Plan(Schedule schedule, String algorithm) {}

  private final StepScheduler defaultPrimary;
  private final StepScheduler fallback;
  private final long budgetMs;
  private final ExecutorService worker;

  /** Longest run of boundaries planned by the fallback without trying the scheduler. */
  static final int MAX_SKIP = 32;

  private Future<Schedule> late;
  private long fallbacks;

  /** Consecutive plans over the budget. */
  private int overBudget;

  /** Boundaries still to plan with the fallback before the scheduler is tried again. */
  private int skip;

  /**
   * @param primary the configured scheduler
   * @param fallback the fast scheduler used past the budget; null or the same name as {@code
   *     primary} disables the budget
   * @param budgetMs planning time budget, ms; 0 = unbounded
   */
  BudgetedPlanner(StepScheduler primary, StepScheduler fallback, long budgetMs) {
    this.defaultPrimary = primary;
    boolean bounded = budgetMs > 0 && fallback != null && !fallback.name().equals(primary.name());
    this.fallback = bounded ? fallback : null;
    this.budgetMs = bounded ? budgetMs : 0;
    this.worker =
        bounded
            ? Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "wan-shuffle-plan-worker");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /**
   * @return the configured scheduler's name
   */
  String name() {
    return defaultPrimary.name();
  }

  /**
   * @return how many plans came from the fallback so far
   */
  long fallbackCount() {
    return fallbacks;
  }

  /**
   * @param m residual matrix, seconds at base speed
   * @param p platform (free k and δ)
   * @return the configured scheduler's schedule if it answered within the budget, else the
   *     fallback's
   * @throws RuntimeException what the scheduler that made the plan threw
   */
  Plan plan(TrafficMatrix m, Platform p) {
    return plan(defaultPrimary, m, p);
  }

  /**
   * @param primary the scheduler to try first for this plan (the configured one, or one built for
   *     this plan's link network)
   * @param m residual matrix, seconds at base speed
   * @param p platform (free k and δ)
   * @return the primary's schedule if it answered within the budget, else the fallback's
   * @throws RuntimeException what the scheduler that made the plan threw
   */
  Plan plan(StepScheduler primary, TrafficMatrix m, Platform p) {
    if (worker == null) {
      return new Plan(primary.schedule(m, p), primary.name());
    }
    if (skip > 0 || late != null && !late.isDone()) {
      skip = Math.max(0, skip - 1);
      fallbacks++;
      LOG.debug(
          "wan-shuffle: {} was over the planning budget lately; planning this step with {}",
          primary.name(),
          fallback.name());
      return fallbackPlan(m, p);
    }
    Future<Schedule> f;
    try {
      f = worker.submit(() -> primary.schedule(m, p));
    } catch (RejectedExecutionException e) {
      return fallbackPlan(m, p);
    }
    try {
      Schedule s = f.get(budgetMs, TimeUnit.MILLISECONDS);
      late = null;
      overBudget = 0;
      return new Plan(s, primary.name());
    } catch (TimeoutException e) {
      late = f;
      fallbacks++;
      overBudget++;
      skip = Math.min(MAX_SKIP, 1 << Math.min(overBudget - 1, 30));
      if (fallbacks == 1) {
        LOG.warn(
            "wan-shuffle: {} did not plan a {} x {} residual matrix within the planning "
                + "budget of {} ms; this step is planned with {} (spark.wanshuffle.planning.budget, "
                + "spark.wanshuffle.planning.fallback; later occurrences are logged at DEBUG)",
            primary.name(),
            m.rows(),
            m.cols(),
            budgetMs,
            fallback.name());
      } else {
        LOG.debug(
            "wan-shuffle: {} over the planning budget on a {} x {} matrix; using {}",
            primary.name(),
            m.rows(),
            m.cols(),
            fallback.name());
      }
      return fallbackPlan(m, p);
    } catch (ExecutionException e) {
      late = null;
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(primary.name() + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      late = f;
      return fallbackPlan(m, p);
    }
  }

  /**
   * @return the fallback's plan
   * @throws SchedulerFailure naming the fallback when it throws
   */
  private Plan fallbackPlan(TrafficMatrix m, Platform p) {
    try {
      return new Plan(fallback.schedule(m, p), fallback.name());
    } catch (RuntimeException e) {
      throw new SchedulerFailure(fallback.name(), e);
    }
  }

  /** A scheduler of the chain threw: its name and what it threw. */
  static final class SchedulerFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String algorithm;

    SchedulerFailure(String algorithm, RuntimeException cause) {
      super(algorithm + " failed: " + cause, cause);
      this.algorithm = algorithm;
    }

    /**
     * @return the name of the scheduler that threw
     */
    String algorithm() {
      return algorithm;
    }
  }

  /**
   * Waits for the late run, if any, to end (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no late run is left
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitLateRun(long timeoutMs) throws InterruptedException {
    Future<Schedule> f = late;
    if (f == null) {
      return true;
    }
    try {
      f.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | java.util.concurrent.CancellationException e) {
      return true;
    } catch (TimeoutException e) {
      return false;
    }
    return true;
  }

  /** Stops the worker thread (a running plan is interrupted and discarded). */
  void shutdown() {
    if (worker != null) {
      worker.shutdownNow();
    }
  }
}
