package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.alg.LiquidStepScheduler;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the residual demand with one fallback chain, so that every re-plan of a non-empty matrix
 * yields a non-empty schedule within its time budget: the configured {@link StepScheduler} (on a
 * link network, {@code auto} and {@code liquid} plan with {@link LiquidStepScheduler}) within
 * {@code spark.wanshuffle.planning.budget}; past the budget, the fast fallback ({@code
 * spark.wanshuffle.planning.fallback}, {@link GreedyFirstStep} by default; {@link
 * BudgetedPlanner}); when the scheduler that ran throws or returns no step, the largest transfer
 * alone ({@link DemandMatrix#largestTransferOnly}), which always makes progress. A failure is
 * logged with its stack trace once per algorithm and exception class, then in one line.
 *
 * <p>Runs on the coordinator's planner thread, never under its lock; not thread-safe.
 */
public final class Planner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Planner.class);

  /**
   * A plan of one residual matrix.
   *
   * @param schedule the steps, seconds at the base speed, indices of the matrix's senders and
   *     receivers; never empty
   * @param algorithm the name of the scheduler that made it
   * @param nanos time spent planning, ns
   */
  public record Plan(Schedule schedule, String algorithm, long nanos) {}

  private final BudgetedPlanner budgeted;
  private final StepScheduler configured;
  private final Set<String> failuresLogged = ConcurrentHashMap.newKeySet();

  /**
   * @param primary the configured scheduler
   * @param fallback the fast scheduler used past the budget; null = no budget
   * @param budgetMs planning time budget, ms; 0 = unbounded
   */
  public Planner(StepScheduler primary, StepScheduler fallback, long budgetMs) {
    this.budgeted = new BudgetedPlanner(primary, fallback, budgetMs);
    this.configured = primary;
  }

  /**
   * @param conf the validated configuration
   * @return the fallback scheduler {@code spark.wanshuffle.planning.fallback} names: {@link
   *     GreedyFirstStep} for {@value Settings#GREEDY_FALLBACK}, else the registry's; null when the
   *     registry does not know the name
   */
  public static StepScheduler fallbackOf(WanShuffleConf conf) {
    String f = conf.get(Settings.PLANNING_FALLBACK);
    if (f.equals(GreedyFirstStep.NAME)) {
      return new GreedyFirstStep();
    }
    return Algorithms.names().contains(f) ? Algorithms.byName(f) : null;
  }

  /**
   * @return the configured scheduler's name
   */
  String name() {
    return budgeted.name();
  }

  /**
   * @param m the residual demand (non-empty)
   * @return a non-empty plan of {@code m}
   */
  public Plan plan(DemandMatrix m) {
    long t0 = System.nanoTime();
    Schedule schedule;
    String algorithm = budgeted.name();
    try {
      BudgetedPlanner.Plan p = budgeted.plan(schedulerFor(m), m.matrix(), m.platform());
      schedule = p.schedule();
      algorithm = p.algorithm();
    } catch (BudgetedPlanner.SchedulerFailure e) {
      algorithm = e.algorithm();
      logFailure(algorithm, m, (RuntimeException) e.getCause());
      schedule = m.largestTransferOnly();
    } catch (RuntimeException e) {
      logFailure(algorithm, m, e);
      schedule = m.largestTransferOnly();
    }
    if (schedule.steps().isEmpty()) {
      LOG.error(
          "wan-shuffle scheduler {} returned no step for a non-empty matrix {}; granting the"
              + " largest transfer alone",
          algorithm,
          m.matrix());
      schedule = m.largestTransferOnly();
    }
    return new Plan(schedule, algorithm, System.nanoTime() - t0);
  }

  /**
   * The scheduler of one plan: on a link network ({@link DemandMatrix#network}, racks or several
   * backbone sides) {@code auto} and {@code liquid} plan with {@link LiquidStepScheduler} on that
   * network, so no step overloads a link; otherwise the configured scheduler (a rack-blind one
   * still never overloads a link: the step assembler grants only flows whose every link has a free
   * lease).
   */
  private StepScheduler schedulerFor(DemandMatrix m) {
    String name = configured.name();
    if (m.network() != null && (name.equals(AUTO) || name.equals(LIQUID))) {
      return new LiquidStepScheduler(m.network());
    }
    return configured;
  }

  private static final String AUTO = "auto";
  private static final String LIQUID = "liquid";

  private void logFailure(String algorithm, DemandMatrix m, RuntimeException e) {
    if (failuresLogged.add(algorithm + ": " + e.getClass().getName())) {
      LOG.error(
          "wan-shuffle scheduler {} failed on a {} x {} matrix; granting the largest transfer alone"
              + " this step (later failures of this kind are logged in one line)",
          algorithm,
          m.matrix().rows(),
          m.matrix().cols(),
          e);
    } else {
      LOG.warn(
          "wan-shuffle scheduler {} failed on a {} x {} matrix ({}); granting the largest transfer"
              + " alone this step",
          algorithm,
          m.matrix().rows(),
          m.matrix().cols(),
          e.toString());
    }
  }

  /**
   * Waits until a plan that ran over the budget has ended (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no such plan is running
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitLateRun(long timeoutMs) throws InterruptedException {
    return budgeted.awaitLateRun(timeoutMs);
  }

  /** Stops the budget's worker thread (a late plan is interrupted and discarded). */
  @Override
  public void close() {
    budgeted.shutdown();
  }
}
