package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's planner thread: a scheduler never runs under the coordinator's lock, a slow
 * scheduler does not hold up registrations, polls or releases, and no plan request is lost when
 * many tasks register and report concurrently. Every wait here is on an event (latch, future)
 * bounded only to turn a hang into a failure; nothing asserts on elapsed time.
 */
class StepCoordinatorPlannerTest {
  private static final long WAIT_S = 30;
  private final ExecutorService planner = PlanningLoop.thread("test-planner");
  private final List<String> lockHeldWhilePlanning = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopPlanner() {
    planner.shutdownNow();
  }

  private static WanShuffleConf conf(String... kv) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.GATHER_WINDOW.key(), "100ms")
            // unbounded planning unless a test sets a budget: a blocked scheduler stays blocked
            .set(Settings.PLANNING_BUDGET.key(), "0");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c, Set.of("greedy-test"));
  }

  private static RegisterDemand demand(long task, String dst, String src, long bytes) {
    return new RegisterDemand(
        3, 0, 7, task, "e" + task, dst, new String[] {src}, new long[] {bytes});
  }

  /** {@code inner}, recording whether the coordinator's lock is held when it runs. */
  private StepScheduler lockChecking(AtomicReference<StepCoordinator> owner, StepScheduler inner) {
    return after(
        inner,
        () -> {
          StepCoordinator c = owner.get();
          if (c != null && Thread.holdsLock(c)) {
            lockHeldWhilePlanning.add(Thread.currentThread().getName());
          }
        });
  }

  @Test
  void slowSchedulerDoesNotBlockRegistrationPollsOrReleases() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    AtomicReference<StepCoordinator> owner = new AtomicReference<>();
    StepScheduler blocking =
        greedyAfter(
            () -> {
              entered.countDown();
              try {
                proceed.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    ManualTimer timer = new ManualTimer();
    RecordingListener events = new RecordingListener();
    // barrier steps: a demand registered during planning waits for the step boundary
    StepCoordinator c =
        StepCoordinator.builder(
                conf(
                    Settings.K.key(),
                    "2",
                    Settings.DELTA.key(),
                    "1",
                    Settings.STEP_MODE.key(),
                    Settings.BARRIER))
            .scheduler(lockChecking(owner, blocking))
            .listeners(List.of(events))
            .timer(timer)
            .clock(timer::now)
            .planner(planner)
            .build();
    owner.set(c);
    RegisterDemand d1 = demand(1, "b1", "a1", 300);
    RegisterDemand d3 = demand(3, "b3", "a3", 200);
    long id1 = c.register(d1).demandId();
    long id3 = c.register(d3).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(id3));
    timer.advance(100); // gather window: the planner starts and blocks inside the scheduler
    assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS), "the planner runs the scheduler");

    // while the scheduler runs: everything an RPC handler does returns at once
    RegisterDemand d2 = demand(2, "b2", "a2", 100);
    long id2 =
        assertTimeoutPreemptively(
            Duration.ofSeconds(WAIT_S),
            () -> {
              long id = c.register(d2).demandId();
              c.release(id3, "task-end");
              c.pollExpired(id1, p1);
              return id;
            },
            "a registration, release or poll expiry waited for the scheduler");
    assertEquals(
        Status.UNGATED,
        p3.get(WAIT_S, TimeUnit.SECONDS).status(),
        "the released demand's parked poll is answered while the scheduler runs");
    assertEquals(Status.NOT_YET, p1.get(WAIT_S, TimeUnit.SECONDS).status());
    assertEquals(List.of("3:task-end:200"), events.released);
    assertTrue(events.plans.isEmpty(), "the plan is still being computed");
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));

    proceed.countDown();
    // the plan saw d1 and d3 (snapshot); d3 was released meanwhile, so only d1 is granted
    GrantReply g1 = awaitStatus(c, id1, Status.GRANT);
    assertArrayEquals(new String[] {"a1"}, g1.srcHosts());
    assertEquals(List.of(new FlowGrant("a1", "b1", 300)), events.steps.get(0).flows());
    assertEquals(1, c.openFlowCount());
    assertFalse(p2.isDone(), "d2 came after the snapshot: it waits for the next step");

    // d1 reports: step 1 ends, the planner plans d2
    CompletableFuture<GrantReply> f1 =
        c.awaitGrant(
            new AwaitGrant(
                id1, g1.stepId(), new String[] {"a1"}, new long[] {300}, new long[] {0}, 1, 2));
    assertEquals(Status.FINISHED, f1.get(WAIT_S, TimeUnit.SECONDS).status());
    GrantReply g2 = p2.get(WAIT_S, TimeUnit.SECONDS);
    assertEquals(Status.GRANT, g2.status());
    assertArrayEquals(new long[] {100}, g2.budgets());
    assertEquals(List.of(), lockHeldWhilePlanning);
  }

  /**
   * Pipelined steps: a port freed while a round plans waits for that round at most {@code
   * planning.replanWait}, then takes the last plan's next transfer, even when the rounds before
   * were short.
   */
  @Test
  void aPortFreedDuringALongRoundTakesTheLastPlansNextTransferAfterTheReplanWait()
      throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    CountDownLatch exited = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    StepScheduler secondBlocks = greedyBlockingOnCall(2, calls, entered, proceed, exited);
    ManualTimer timer = new ManualTimer();
    StepCoordinator c =
        StepCoordinator.builder(
                conf(
                    Settings.K.key(), "3",
                    Settings.DELTA.key(), "1",
                    Settings.REPLAN_WAIT.key(), "20ms"))
            .scheduler(secondBlocks)
            .listeners(List.of())
            .timer(timer)
            .clock(timer::now)
            .planner(planner)
            .build();
    try {
      long id1 = c.register(demand(1, "b1", "a1", 300)).demandId();
      long id2 = c.register(demand(2, "b2", "a2", 300)).demandId();
      long id3 = c.register(demand(3, "b1", "a3", 100)).demandId();
      CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
      CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
      CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(id3));
      timer.advance(100); // gather window: the first (quick) round grants a1->b1 and a2->b2
      GrantReply g1 = p1.get(WAIT_S, TimeUnit.SECONDS);
      assertEquals(Status.GRANT, g1.status());
      assertEquals(Status.GRANT, p2.get(WAIT_S, TimeUnit.SECONDS).status());
      assertFalse(p3.isDone(), "b1 takes one flow at a time (δ = 1)");

      // a new demand starts a second round, whose scheduler blocks
      long id4 = c.register(demand(4, "b9", "a9", 100)).demandId();
      CompletableFuture<GrantReply> p4 = c.awaitGrant(AwaitGrant.poll(id4));
      assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS), "the second round plans");

      // a1->b1 ends while the second round plans: b1 is free
      CompletableFuture<GrantReply> f1 =
          c.awaitGrant(
              new AwaitGrant(
                  id1, g1.stepId(), new String[] {"a1"}, new long[] {300}, new long[] {0}, 1, 2));
      assertEquals(Status.FINISHED, f1.get(WAIT_S, TimeUnit.SECONDS).status());
      assertFalse(p3.isDone(), "the round has planned for less than planning.replanWait");
      timer.advance(20); // the coordinator's clock: the round has planned for 20 ms
      GrantReply g3 = p3.get(WAIT_S, TimeUnit.SECONDS);
      assertEquals(Status.GRANT, g3.status(), "the last plan's next transfer, a3->b1");
      assertArrayEquals(new String[] {"a3"}, g3.srcHosts());
      assertEquals(1, exited.getCount(), "granted while the second round still plans");
      assertFalse(p4.isDone(), "a9->b9 is not in the last plan: it waits for the re-plan");
      proceed.countDown();
      assertEquals(Status.GRANT, p4.get(WAIT_S, TimeUnit.SECONDS).status());
    } finally {
      proceed.countDown();
    }
  }

  @Test
  void whileThePlannerRestsAFreedPortTakesTheLastPlanAndWhatItCannotServeWakesThePlanner()
      throws Exception {
    // rounds of at least 400 ms at a share of 0.01: rests of about 40 s, far beyond every wait
    // here, so a grant within the wait came from the last plan or from a round the coordinator woke
    StepScheduler slowGreedy =
        greedyAfter(
            () -> {
              try {
                Thread.sleep(400);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    ManualTimer timer = new ManualTimer();
    RecordingListener events = new RecordingListener();
    StepCoordinator c =
        StepCoordinator.builder(
                conf(
                    Settings.K.key(), "1",
                    Settings.DELTA.key(), "1",
                    Settings.PLANNING_SHARE.key(), "0.01"))
            .scheduler(slowGreedy)
            .listeners(List.of(events))
            .timer(timer)
            .clock(timer::now)
            .planner(planner)
            .maxRestMs(60_000)
            .build();
    long id1 = c.register(demand(1, "b1", "a1", 300)).demandId();
    long id2 = c.register(demand(2, "b2", "a2", 300)).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
    timer.advance(100); // gather window: the first round grants one of the two (k = 1)
    CompletableFuture<?> first = CompletableFuture.anyOf(p1, p2);
    first.get(WAIT_S, TimeUnit.SECONDS);
    boolean oneFirst = p1.isDone();
    long firstId = oneFirst ? id1 : id2;
    CompletableFuture<GrantReply> other = oneFirst ? p2 : p1;
    GrantReply g = (oneFirst ? p1 : p2).get();
    assertEquals(Status.GRANT, g.status());
    assertFalse(other.isDone(), "k = 1");
    String src = oneFirst ? "a1" : "a2";
    // the flow ends while the planner rests: the last plan's next transfer is granted at once, in
    // the reporting call
    c.awaitGrant(
        new AwaitGrant(
            firstId, g.stepId(), new String[] {src}, new long[] {300}, new long[] {0}, 1, 2));
    assertTrue(other.isDone(), "granted from the last plan, without a round");
    GrantReply g2 = other.get();
    assertEquals(Status.GRANT, g2.status());
    assertEquals(1, events.plans.size(), "one plan so far");

    // a task registers while the port is taken; when the port frees, the last plan has nothing
    // for it: the planner is woken and plans the new demand long before its rest would end
    long id3 = c.register(demand(3, "b3", "a3", 300)).demandId();
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(id3));
    assertFalse(p3.isDone());
    long otherId = oneFirst ? id2 : id1;
    String otherSrc = oneFirst ? "a2" : "a1";
    c.awaitGrant(
        new AwaitGrant(
            otherId, g2.stepId(), new String[] {otherSrc}, new long[] {300}, new long[] {0}, 1, 2));
    assertEquals(Status.GRANT, p3.get(WAIT_S, TimeUnit.SECONDS).status());
    c.stop();
  }

  /**
   * @param before run at the start of every schedule call (on the planner thread)
   * @return the greedy test scheduler, each run preceded by {@code before}
   */
  private static StepScheduler greedyAfter(Runnable before) {
    return after(new GreedyTestScheduler(), before);
  }

  /**
   * @param inner the scheduler that plans
   * @param before run at the start of every schedule call (on the planner thread)
   * @return {@code inner}, each run preceded by {@code before}
   */
  private static StepScheduler after(StepScheduler inner, Runnable before) {
    return new StepScheduler() {
      @Override
      public String name() {
        return inner.name();
      }

      @Override
      public Schedule schedule(TrafficMatrix m, Platform p) {
        before.run();
        return inner.schedule(m, p);
      }
    };
  }

  /**
   * A greedy scheduler whose {@code call}-th run (counted in {@code calls}, from 1) counts down
   * {@code entered}, waits for {@code proceed} and counts down {@code exited} before it plans.
   */
  private static StepScheduler greedyBlockingOnCall(
      int call,
      AtomicInteger calls,
      CountDownLatch entered,
      CountDownLatch proceed,
      CountDownLatch exited) {
    GreedyTestScheduler greedy = new GreedyTestScheduler();
    return new StepScheduler() {
      @Override
      public String name() {
        return "greedy-test";
      }

      @Override
      public Schedule schedule(TrafficMatrix m, Platform p) {
        if (calls.incrementAndGet() == call) {
          entered.countDown();
          try {
            proceed.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            exited.countDown();
          }
        }
        return greedy.schedule(m, p);
      }
    };
  }

  /** Polls until the demand's reply has the wanted status (a grant may race a poll's expiry). */
  private static GrantReply awaitStatus(StepCoordinator c, long id, Status want) throws Exception {
    for (int i = 0; i < 1000; i++) {
      CompletableFuture<GrantReply> f = c.awaitGrant(AwaitGrant.poll(id));
      GrantReply r;
      try {
        r = f.get(WAIT_S, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("no reply for demand " + id, e);
      }
      if (r.status() == want) {
        return r;
      }
    }
    throw new AssertionError("demand " + id + " never reached " + want);
  }

  @Test
  void inlinePlannerAlsoRunsTheSchedulerWithoutTheLock() {
    ManualTimer timer = new ManualTimer();
    AtomicReference<StepCoordinator> owner = new AtomicReference<>();
    StepCoordinator c =
        StepCoordinator.builder(conf(Settings.K.key(), "1"))
            .scheduler(lockChecking(owner, new GreedyTestScheduler()))
            .listeners(List.of())
            .timer(timer)
            .clock(timer::now)
            .build();
    owner.set(c);
    long a = c.register(demand(1, "b1", "a1", 10)).demandId();
    long b = c.register(demand(2, "b2", "a2", 10)).demandId();
    CompletableFuture<GrantReply> pa = c.awaitGrant(AwaitGrant.poll(a));
    CompletableFuture<GrantReply> pb = c.awaitGrant(AwaitGrant.poll(b));
    timer.advance(100);
    GrantReply first = pa.isDone() ? pa.join() : pb.join();
    long firstId = pa.isDone() ? a : b;
    CompletableFuture<GrantReply> other = pa.isDone() ? pb : pa;
    assertFalse(other.isDone(), "k = 1");
    c.awaitGrant(
        new AwaitGrant(
            firstId, first.stepId(), first.srcHosts(), new long[] {10}, new long[] {0}, 1, 2));
    assertEquals(Status.GRANT, other.join().status(), "re-planned from the report");
    assertEquals(List.of(), lockHeldWhilePlanning);
  }

  /**
   * A re-plan that exceeds spark.wanshuffle.planning.budget is replaced by the fallback for that
   * step; while the late plan still runs, later boundaries use the fallback without starting
   * another run; once it ended, the configured scheduler plans again.
   */
  @Test
  void planOverTheBudgetFallsBackWithoutPilingUpSlowRuns() throws Exception {
    CountDownLatch proceed = new CountDownLatch(1);
    CountDownLatch exited = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    StepScheduler slow = greedyBlockingOnCall(1, calls, new CountDownLatch(1), proceed, exited);
    ManualTimer timer = new ManualTimer();
    RecordingListener events = new RecordingListener();
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.PLANNING_BUDGET.key(), "1s");
    StepCoordinator c =
        StepCoordinator.builder(conf)
            .scheduler(slow)
            .listeners(List.of(events))
            .timer(timer)
            .clock(timer::now)
            .planner(Runnable::run)
            .fallback(new GreedyFirstStep())
            .build();
    RegisterDemand d1 = demand(1, "b1", "a1", 300);
    RegisterDemand d2 = demand(2, "b2", "a2", 200);
    RegisterDemand d3 = demand(3, "b3", "a3", 100);
    long id1 = c.register(d1).demandId();
    long id2 = c.register(d2).demandId();
    long id3 = c.register(d3).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(id1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(id2));
    CompletableFuture<GrantReply> p3 = c.awaitGrant(AwaitGrant.poll(id3));
    timer.advance(100); // plan 1: the scheduler blocks past the budget
    assertEquals(GreedyFirstStep.NAME, events.plans.get(0).algorithm());
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 300)),
        events.steps.get(0).flows(),
        "the fallback grants the largest pair (k = 1)");
    GrantReply g1 = p1.get(WAIT_S, TimeUnit.SECONDS);
    // step 1 ends; the slow run is still going: plan 2 comes from the fallback, no second run
    c.awaitGrant(
        new AwaitGrant(
            id1, g1.stepId(), new String[] {"a1"}, new long[] {300}, new long[] {0}, 1, 2));
    assertEquals(GreedyFirstStep.NAME, events.plans.get(1).algorithm());
    assertEquals(1, calls.get(), "no second run of the slow scheduler while the first runs");
    GrantReply g2 = p2.get(WAIT_S, TimeUnit.SECONDS);
    assertEquals(Status.GRANT, g2.status());
    proceed.countDown();
    assertTrue(exited.await(WAIT_S, TimeUnit.SECONDS));
    assertTrue(c.awaitLatePlan(WAIT_S * 1000), "the late plan has ended");
    // the late plan is gone: plan 3 is the configured scheduler's again
    c.awaitGrant(
        new AwaitGrant(
            id2, g2.stepId(), new String[] {"a2"}, new long[] {200}, new long[] {0}, 1, 2));
    assertEquals("greedy-test", events.plans.get(2).algorithm());
    assertEquals(Status.GRANT, p3.get(WAIT_S, TimeUnit.SECONDS).status());
    c.stop();
  }

  /**
   * Many task threads register, poll and report at once against the real planner thread: every byte
   * is granted and realised (a lost wake-up would leave a task parked until the test's bound), and
   * at no instant do granted flows exceed k or δ.
   */
  @Test
  void concurrentTasksNeverLoseAWakeUpAndStayWithinKAndDelta() throws Exception {
    int k = 3;
    int delta = 2;
    CoordinatorTimer timer = CoordinatorTimer.daemon("test-coordinator-timer");
    RecordingListener events = new RecordingListener();
    PlanValidator validator = new PlanValidator();
    AtomicReference<StepCoordinator> owner = new AtomicReference<>();
    // deadlines far away: progress must come from reports and wake-ups, not from timeouts
    StepCoordinator c =
        StepCoordinator.builder(
                conf(
                    Settings.K.key(),
                    "" + k,
                    Settings.DELTA.key(),
                    "" + delta,
                    Settings.GATHER_WINDOW.key(),
                    "0ms",
                    Settings.STEP_MIN_DEADLINE.key(),
                    "10min",
                    Settings.BACKBONE_RATE.key(),
                    "" + 1000 * k))
            .scheduler(lockChecking(owner, new GreedyTestScheduler()))
            .listeners(List.of(events, validator))
            .timer(timer)
            .clock(System::currentTimeMillis)
            .planner(planner)
            .build();
    owner.set(c);
    OpenPairs open = new OpenPairs(k, delta);
    int tasks = 24;
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      Random rnd = new Random(7);
      List<Future<Long>> results = new ArrayList<>();
      long total = 0;
      for (int t = 0; t < tasks; t++) {
        int nSrc = 1 + rnd.nextInt(4);
        String[] src = new String[nSrc];
        long[] bytes = new long[nSrc];
        for (int s = 0; s < nSrc; s++) {
          src[s] = "a" + s;
          bytes[s] = 1 + rnd.nextInt(5000);
          total += bytes[s];
        }
        RegisterDemand d =
            new RegisterDemand(3, 0, 7, t, "e" + t, "b" + rnd.nextInt(5), src, bytes);
        results.add(pool.submit(() -> runTask(c, d, open)));
      }
      long realised = 0;
      for (Future<Long> f : results) {
        realised += f.get(120, TimeUnit.SECONDS);
      }
      assertEquals(total, realised, "every registered byte was granted and fetched");
      assertEquals(List.of(), open.violations);
      assertEquals(List.of(), validator.invalid);
      assertEquals(List.of(), lockHeldWhilePlanning);
      assertEquals(0, c.openFlowCount());
      assertEquals(0, c.pendingDemandCount());
    } finally {
      pool.shutdownNow();
      c.stop();
    }
  }

  /** One reduce task: register, then poll / fetch the whole grant / report until finished. */
  private static long runTask(StepCoordinator c, RegisterDemand d, OpenPairs open)
      throws Exception {
    long id = c.register(d).demandId();
    long[] remaining = d.bytes().clone();
    long fetchedTotal = 0;
    AwaitGrant next = AwaitGrant.poll(id);
    while (true) {
      GrantReply g = c.awaitGrant(next).get(WAIT_S, TimeUnit.SECONDS);
      if (g.status() == Status.FINISHED) {
        return fetchedTotal;
      }
      if (g.status() != Status.GRANT) {
        throw new AssertionError("unexpected " + g.status() + " for task " + d.taskAttemptId());
      }
      open.acquire(g.srcHosts(), d.dstHost());
      long[] fetched = new long[remaining.length];
      for (int i = 0; i < g.srcHosts().length; i++) {
        for (int s = 0; s < remaining.length; s++) {
          if (d.srcHosts()[s].equals(g.srcHosts()[i])) {
            fetched[s] = Math.min(g.budgets()[i], remaining[s]);
            remaining[s] -= fetched[s];
            fetchedTotal += fetched[s];
          }
        }
      }
      open.release(g.srcHosts(), d.dstHost());
      next = new AwaitGrant(id, g.stepId(), d.srcHosts(), fetched, remaining.clone(), 1, 2);
    }
  }

  /** Host pairs held by tasks right now; checks k and δ each time a grant is taken. */
  private static final class OpenPairs {
    final int k;
    final int delta;
    final Map<String, Integer> holders = new HashMap<>();
    final List<String> violations = new CopyOnWriteArrayList<>();

    OpenPairs(int k, int delta) {
      this.k = k;
      this.delta = delta;
    }

    synchronized void acquire(String[] srcs, String dst) {
      for (String s : srcs) {
        holders.merge(s + ">" + dst, 1, Integer::sum);
      }
      Map<String, Integer> out = new HashMap<>();
      Map<String, Integer> in = new HashMap<>();
      for (String p : holders.keySet()) {
        String[] sd = p.split(">");
        out.merge(sd[0], 1, Integer::sum);
        in.merge(sd[1], 1, Integer::sum);
      }
      if (holders.size() > k) {
        violations.add("k exceeded: " + holders.keySet());
      }
      for (Map.Entry<String, Integer> e : out.entrySet()) {
        if (e.getValue() > delta) {
          violations.add("sender delta exceeded: " + holders.keySet());
        }
      }
      for (Map.Entry<String, Integer> e : in.entrySet()) {
        if (e.getValue() > delta) {
          violations.add("receiver delta exceeded: " + holders.keySet());
        }
      }
    }

    synchronized void release(String[] srcs, String dst) {
      for (String s : srcs) {
        holders.computeIfPresent(s + ">" + dst, (p, n) -> n == 1 ? null : n - 1);
      }
    }
  }
}
