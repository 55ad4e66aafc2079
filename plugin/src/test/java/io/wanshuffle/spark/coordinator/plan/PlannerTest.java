package io.wanshuffle.spark.coordinator.plan;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Oggp;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * The fallback chain: the scheduler's plan; past the budget the fallback's; the largest transfer
 * alone when the scheduler that ran throws or returns no step. The slow scheduler blocks on a latch
 * the test opens, so the outcome does not depend on the machine's speed.
 */
class PlannerTest {
  private static final GreedyTestScheduler GREEDY = new GreedyTestScheduler();

  /** 2 x 2, base speed 100 B/s: a1 -> b1 1 s, a2 -> b1 3 s, a1 -> b2 2 s. */
  private final DemandMatrix m =
      DemandMatrix.residual(
          List.of(demand(1, "b1", "a1", 100, "a2", 300), demand(2, "b2", "a1", 200)),
          TestDemands.leases(2, h -> 1, h -> ""),
          new PipelinedSteps(),
          0.05,
          100);

  private static StepScheduler named(
      String name, BiFunction<TrafficMatrix, Platform, Schedule> body) {
    return new StepScheduler() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Schedule schedule(TrafficMatrix tm, Platform p) {
        return body.apply(tm, p);
      }
    };
  }

  private static final StepScheduler THROWS =
      named(
          "throws",
          (tm, p) -> {
            throw new IllegalStateException("scheduler bug");
          });

  private static final StepScheduler NO_STEP = named("no-step", (tm, p) -> new Schedule(List.of()));

  @Test
  void theSchedulersPlanWhenItAnswers() {
    try (Planner planner = new Planner(GREEDY, new GreedyFirstStep(), 0)) {
      Planner.Plan plan = planner.plan(m);
      assertEquals("greedy-test", plan.algorithm());
      assertEquals("greedy-test", planner.name());
      assertEquals(GREEDY.schedule(m.matrix(), m.platform()), plan.schedule());
      assertTrue(plan.nanos() >= 0);
    }
  }

  @Test
  void theLargestTransferAloneWhenTheSchedulerThrows() {
    for (long budgetMs : new long[] {0, 60_000}) {
      try (Planner planner = new Planner(THROWS, GREEDY, budgetMs)) {
        Planner.Plan plan = planner.plan(m);
        assertEquals(m.largestTransferOnly(), plan.schedule(), "budget " + budgetMs + " ms");
        assertEquals("throws", plan.algorithm());
        // a second failure of the same kind takes the same path (logged in one line)
        assertEquals(m.largestTransferOnly(), planner.plan(m).schedule());
      }
    }
  }

  @Test
  void theLargestTransferAloneWhenTheSchedulerReturnsNoStep() {
    try (Planner planner = new Planner(NO_STEP, null, 0)) {
      Planner.Plan plan = planner.plan(m);
      assertEquals(m.largestTransferOnly(), plan.schedule());
      assertEquals(1, plan.schedule().steps().size());
      assertEquals("no-step", plan.algorithm());
    }
  }

  @Test
  void theFallbacksPlanPastTheBudget() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    StepScheduler blocked =
        named(
            "blocked",
            (tm, p) -> {
              started.countDown();
              try {
                answer.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return GREEDY.schedule(tm, p);
            });
    Planner planner = new Planner(blocked, GREEDY, 50);
    try {
      Planner.Plan plan = planner.plan(m);
      assertEquals("greedy-test", plan.algorithm(), "the scheduler cannot answer: it is blocked");
      assertEquals(GREEDY.schedule(m.matrix(), m.platform()), plan.schedule());
      assertTrue(started.await(60, TimeUnit.SECONDS), "the scheduler ran on the budget's worker");
      answer.countDown();
      assertTrue(planner.awaitLateRun(60_000), "the late run ends once answered");
    } finally {
      answer.countDown();
      planner.close();
    }
  }

  @Test
  void theLargestTransferAloneWhenTheFallbackThrowsPastTheBudget() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    StepScheduler blocked =
        named(
            "blocked",
            (tm, p) -> {
              try {
                answer.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return GREEDY.schedule(tm, p);
            });
    Planner planner = new Planner(blocked, THROWS, 50);
    try {
      Planner.Plan plan = planner.plan(m);
      assertEquals(m.largestTransferOnly(), plan.schedule());
      assertEquals("throws", plan.algorithm(), "the fallback failed, not the blocked scheduler");
    } finally {
      answer.countDown();
      planner.close();
    }
  }

  @Test
  void theFallbackIsTheOneTheConfigurationNames() {
    assertInstanceOf(GreedyFirstStep.class, Planner.fallbackOf(conf(Settings.GREEDY_FALLBACK)));
    assertInstanceOf(Oggp.class, Planner.fallbackOf(conf(Oggp.NAME)));
    assertNull(
        Planner.fallbackOf(conf("greedy-test")), "a name the algorithm registry does not know");
  }

  private static WanShuffleConf conf(String fallback) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.PLANNING_FALLBACK.key(), fallback);
    return WanShuffleConf.from(c, Set.of("greedy-test", Oggp.NAME));
  }
}
