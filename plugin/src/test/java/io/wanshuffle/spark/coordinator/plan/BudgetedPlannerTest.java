package io.wanshuffle.spark.coordinator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The planning budget's policy: over the budget the fallback plans the step; the scheduler is not
 * tried again while its late run lasts nor for 2^(t-1) boundaries after t consecutive misses; one
 * answer within the budget resets the count. The slow scheduler blocks on a semaphore the test
 * controls, so the outcome does not depend on the machine's speed.
 */
class BudgetedPlannerTest {
  private final Semaphore permits = new Semaphore(0);
  private final Semaphore finished = new Semaphore(0);
  private final AtomicInteger calls = new AtomicInteger();
  private final GreedyTestScheduler greedy = new GreedyTestScheduler();

  private final StepScheduler gated =
      new StepScheduler() {
        @Override
        public String name() {
          return "gated";
        }

        @Override
        public Schedule schedule(TrafficMatrix m, Platform p) {
          calls.incrementAndGet();
          try {
            permits.acquire();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            finished.release();
          }
          return greedy.schedule(m, p);
        }
      };

  private final TrafficMatrix m = TrafficMatrix.of(new double[][] {{3, 1}, {2, 5}});
  private final Platform p = Platform.onePort(2, 0.05, 2, 2);

  private String plan(BudgetedPlanner b) {
    BudgetedPlanner.Plan plan = b.plan(m, p);
    plan.schedule().validate(m, p);
    return plan.algorithm();
  }

  private void letTheLateRunFinish(BudgetedPlanner b) throws InterruptedException {
    permits.release();
    assertTrue(finished.tryAcquire(60, TimeUnit.SECONDS), "the late run ends");
    assertTrue(b.awaitLateRun(60_000), "the late run's plan is ready");
  }

  @Test
  void missesBackOffExponentiallyAndASuccessResets() throws Exception {
    BudgetedPlanner b = new BudgetedPlanner(gated, new GreedyFirstStep(), 1000);
    try {
      assertEquals("greedy", plan(b), "miss 1");
      assertEquals(1, calls.get());
      assertEquals("greedy", plan(b), "late run still going");
      assertEquals(1, calls.get());
      letTheLateRunFinish(b);
      assertEquals("greedy", plan(b), "miss 2: the skip of 1 was used while the run was late");
      assertEquals(2, calls.get());
      letTheLateRunFinish(b);
      assertEquals("greedy", plan(b), "skip 1 of 2");
      assertEquals("greedy", plan(b), "skip 2 of 2");
      assertEquals(2, calls.get());
      permits.release(); // the next run answers at once
      assertEquals("gated", plan(b));
      assertEquals(3, calls.get());
      permits.release();
      assertEquals("gated", plan(b), "a success resets the back-off");
      assertEquals(4, calls.get());
      assertEquals(5, b.fallbackCount(), "misses 1 and 2, the late boundary, two skips");
    } finally {
      b.shutdown();
    }
  }

  @Test
  void withoutBudgetOrDistinctFallbackTheSchedulerRunsUnbounded() {
    permits.release(2);
    BudgetedPlanner none = new BudgetedPlanner(gated, new GreedyFirstStep(), 0);
    assertEquals("gated", plan(none));
    BudgetedPlanner same = new BudgetedPlanner(gated, gated, 1000);
    assertEquals("gated", plan(same));
    assertEquals(2, calls.get());
  }
}
