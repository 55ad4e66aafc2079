package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver-side step coordinator: keeps the cross-cluster traffic matrix of the running stages
 * (host x host, bytes) as reduce tasks register their demand, plans KPBS steps over the residual
 * demand with a scheduler-core {@link StepScheduler}, and grants steps to the receiving tasks.
 *
 * <p>Model (KPBS, Bampis et al. / Jeannot and Wagner; ARCHITECTURE.md sec. 1):
 *
 * <ul>
 *   <li>A flow is one (source host, destination host) pair of a step; the tasks on the destination
 *       host that need bytes from the source host share its byte budget.
 *   <li>Pipelined steps ({@code spark.wanshuffle.step.mode=pipelined}, the default): when a flow
 *       ends, its ports are used again at once. The coordinator re-plans every demand's future
 *       bytes (residual minus what running grants will fetch) with the {@link StepScheduler} on the
 *       whole platform and list-schedules the plan: it takes the plan's pairs bottleneck ports
 *       first ({@link BottleneckFirstOrder}) and grants each transfer whose sender and receiver
 *       have a free port while fewer than k flows are open. The transfers granted together form one
 *       step (one {@link StepEvent}); steps overlap in time, the k and δ limits hold at every
 *       instant. This removes the idle time a barrier costs when a step's flows end at different
 *       times (block sizes, TCP, task speed).
 *   <li>Barrier steps ({@code spark.wanshuffle.step.mode=barrier}, the papers' KPBS model): the
 *       next step is planned and granted when every receiver of the current one reported, or when
 *       its deadline passed ({@code max(minDeadline, factor × (β + duration))}). A receiver that
 *       misses the deadline keeps its flows open until it reports; later steps are planned with k
 *       and δ reduced by those flows, so at no instant are more than k flows open across the
 *       application nor more than δ(h) at one host (sending and receiving counted separately).
 *       Every step boundary re-plans the residual demand of the registered, unfinished demands that
 *       are not still fetching; only the first step of each plan is granted.
 *   <li>When idle, the first registration starts a short gather window so that a wave of tasks is
 *       planned together; it ends early once every task the driver launched in the stages with
 *       demand has registered or ended ({@link #taskLaunched}, {@link #taskEnded}).
 *   <li>Pipelined steps keep the last free flow, for a bounded time, for a bottleneck receiver
 *       whose next task is about to register ({@link FlowKeeping}; docs/plugin.md, "A flow kept for
 *       a task about to register").
 *   <li>Uncollected grants: a grant that no poll of its task has collected when its step's deadline
 *       passes (the task stopped polling) is taken back, and the demand is held out of planning
 *       until the task polls again; a collected grant is never taken back.
 *   <li>Idle demands: a poll marked idle (the task waits on another shuffle it reads) takes back
 *       the demand's grant, which the task has not started, and keeps the demand out of planning
 *       until a poll without the mark; see {@link AwaitGrant#idle()}.
 *   <li>Algorithm {@code none} (the A/B baseline): registrations are answered "ungated"; a poll is
 *       answered at once with a grant of everything; no flow is counted.
 * </ul>
 *
 * <p>Failure handling: {@link #release} (task end, from the executor or the driver's listener),
 * {@link #executorLost} and {@link #stageCompleted} drop residual demand and free flows; every
 * change re-plans. Unknown or released demands are answered {@link GrantReply.Status#UNGATED} so a
 * task that lost its coordinator state never waits.
 *
 * <p>Threading: every public method takes the coordinator's lock only to record what happened
 * (demand, report, release) and returns; it never runs a scheduler. Planning runs on the
 * <em>planner</em> (an {@link Executor}; in production one dedicated daemon thread): it snapshots
 * the residual matrix under the lock, runs the {@link StepScheduler} with the lock released, then
 * takes the lock again to grant the plan's first step, and completes the parked long-polls after
 * releasing it. While a plan is being computed, registrations, reports and releases proceed;
 * capacity can only grow in that time (flows close, demands go away; only the planner opens flows),
 * so a plan computed on the snapshot still respects k and δ when it is granted, and grants to
 * demands released meanwhile are skipped. A request to plan is a flag set under the lock and the
 * planner re-checks it under the same lock before it goes idle, so no wake-up is lost. Listener
 * callbacks run under the lock. No Spark dependency beyond the config object, so it is unit-tested
 * without RPC.
 */
public final class StepCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(StepCoordinator.class);

  /** Scheduler failures already logged with their stack trace: algorithm and exception class. */
  private final java.util.Set<String> planFailuresLogged =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final WanShuffleConf conf;
  private final StepScheduler scheduler;
  private final List<CoordinatorListener> listeners;
  private final CoordinatorTimer timer;
  private final LongSupplier clock;

  private final Map<Long, Demand> demands = new LinkedHashMap<>();
  private final Map<Long, Set<Long>> demandsByTask = new HashMap<>();
  private final Map<StageRef, StageAccount> stages = new HashMap<>();
  private final FlowLeases leases = new FlowLeases();

  /** step id -> open pair -> number of its demands still fetching that pair. */
  private final Map<Long, Map<HostPair, Integer>> openFlows = new HashMap<>();

  private final Executor planner;

  /** The scheduler behind the planning time budget; null when not gated. */
  private final BudgetedPlanner budgeted;

  /** Steps granted whose receivers have not all reported (and whose deadline has not passed). */
  private final Map<Long, ActiveStep> active = new LinkedHashMap<>();

  private CoordinatorTimer.Cancellable gatherTimer;

  /**
   * Tasks launched and not registered: a gather window ends early once none belongs to a stage with
   * demand.
   */
  private final LaunchedTasks launched = new LaunchedTasks();

  /**
   * Tasks of the running stages not launched yet, by preferred host (ranks ports; driver listener).
   */
  private final PendingTasks pending = new PendingTasks();

  /** Receivers a free flow is kept for (a task of theirs is about to register). */
  private final FlowKeeping keeping;

  private CoordinatorTimer.Cancellable keepTimer;

  /**
   * Transfers of steps reported ahead of their end (predicted hand-over), by demand and step,
   * waiting for their {@link FlowArrived}; {@code endMs} holds the report time until then.
   */
  private final Map<DemandStep, TransferRecord> arriving = new LinkedHashMap<>();

  /** A plan was asked for since the planner last took a snapshot. */
  private boolean planRequested;

  /** A planner run is queued or running (at most one at a time). */
  private boolean plannerQueued;

  /** The planner holds a snapshot and is running the scheduler (lock released). */
  private boolean planning;

  private long nextDemandId = 1;
  private long nextStepId = 1;
  private long nextPlanId = 1;
  private boolean stopped;

  /**
   * A coordinator that plans on the thread that triggers planning, after that thread released the
   * lock (deterministic; for tests and single-threaded embeddings).
   *
   * @param conf validated configuration (k, δ, β, base speed, deadlines)
   * @param scheduler the step scheduler; null iff {@code conf.gated()} is false
   * @param listeners observers (capture); may be empty
   * @param timer delayed actions (deadlines, gather window)
   * @param clock epoch milliseconds
   * @throws IllegalArgumentException if a gated configuration comes without a scheduler
   */
  public StepCoordinator(
      WanShuffleConf conf,
      StepScheduler scheduler,
      List<CoordinatorListener> listeners,
      CoordinatorTimer timer,
      LongSupplier clock) {
    this(conf, scheduler, listeners, timer, clock, Runnable::run);
  }

  /**
   * A coordinator whose planning fallback is the one {@code conf.planningFallback()} names ({@link
   * GreedyFirstStep} for {@value WanShuffleConf#GREEDY_FALLBACK}).
   *
   * @param conf validated configuration (k, δ, β, base speed, deadlines, planning budget)
   * @param scheduler the step scheduler; null iff {@code conf.gated()} is false
   * @param listeners observers (capture); may be empty
   * @param timer delayed actions (deadlines, gather window)
   * @param clock epoch milliseconds
   * @param planner runs the planning loop (one run at a time is submitted); production: one
   *     dedicated daemon thread, see {@link #plannerThread}
   * @throws IllegalArgumentException if a gated configuration comes without a scheduler
   */
  public StepCoordinator(
      WanShuffleConf conf,
      StepScheduler scheduler,
      List<CoordinatorListener> listeners,
      CoordinatorTimer timer,
      LongSupplier clock,
      Executor planner) {
    this(conf, scheduler, listeners, timer, clock, planner, fallbackOf(conf));
  }

  /**
   * @param conf validated configuration (k, δ, β, base speed, deadlines, planning budget)
   * @param scheduler the step scheduler; null iff {@code conf.gated()} is false
   * @param listeners observers (capture); may be empty
   * @param timer delayed actions (deadlines, gather window)
   * @param clock epoch milliseconds
   * @param planner runs the planning loop (one run at a time is submitted)
   * @param fallback scheduler for a step whose re-plan exceeds {@code conf.planningBudgetMs()};
   *     null = no budget
   * @throws IllegalArgumentException if a gated configuration comes without a scheduler
   */
  public StepCoordinator(
      WanShuffleConf conf,
      StepScheduler scheduler,
      List<CoordinatorListener> listeners,
      CoordinatorTimer timer,
      LongSupplier clock,
      Executor planner,
      StepScheduler fallback) {
    if (conf.gated() && scheduler == null) {
      throw new IllegalArgumentException("algorithm " + conf.algorithm() + " needs a scheduler");
    }
    this.conf = conf;
    this.keeping = new FlowKeeping(conf.gatherWindowMs());
    this.scheduler = scheduler;
    this.listeners = List.copyOf(listeners);
    this.timer = timer;
    this.clock = clock;
    this.planner = planner;
    this.budgeted =
        scheduler == null
            ? null
            : new BudgetedPlanner(scheduler, fallback, conf.planningBudgetMs());
  }

  private static StepScheduler fallbackOf(WanShuffleConf conf) {
    String f = conf.planningFallback();
    if (f.equals(GreedyFirstStep.NAME)) {
      return new GreedyFirstStep();
    }
    return Algorithms.names().contains(f) ? Algorithms.byName(f) : null;
  }

  /**
   * @param name thread name
   * @return a single daemon thread for {@link #StepCoordinator(WanShuffleConf, StepScheduler, List,
   *     CoordinatorTimer, LongSupplier, Executor)}; shut it down after {@link #stop}
   */
  public static ExecutorService plannerThread(String name) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * @return the configuration this coordinator runs with
   */
  public WanShuffleConf conf() {
    return conf;
  }

  /**
   * Announces the start to the listeners.
   *
   * @param info what the listeners learn
   */
  public synchronized void start(CoordinatorInfo info) {
    fire(l -> l.onCoordinatorStart(info));
  }

  /**
   * Registers a reduce task attempt's cross-cluster demand.
   *
   * @param m the demand (bytes per source host)
   * @return its id and whether the task must wait for grants
   */
  public Registered register(RegisterDemand m) {
    Registered out;
    synchronized (this) {
      out = registerLocked(m);
    }
    kickPlanner();
    return out;
  }

  private Registered registerLocked(RegisterDemand m) {
    if (stopped) {
      return new Registered(0, false);
    }
    long now = clock.getAsLong();
    StageRef stage = new StageRef(m.stageId(), m.stageAttempt());
    Demand d =
        new Demand(
            nextDemandId++,
            stage,
            m.shuffleId(),
            m.taskAttemptId(),
            m.executorId(),
            m.dstHost(),
            m.srcHosts(),
            m.bytes());
    demands.put(d.id, d);
    demandsByTask.computeIfAbsent(d.taskAttemptId, t -> new LinkedHashSet<>()).add(d.id);
    StageAccount acc = account(stage, now);
    acc.readsShuffle(d.shuffleId);
    pending.registered(stage, d.taskAttemptId, d.dst, d.src, d.registered);
    keeping.release(d.dst);
    for (int i = 0; i < d.src.length; i++) {
      acc.add(new HostPair(d.src[i], d.dst), d.registered[i], 0);
    }
    DemandEvent ev =
        new DemandEvent(
            d.id,
            stage,
            d.shuffleId,
            d.taskAttemptId,
            d.executorId,
            d.dst,
            List.of(d.src),
            d.registered.clone(),
            now);
    fire(l -> l.onDemandRegistered(ev));
    LaunchedTasks.Launch launch = launched.registered(d.taskAttemptId);
    if (launch != null && demandsByTask.get(d.taskAttemptId).size() == 1) {
      keeping.noteRegistrationDelay(now - launch.atMs());
    }
    if (conf.gated() && gatherTimer == null) {
      boolean idleNow = active.isEmpty() && (conf.barrierSteps() || leases.total() == 0);
      if (idleNow && !planning) {
        // a wave of tasks starts: gather it so that it is planned together
        gatherTimer = timer.schedule(this::gatherElapsed, conf.gatherWindowMs());
      } else if (!conf.barrierSteps()) {
        planIfIdle();
      }
    }
    endGatherIfWaveRegistered();
    return new Registered(d.id, conf.gated());
  }

  /**
   * Notes that a task's shuffle read has no cross-cluster blocks (the reader's one-way notice): a
   * wave being gathered no longer waits for the task, its host is not a receiver about to register
   * (no free flow is kept for it), and it counts as a task with no cross-cluster bytes in its
   * stage's estimate of the tasks still to launch ({@link PendingTasks}). A task with other reads
   * may still register a demand for them later.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host
   */
  public void noCrossClusterDemand(int stageId, int attempt, long taskAttemptId, String host) {
    synchronized (this) {
      if (stopped || !conf.gated()) {
        return;
      }
      long now = clock.getAsLong();
      pending.noCrossClusterBytes(new StageRef(stageId, attempt), taskAttemptId, host);
      if (keeping.release(host) && gatherTimer == null && !conf.barrierSteps()) {
        planIfIdle(); // the flow kept for this host's task is free for another demand
      }
      LaunchedTasks.Launch launch = launched.withoutDemand(taskAttemptId);
      if (launch != null && !demandsByTask.containsKey(taskAttemptId)) {
        keeping.noteRegistrationDelay(now - launch.atMs());
      }
      endGatherIfWaveRegistered();
    }
    kickPlanner();
  }

  /**
   * Notes a submitted stage attempt and the hosts its tasks prefer (driver listener: stage
   * submitted). While tasks of a stage with demand are still to launch, their expected bytes on
   * their preferred hosts count in the load by which pipelined steps rank ports ({@link
   * PendingTasks}, {@link BottleneckFirstOrder}); not with {@value WanShuffleConf#PENDING_TASKS} =
   * false.
   *
   * @param stageId the stage
   * @param attempt the stage attempt
   * @param preferredHosts per task of the attempt, its preferred hosts (empty list: none)
   */
  public void stageSubmitted(int stageId, int attempt, List<List<String>> preferredHosts) {
    synchronized (this) {
      if (!stopped && conf.gated() && conf.pendingTasks()) {
        pending.submitted(new StageRef(stageId, attempt), preferredHosts);
      }
    }
  }

  /**
   * Notes a task the driver launched (driver listener: task start). While the coordinator gathers a
   * wave, it plans as soon as every launched task of the stages with demand has registered (or
   * ended) instead of waiting for the whole window.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskLaunched(int stageId, int attempt, long taskAttemptId) {
    taskLaunched(stageId, attempt, taskAttemptId, null);
  }

  /**
   * Like {@link #taskLaunched(int, int, long)}, with the host the task runs on: the stage then has
   * one task fewer pending there ({@link #stageSubmitted}).
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host; null if unknown
   */
  public void taskLaunched(int stageId, int attempt, long taskAttemptId, String host) {
    synchronized (this) {
      if (stopped || !conf.gated()) {
        return;
      }
      StageRef stage = new StageRef(stageId, attempt);
      long now = clock.getAsLong();
      if (host != null) {
        pending.launched(stage, host, taskAttemptId);
        // kept while the host's previous task ended: its next task now has a bound to register
        keeping.taskLaunched(host, now);
      }
      launched.launched(stage, taskAttemptId, now, demandsByTask.containsKey(taskAttemptId));
    }
  }

  /**
   * Notes that a task ended, whatever the reason (driver listener): the gather window no longer
   * waits for it. Its demand, if any, is released by {@link #releaseTask} or by its own report.
   *
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskEnded(long taskAttemptId) {
    synchronized (this) {
      pending.ended(taskAttemptId);
      if (!launched.ended(taskAttemptId)) {
        return;
      }
      endGatherIfWaveRegistered();
    }
    kickPlanner();
  }

  /**
   * Ends the gather window (under the lock) when no launched task of a stage with demand is
   * missing.
   */
  private void endGatherIfWaveRegistered() {
    if (gatherTimer == null) {
      return;
    }
    Set<StageRef> withDemand = new HashSet<>();
    for (Demand d : demands.values()) {
      withDemand.add(d.stage);
    }
    // without the driver listener no launch is known for a stage: then the window decides
    if (!launched.allRegistered(withDemand)) {
      return;
    }
    gatherTimer.cancel();
    gatherTimer = null;
    planIfIdle();
  }

  /**
   * Processes a task's report of its finished step (if any) and returns its next grant: a completed
   * future when the answer is known now, else a pending one completed when a step grants the demand
   * (the long-poll; expire it with {@link #pollExpired}).
   *
   * @param m the request
   * @return the reply, now or later
   */
  public CompletableFuture<GrantReply> awaitGrant(AwaitGrant m) {
    CompletableFuture<GrantReply> out;
    synchronized (this) {
      out = awaitGrantLocked(m);
    }
    kickPlanner();
    return out;
  }

  private CompletableFuture<GrantReply> awaitGrantLocked(AwaitGrant m) {
    Demand d = demands.get(m.demandId());
    if (d == null || stopped) {
      return CompletableFuture.completedFuture(GrantReply.of(GrantReply.Status.UNGATED));
    }
    applyReport(d, m);
    if (d.released) {
      return CompletableFuture.completedFuture(GrantReply.of(GrantReply.Status.UNGATED));
    }
    d.idle = m.idle() && conf.gated();
    if (d.idle && d.grant != null) {
      // the task ignores any grant it has not started once it says idle: take the flows back
      LOG.debug(
          "wan-shuffle demand {} of task {} is idle; step {} grant taken back unused",
          d.id,
          d.taskAttemptId,
          d.grant.stepId());
      endGrant(d);
    }
    if (d.grant != null) {
      d.grantDelivered = true;
      return CompletableFuture.completedFuture(d.grant.reply(d));
    }
    if (d.remainingTotal() == 0) {
      forget(d);
      if (!demandsByTask.containsKey(d.taskAttemptId)) {
        pending.fetched(d.stage, d.taskAttemptId, d.dst);
      }
      return CompletableFuture.completedFuture(GrantReply.of(GrantReply.Status.FINISHED));
    }
    if (!conf.gated()) {
      int[] idx = new int[d.src.length];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = i;
      }
      d.grant = new Demand.Grant(0, idx, d.remaining.clone());
      return CompletableFuture.completedFuture(d.grant.reply(d));
    }
    if (d.waiter != null) {
      d.waiter.complete(GrantReply.of(GrantReply.Status.NOT_YET));
    }
    d.waiter = new CompletableFuture<>();
    d.firstPlanNanos = 0;
    CompletableFuture<GrantReply> f = d.waiter;
    if (gatherTimer == null) {
      planIfIdle();
    }
    return f;
  }

  /**
   * Ends a parked long-poll that saw no grant: completes it with {@link GrantReply.Status#NOT_YET}
   * unless a grant completed it first (a grant that loses this race stays pending and is returned
   * by the next poll).
   *
   * @param demandId the demand
   * @param poll the future returned by {@link #awaitGrant}
   */
  public synchronized void pollExpired(long demandId, CompletableFuture<GrantReply> poll) {
    if (poll.complete(GrantReply.of(GrantReply.Status.NOT_YET))) {
      Demand d = demands.get(demandId);
      if (d != null && d.waiter == poll) {
        d.waiter = null;
      } else if (d != null && d.grant != null) {
        d.grantDelivered = false; // the grant meant for this poll did not reach it
      }
    }
  }

  /**
   * Drops a demand (its task ended, failed or was killed before finishing): frees its flows,
   * forgets its residual demand and re-plans.
   *
   * @param demandId the demand; unknown ids are ignored
   * @param reason for the log and the capture
   */
  public void release(long demandId, String reason) {
    synchronized (this) {
      releaseLocked(demandId, reason);
    }
    kickPlanner();
  }

  private void releaseLocked(long demandId, String reason) {
    Demand d = demands.get(demandId);
    if (d != null) {
      releaseLocked(d, reason);
    }
  }

  /**
   * Drops every demand of a task attempt (driver listener: task end).
   *
   * @param taskAttemptId Spark's task attempt id
   * @param reason for the log and the capture
   */
  public void releaseTask(long taskAttemptId, String reason) {
    synchronized (this) {
      releaseTaskLocked(taskAttemptId, reason);
    }
    kickPlanner();
  }

  private void releaseTaskLocked(long taskAttemptId, String reason) {
    Set<Long> ids = demandsByTask.get(taskAttemptId);
    if (ids != null) {
      for (Long id : new ArrayList<>(ids)) {
        releaseLocked(id, reason);
      }
    }
  }

  /**
   * Drops every demand of tasks that ran on a lost executor and re-plans.
   *
   * @param executorId the executor
   */
  public void executorLost(String executorId) {
    synchronized (this) {
      executorLostLocked(executorId);
    }
    kickPlanner();
  }

  private void executorLostLocked(String executorId) {
    for (Demand d : new ArrayList<>(demands.values())) {
      if (d.executorId.equals(executorId)) {
        releaseLocked(d, "executor-lost");
      }
    }
  }

  /**
   * A stage attempt completed: drops what is left of its demand and publishes its final matrix.
   *
   * @param stageId Spark's stage id
   * @param attempt stage attempt number
   */
  public void stageCompleted(int stageId, int attempt) {
    synchronized (this) {
      stageCompletedLocked(stageId, attempt);
    }
    kickPlanner();
  }

  private void stageCompletedLocked(int stageId, int attempt) {
    StageRef ref = new StageRef(stageId, attempt);
    pending.done(ref);
    launched.stageDone(ref);
    for (Demand d : new ArrayList<>(demands.values())) {
      if (d.stage.equals(ref)) {
        releaseLocked(d, "stage-done");
      }
    }
    flushArriving(ref);
    StageAccount acc = stages.remove(ref);
    if (acc != null) {
      StageSummary s = acc.summary(clock.getAsLong());
      if (LOG.isInfoEnabled()) {
        LOG.info(
            "wan-shuffle stage {} done: {} B across clusters in {} step(s), shuffles {}; "
                + "cross-cluster traffic matrix:{}",
            ref,
            StageAccount.realisedTotal(s),
            s.steps(),
            Arrays.toString(s.shuffleIds()),
            StageAccount.matrixLines(s));
      }
      fire(l -> l.onStageDone(s));
    }
  }

  /**
   * Records a cross-cluster fetch that ran without gating (algorithm none or fallback).
   *
   * @param r the report
   */
  public void ungatedRealised(UngatedReport r) {
    synchronized (this) {
      ungatedRealisedLocked(r);
    }
    kickPlanner();
  }

  private void ungatedRealisedLocked(UngatedReport r) {
    long now = clock.getAsLong();
    RegisterDemand m = r.demand();
    StageRef stage = new StageRef(m.stageId(), m.stageAttempt());
    // a task that went ungated without learning its demand id (its registration timed out on the
    // executor but reached the driver): that demand is an orphan no poll will collect; release it
    // and do not count its registered bytes twice
    boolean orphan = r.demandId() == 0 && releaseOrphansLocked(m, stage);
    StageAccount acc = account(stage, now);
    acc.readsShuffle(m.shuffleId());
    boolean unregistered = r.demandId() == 0 && !orphan;
    for (int i = 0; i < m.srcHosts().length; i++) {
      acc.add(
          new HostPair(m.srcHosts()[i], m.dstHost()),
          unregistered ? m.bytes()[i] : 0,
          m.bytes()[i]);
    }
    if (unregistered) {
      DemandEvent ev =
          new DemandEvent(
              0,
              stage,
              m.shuffleId(),
              m.taskAttemptId(),
              m.executorId(),
              m.dstHost(),
              List.of(m.srcHosts()),
              m.bytes().clone(),
              now);
      fire(l -> l.onDemandRegistered(ev));
    }
    TransferRecord rec =
        new TransferRecord(
            0,
            stage,
            m.shuffleId(),
            m.taskAttemptId(),
            m.dstHost(),
            List.of(m.srcHosts()),
            m.bytes().clone(),
            r.startMs(),
            r.endMs(),
            r.endMs());
    fire(l -> l.onTransferRealised(rec));
  }

  /**
   * @return true when demands of the reporting task's read (same stage attempt and shuffle) were
   *     released
   */
  private boolean releaseOrphansLocked(RegisterDemand m, StageRef stage) {
    Set<Long> ids = demandsByTask.get(m.taskAttemptId());
    if (ids == null) {
      return false;
    }
    boolean any = false;
    for (Long id : new ArrayList<>(ids)) {
      Demand d = demands.get(id);
      if (d != null && d.stage.equals(stage) && d.shuffleId == m.shuffleId()) {
        LOG.info(
            "wan-shuffle demand {} of task {}: the task fetched ungated without learning the demand's id"
                + " (its registration timed out on the executor); released",
            d.id,
            d.taskAttemptId);
        releaseLocked(d, "ungated");
        any = true;
      }
    }
    return any;
  }

  /**
   * Records the end of a step that was reported ahead of it (predicted hand-over): its realised
   * transfer goes to the listeners with {@code endMs}, handed on at {@code reportedMs} (both on the
   * task's clock). Unknown or already recorded steps are ignored.
   *
   * @param m the arrival
   */
  public synchronized void flowArrived(FlowArrived m) {
    TransferRecord r = arriving.remove(new DemandStep(m.demandId(), m.stepId()));
    if (r == null) {
      return;
    }
    long end = Math.max(r.startMs(), m.endMs());
    TransferRecord rec =
        new TransferRecord(
            r.stepId(),
            r.stage(),
            r.shuffleId(),
            r.taskAttemptId(),
            r.dstHost(),
            r.srcHosts(),
            r.bytes(),
            r.startMs(),
            end,
            Math.max(r.startMs(), Math.min(end, m.reportedMs())));
    fire(l -> l.onTransferRealised(rec));
  }

  /**
   * Records the transfers reported ahead whose arrival never came (the task failed, the message was
   * lost), with the report time as their end.
   *
   * @param stage the stage, or null for every stage
   */
  private void flushArriving(StageRef stage) {
    for (Iterator<TransferRecord> it = arriving.values().iterator(); it.hasNext(); ) {
      TransferRecord r = it.next();
      if (stage == null || r.stage().equals(stage)) {
        it.remove();
        LOG.debug(
            "wan-shuffle step {} of task {}: no arrival reported; recorded with its report "
                + "time as its end",
            r.stepId(),
            r.taskAttemptId());
        fire(l -> l.onTransferRealised(r));
      }
    }
  }

  /** Stops: every parked task is told to fetch ungated; listeners get {@code onCoordinatorStop}. */
  public synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    flushArriving(null);
    launched.clear();
    if (gatherTimer != null) {
      gatherTimer.cancel();
    }
    for (ActiveStep s : active.values()) {
      s.deadline.cancel();
    }
    for (Demand d : demands.values()) {
      if (d.waiter != null) {
        d.waiter.complete(GrantReply.of(GrantReply.Status.UNGATED));
      }
    }
    fire(CoordinatorListener::onCoordinatorStop);
    timer.shutdown();
    if (budgeted != null) {
      budgeted.shutdown();
    }
  }

  /**
   * @return flows open now (granted and not yet reported), for tests and metrics
   */
  public synchronized int openFlowCount() {
    return leases.total();
  }

  /**
   * Waits until a plan that ran over the planning budget has ended (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no such plan is running
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitLatePlan(long timeoutMs) throws InterruptedException {
    return budgeted == null || budgeted.awaitLateRun(timeoutMs);
  }

  /**
   * @return demands registered and not yet finished or released
   */
  public synchronized int pendingDemandCount() {
    return demands.size();
  }

  // ---------------------------------------------------------------------------------------------

  private void gatherElapsed() {
    synchronized (this) {
      gatherTimer = null;
      planIfIdle();
    }
    kickPlanner();
  }

  private void deadlineReached(long stepId) {
    synchronized (this) {
      ActiveStep s = active.get(stepId);
      if (s != null) {
        // a grant no poll has collected by now is not being fetched: take its flows back
        for (Long id : List.copyOf(s.outstanding)) {
          Demand d = demands.get(id);
          if (d != null && d.grant != null && d.grant.stepId() == stepId && !d.grantDelivered) {
            LOG.warn(
                "wan-shuffle task {} did not collect its grant of step {} before the "
                    + "deadline; its flows are taken back and its demand waits for its next poll",
                d.taskAttemptId,
                stepId);
            d.idle = true; // out of planning until it polls again, like an idle poll
            endGrant(d);
          }
        }
        if (active.containsKey(stepId)) {
          LOG.warn(
              "wan-shuffle step {} passed its deadline with {} receiver(s) still fetching; "
                  + "their flows stay counted until they report",
              stepId,
              s.outstanding.size());
          finishStep(s, true);
        }
      }
    }
    kickPlanner();
  }

  private StageAccount account(StageRef stage, long now) {
    return stages.computeIfAbsent(stage, s -> new StageAccount(s, now));
  }

  private void applyReport(Demand d, AwaitGrant m) {
    if (m.doneStepId() == 0) {
      return;
    }
    if (d.grant == null || d.grant.stepId() != m.doneStepId()) {
      LOG.debug("ignoring stale report of step {} for demand {}", m.doneStepId(), d.id);
      return;
    }
    Demand.Grant g = d.grant;
    long[] fetched = new long[d.src.length];
    for (int i = 0; i < m.srcHosts().length; i++) {
      int idx = d.indexOf(m.srcHosts()[i]);
      if (idx < 0) {
        continue;
      }
      fetched[idx] = Math.max(0, m.fetchedBytes()[i]);
      d.remaining[idx] = Math.max(0, m.remainingBytes()[i]);
      d.realised[idx] += fetched[idx];
    }
    StageAccount acc = stages.get(d.stage);
    String[] hosts = new String[g.srcIdx().length];
    long[] bytes = new long[g.srcIdx().length];
    for (int i = 0; i < hosts.length; i++) {
      int idx = g.srcIdx()[i];
      hosts[i] = d.src[idx];
      bytes[i] = fetched[idx];
      if (acc != null) {
        acc.add(new HostPair(d.src[idx], d.dst), 0, fetched[idx]);
      }
    }
    if (m.reportsAhead()) {
      // the ports are handed on now; the flow's record waits for the time its last block arrived
      long now = Math.max(m.startMs(), clock.getAsLong());
      arriving.put(
          new DemandStep(d.id, g.stepId()),
          new TransferRecord(
              g.stepId(),
              d.stage,
              d.shuffleId,
              d.taskAttemptId,
              d.dst,
              List.of(hosts),
              bytes,
              m.startMs(),
              now,
              now));
    } else {
      TransferRecord rec =
          new TransferRecord(
              g.stepId(),
              d.stage,
              d.shuffleId,
              d.taskAttemptId,
              d.dst,
              List.of(hosts),
              bytes,
              m.startMs(),
              m.endMs(),
              m.endMs());
      fire(l -> l.onTransferRealised(rec));
    }
    endGrant(d);
  }

  /** Closes the current grant of {@code d}: frees its flows, ends the step if it was the last. */
  private void endGrant(Demand d) {
    Demand.Grant g = d.grant;
    d.grant = null;
    if (g == null || g.stepId() == 0) {
      return;
    }
    Map<HostPair, Integer> flows = openFlows.get(g.stepId());
    if (flows != null) {
      for (int idx : g.srcIdx()) {
        HostPair p = new HostPair(d.src[idx], d.dst);
        Integer n = flows.get(p);
        if (n == null) {
          continue;
        }
        if (n == 1) {
          flows.remove(p);
          leases.close(p.src(), p.dst());
        } else {
          flows.put(p, n - 1);
        }
      }
      if (flows.isEmpty()) {
        openFlows.remove(g.stepId());
      }
    }
    ActiveStep s = active.get(g.stepId());
    if (s != null) {
      s.outstanding.remove(d.id);
      if (s.outstanding.isEmpty()) {
        finishStep(s, false);
      }
    }
    // flows closed: with pipelined steps their ports are re-planned at once; with barriers only
    // when no step is running (a laggard past its deadline)
    planIfIdle();
  }

  private void finishStep(ActiveStep s, boolean deadlinePassed) {
    active.remove(s.event.stepId());
    s.deadline.cancel();
    long now = clock.getAsLong();
    fire(l -> l.onStepDone(s.event, now, deadlinePassed));
    planIfIdle();
  }

  private void releaseLocked(Demand d, String reason) {
    if (d.released) {
      return;
    }
    d.released = true;
    long unrealised = d.remainingTotal();
    forget(d);
    if (d.waiter != null) {
      d.waiter.complete(GrantReply.of(GrantReply.Status.UNGATED));
      d.waiter = null;
    }
    LOG.debug(
        "wan-shuffle demand {} of task {} released ({}), {} bytes unrealised",
        d.id,
        d.taskAttemptId,
        reason,
        unrealised);
    fire(l -> l.onDemandReleased(d.id, d.taskAttemptId, unrealised, reason));
    if (d.grant != null) {
      endGrant(d);
    } else {
      planIfIdle();
    }
  }

  private void forget(Demand d) {
    demands.remove(d.id);
    Set<Long> ids = demandsByTask.get(d.taskAttemptId);
    if (ids != null) {
      ids.remove(d.id);
      if (ids.isEmpty()) {
        demandsByTask.remove(d.taskAttemptId);
      }
    }
  }

  private int freeSend(String h) {
    return conf.delta(h) - leases.sending(h);
  }

  private int freeReceive(String h) {
    return conf.delta(h) - leases.receiving(h);
  }

  /**
   * Asks for a plan (under the lock): the planner picks it up once the caller released the lock
   * ({@link #kickPlanner}).
   */
  private void planIfIdle() {
    if (stopped || !conf.gated() || (conf.barrierSteps() && !active.isEmpty())) {
      return;
    }
    planRequested = true;
  }

  /**
   * Hands a requested plan to the planner unless a planner run is already queued or running (that
   * run re-checks {@link #planRequested} under the lock before it ends). Called without the lock.
   */
  private void kickPlanner() {
    synchronized (this) {
      if (!planRequested || plannerQueued || stopped) {
        return;
      }
      plannerQueued = true;
    }
    try {
      planner.execute(this::planLoop);
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        plannerQueued = false;
      }
      LOG.debug("wan-shuffle planner stopped; plan request dropped", e);
    }
  }

  /**
   * The planner: while plans are requested, snapshot under the lock, run the scheduler without it,
   * grant under it, complete the parked polls without it.
   */
  private void planLoop() {
    boolean normalExit = false;
    try {
      while (planOnce()) {
        // loop while plans are requested
      }
      normalExit = true;
    } finally {
      if (!normalExit) {
        // an Error escaped: let the next request start a new planner run instead of waiting
        synchronized (this) {
          plannerQueued = false;
          planning = false;
        }
      }
    }
  }

  /**
   * @return false when no plan is requested (the planner went idle)
   */
  private boolean planOnce() {
    PlanInput in;
    synchronized (this) {
      if (!planRequested || stopped) {
        plannerQueued = false;
        return false;
      }
      planRequested = false;
      long started = System.nanoTime();
      for (Demand d : demands.values()) {
        if (d.waiter != null && d.firstPlanNanos == 0) {
          d.firstPlanNanos = started; // the first plan that could have granted this parked report
        }
      }
      try {
        in = snapshotLocked(started);
      } catch (RuntimeException e) {
        LOG.error("wan-shuffle planner could not read the residual demand", e);
        return true;
      }
      if (in == null) {
        return true;
      }
      planning = true;
    }
    PlanOutput out;
    try {
      out = computePlan(in);
    } catch (RuntimeException e) {
      LOG.error(
          "wan-shuffle planner failed on a {} x {} matrix; granting the largest transfer "
              + "alone this step",
          in.matrix.rows(),
          in.matrix.cols(),
          e);
      out = new PlanOutput(largestTransferOnly(in.matrix), scheduler.name(), 0);
    }
    List<Runnable> replies = new ArrayList<>();
    synchronized (this) {
      planning = false;
      if (!stopped) {
        try {
          applyLocked(in, out, replies);
        } catch (RuntimeException e) {
          LOG.error(
              "wan-shuffle planner could not grant plan of {}; the next step boundary or "
                  + "release re-plans",
              out.algorithm,
              e);
        }
      }
    }
    for (Runnable r : replies) {
      r.run();
    }
    return true;
  }

  /**
   * What the planner plans on: a snapshot of the residual demand and the free capacity, taken at
   * {@code startedNanos} ({@code System.nanoTime()}).
   */
  private record PlanInput(
      List<Demand> eligible,
      String[] sNames,
      String[] rNames,
      long[][] bytes,
      TrafficMatrix matrix,
      Platform platform,
      long startedNanos) {}

  /** A computed schedule, the name of the algorithm that produced it and its cost in ns. */
  private record PlanOutput(Schedule schedule, String algorithm, long planNanos) {}

  /**
   * @return the residual demand to plan over, or null when nothing can be planned now. Barrier
   *     steps plan what the free capacity can start now (k and δ reduced by open flows, only
   *     demands not fetching). Pipelined steps plan every demand's future bytes (residual minus
   *     what its running grant will fetch) on the whole platform; the grant then list-schedules the
   *     plan on the free ports.
   */
  private PlanInput snapshotLocked(long startedNanos) {
    boolean barrier = conf.barrierSteps();
    if (stopped || !conf.gated() || (barrier && !active.isEmpty())) {
      return null;
    }
    if (gatherTimer != null) {
      gatherTimer.cancel();
      gatherTimer = null;
    }
    // barrier steps: k over both directions (the step is planned on the free capacity as one
    // KPBS instance); pipelined steps: k per direction, checked below and in the grant
    int freeK = conf.k() - leases.total();
    if (barrier && freeK <= 0) {
      return null;
    }
    List<Demand> eligible = new ArrayList<>();
    List<long[]> futures = new ArrayList<>();
    Map<String, Integer> senders = new LinkedHashMap<>();
    Map<String, Integer> receivers = new LinkedHashMap<>();
    Set<FlowLeases.Direction> directions = new HashSet<>();
    boolean startable = false;
    for (Demand d : demands.values()) {
      if (d.released || d.idle) {
        continue;
      }
      boolean free = d.grant == null && freeReceive(d.dst) > 0;
      if (barrier && !free) {
        continue;
      }
      long[] future = futureBytes(d);
      boolean any = false;
      for (int i = 0; i < d.src.length; i++) {
        boolean sendable = freeSend(d.src[i]) > 0;
        if (future[i] > 0 && (!barrier || sendable)) {
          senders.putIfAbsent(d.src[i], senders.size());
          any = true;
          FlowLeases.Direction dir = leases.direction(d.src[i], d.dst);
          directions.add(dir);
          startable |= free && sendable && leases.total(dir) < conf.k();
        }
      }
      if (any) {
        receivers.putIfAbsent(d.dst, receivers.size());
        eligible.add(d);
        futures.add(future);
      }
    }
    if (eligible.isEmpty() || !startable) {
      return null;
    }
    int rows = senders.size();
    int cols = receivers.size();
    long[][] bytes = new long[rows][cols];
    for (int e = 0; e < eligible.size(); e++) {
      Demand d = eligible.get(e);
      int j = receivers.get(d.dst);
      long[] future = futures.get(e);
      for (int i = 0; i < d.src.length; i++) {
        Integer r = senders.get(d.src[i]);
        if (r != null && future[i] > 0) {
          bytes[r][j] += future[i];
        }
      }
    }
    String[] sNames = senders.keySet().toArray(new String[0]);
    String[] rNames = receivers.keySet().toArray(new String[0]);
    double b = conf.baseSpeed();
    double[] seconds = new double[rows * cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        seconds[i * cols + j] = bytes[i][j] / b;
      }
    }
    int[] sd = new int[rows];
    int[] rd = new int[cols];
    for (int i = 0; i < rows; i++) {
      sd[i] = barrier ? freeSend(sNames[i]) : conf.delta(sNames[i]);
    }
    for (int j = 0; j < cols; j++) {
      rd[j] = barrier ? freeReceive(rNames[j]) : conf.delta(rNames[j]);
    }
    // pipelined: the backbone is full duplex, k flows per direction with demand
    Platform platform =
        Platform.of(
            barrier ? freeK : conf.k() * Math.max(1, directions.size()),
            conf.betaSeconds(),
            sd,
            rd);
    TrafficMatrix matrix = TrafficMatrix.ofRowMajor(rows, cols, seconds);
    return new PlanInput(eligible, sNames, rNames, bytes, matrix, platform, startedNanos);
  }

  /**
   * @return per source of {@code d}, the bytes still to grant: the residual, minus the budget of
   *     the grant it is fetching (if any)
   */
  private static long[] futureBytes(Demand d) {
    long[] f = d.remaining.clone();
    if (d.grant != null) {
      for (int i = 0; i < d.grant.srcIdx().length; i++) {
        int idx = d.grant.srcIdx()[i];
        f[idx] = Math.max(0, f[idx] - d.grant.budgets()[i]);
      }
    }
    return f;
  }

  /**
   * Runs the scheduler within the planning budget (else the fallback); called by the planner
   * without the lock.
   */
  private PlanOutput computePlan(PlanInput in) {
    long t0 = System.nanoTime();
    Schedule schedule;
    String algorithm = budgeted.name();
    try {
      BudgetedPlanner.Plan p = budgeted.plan(in.matrix, in.platform);
      schedule = p.schedule();
      algorithm = p.algorithm();
    } catch (RuntimeException e) {
      if (planFailuresLogged.add(algorithm + ": " + e.getClass().getName())) {
        LOG.error(
            "wan-shuffle scheduler {} failed on a {} x {} matrix; granting the largest "
                + "transfer alone this step (later failures of this kind are logged in one line)",
            algorithm,
            in.matrix.rows(),
            in.matrix.cols(),
            e);
      } else {
        LOG.warn(
            "wan-shuffle scheduler {} failed on a {} x {} matrix ({}); granting the largest transfer alone"
                + " this step",
            algorithm,
            in.matrix.rows(),
            in.matrix.cols(),
            e.toString());
      }
      schedule = largestTransferOnly(in.matrix);
    }
    return new PlanOutput(schedule, algorithm, System.nanoTime() - t0);
  }

  /** Publishes the plan and grants its first step (under the lock); replies go to {@code out}. */
  private void applyLocked(PlanInput in, PlanOutput out, List<Runnable> replies) {
    long planId = nextPlanId++;
    long now = clock.getAsLong();
    TrafficMatrix matrix = in.matrix;
    PlanEvent pe =
        new PlanEvent(
            planId,
            now,
            out.algorithm,
            List.of(in.sNames),
            List.of(in.rNames),
            in.bytes,
            conf.baseSpeed(),
            in.platform,
            out.schedule,
            out.planNanos);
    fire(l -> l.onPlanComputed(pe));
    Schedule sch = out.schedule;
    if (sch.steps().isEmpty()) {
      LOG.error(
          "wan-shuffle scheduler {} returned no step for a non-empty matrix {}; granting "
              + "the largest transfer alone",
          out.algorithm,
          matrix);
      sch = largestTransferOnly(matrix);
    }
    List<Step> steps = conf.barrierSteps() ? sch.steps().subList(0, 1) : sch.steps();
    if (!grant(planId, out.algorithm, steps, in, now, replies) && leases.total() == 0) {
      // nothing could be granted and no flow will end to trigger the next plan: never stall
      grant(planId, out.algorithm, largestTransferOnly(matrix).steps(), in, now, replies);
    }
  }

  private static Schedule largestTransferOnly(TrafficMatrix m) {
    int bi = 0;
    int bj = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        if (m.amount(i, j) > m.amount(bi, bj)) {
          bi = i;
          bj = j;
        }
      }
    }
    return new Schedule(List.of(Step.of(List.of(new Transfer(bi, bj, m.amount(bi, bj))))));
  }

  /**
   * Grants one step: the transfers of {@code steps}, in order, whose ports are free (list
   * scheduling; with barrier steps {@code steps} is the plan's first step only, which fits the free
   * capacity by construction). A host pair appears at most once in a step and is skipped while a
   * flow of it is open. Returns false when nothing could be granted.
   */
  private boolean grant(
      long planId,
      String algorithm,
      List<Step> steps,
      PlanInput in,
      long now,
      List<Runnable> replies) {
    String[] sNames = in.sNames;
    String[] rNames = in.rNames;
    long[][] bytes = in.bytes;
    long stepId = nextStepId;
    Map<Long, List<long[]>> parts = new LinkedHashMap<>();
    Map<HostPair, Integer> flowCounts = new HashMap<>();
    List<FlowGrant> flows = new ArrayList<>();
    Set<HostPair> open = new HashSet<>();
    for (Map<HostPair, Integer> f : openFlows.values()) {
      open.addAll(f.keySet());
    }
    double longest = 0;
    PendingTasks.Estimate expected = pending.estimate();
    Map<String, Double> awaited = awaitedReceivers(expected, in, now);
    boolean kept = false;
    List<BottleneckFirstOrder.Ranked> order = listOrder(steps, in, expected);
    // a flow is kept only for a host that is the bottleneck: more bytes to come than any port's
    // load
    double heaviest = order.stream().mapToDouble(BottleneckFirstOrder.Ranked::load).max().orElse(0);
    // barrier steps start with every port free unless flows outlived their step's deadline
    boolean portsFreeAtStart = leases.total() == 0;
    for (BottleneckFirstOrder.Ranked ranked : order) {
      Transfer t = ranked.transfer();
      String s = sNames[t.src()];
      String r = rNames[t.dst()];
      if (conf.barrierSteps() && leases.total() >= conf.k()) {
        break; // barrier steps: k over both directions
      }
      FlowLeases.Direction dir = leases.direction(s, r);
      if (leases.total(dir) >= conf.k()) {
        continue; // this direction of the backbone is full
      }
      if (freeSend(s) <= 0 || freeReceive(r) <= 0 || open.contains(new HostPair(s, r))) {
        if (conf.barrierSteps() && portsFreeAtStart) {
          LOG.error(
              "wan-shuffle scheduler {} put {} -> {} in a step beyond k or delta; " + "skipped",
              algorithm,
              s,
              r);
        } else if (conf.barrierSteps()) {
          LOG.debug("{} -> {} waits: its ports are held by a flow past its step's deadline", s, r);
        }
        continue;
      }
      List<String> heavier = new ArrayList<>();
      for (Map.Entry<String, Double> a : awaited.entrySet()) {
        if (!a.getKey().equals(r)
            && a.getValue() >= FlowKeeping.KEEP_FACTOR * ranked.load()
            && a.getValue() >= heaviest
            && leases.sameCluster(a.getKey(), r)) {
          heavier.add(a.getKey());
        }
      }
      if (!heavier.isEmpty() && leases.total(dir) + heavier.size() >= conf.k()) {
        // the last free flows wait for a heavier receiver's task that is about to register
        for (String h : heavier) {
          keeping.keep(h, now);
        }
        LOG.debug(
            "wan-shuffle: a free flow kept for {} instead of {} -> {} (port load {} B; "
                + "awaited receivers' bytes per port {}; {} flow(s) open)",
            heavier,
            s,
            r,
            (long) ranked.load(),
            awaited,
            leases.total());
        kept = true;
        continue;
      }
      if (grantTransfer(t, s, r, bytes[t.src()][t.dst()], in, parts, flowCounts, flows)) {
        open.add(new HostPair(s, r));
        longest = Math.max(longest, t.amount());
        if (!awaited.isEmpty() && LOG.isDebugEnabled()) {
          LOG.debug(
              "wan-shuffle: {} -> {} granted (port load {} B, heaviest {} B; awaited "
                  + "receivers' bytes per port {}; {} flow(s) open)",
              s,
              r,
              (long) ranked.load(),
              (long) heaviest,
              awaited,
              leases.total());
        }
      }
    }
    if (kept) {
      scheduleKeepEnd(now);
    }
    if (parts.isEmpty()) {
      return false;
    }
    nextStepId++;
    Set<Long> outstanding = new LinkedHashSet<>();
    long[] tasks = new long[parts.size()];
    Set<StageRef> stagesOfStep = new HashSet<>();
    int n = 0;
    for (Map.Entry<Long, List<long[]>> e : parts.entrySet()) {
      Demand d = demands.get(e.getKey());
      List<long[]> ps = e.getValue();
      int[] idx = new int[ps.size()];
      long[] budgets = new long[ps.size()];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = (int) ps.get(i)[0];
        budgets[i] = ps.get(i)[1];
      }
      d.grant = new Demand.Grant(stepId, idx, budgets);
      d.grantDelivered = false;
      outstanding.add(d.id);
      tasks[n++] = d.taskAttemptId;
      stagesOfStep.add(d.stage);
    }
    for (StageRef sr : stagesOfStep) {
      StageAccount acc = stages.get(sr);
      if (acc != null) {
        acc.stepGranted();
      }
    }
    double planned = conf.betaSeconds() + longest;
    long deadlineMs =
        now
            + Math.max(
                conf.minDeadlineMs(), (long) Math.ceil(conf.deadlineFactor() * planned * 1000));
    StepEvent ev = new StepEvent(stepId, planId, List.copyOf(flows), tasks, now, deadlineMs);
    openFlows.put(stepId, flowCounts);
    active.put(
        stepId,
        new ActiveStep(
            ev, outstanding, timer.schedule(() -> deadlineReached(stepId), deadlineMs - now)));
    if (LOG.isInfoEnabled()) {
      StringBuilder f = new StringBuilder();
      for (FlowGrant g : flows) {
        f.append(f.length() == 0 ? "" : ", ")
            .append(g.srcHost())
            .append("->")
            .append(g.dstHost())
            .append(' ')
            .append(g.bytes())
            .append(" B");
      }
      LOG.info(
          "wan-shuffle step {} (plan {}, {}): {} flow(s) [{}] to {} task(s), {} flow(s) "
              + "still open from earlier steps, deadline in {} ms",
          stepId,
          planId,
          algorithm,
          flows.size(),
          f,
          outstanding.size(),
          leases.total() - flows.size(),
          deadlineMs - now);
    }
    fire(l -> l.onStepGranted(ev));
    for (Long id : outstanding) {
      Demand d = demands.get(id);
      if (d.waiter != null) {
        // completed after the lock is released; a poll that expires first gets the grant from
        // d.grant on its next call
        CompletableFuture<GrantReply> w = d.waiter;
        d.waiter = null;
        d.grantDelivered = true;
        // the time it waited for ports, from the first plan after its report to this one: not part
        // of the
        // executor's hand-over loop
        long held = d.firstPlanNanos == 0 ? 0 : (in.startedNanos - d.firstPlanNanos) / 1_000_000;
        GrantReply reply = d.grant.reply(d).withHeldMs(held);
        replies.add(() -> w.complete(reply));
      }
    }
    return true;
  }

  /**
   * @return the transfers {@code grant} walks: with barrier steps the first step as planned; with
   *     pipelined steps the plan's pairs bottleneck ports first ({@link BottleneckFirstOrder}), the
   *     ports' loads counting the {@code expected} bytes of tasks still to launch
   */
  private List<BottleneckFirstOrder.Ranked> listOrder(
      List<Step> steps, PlanInput in, PendingTasks.Estimate expected) {
    if (conf.barrierSteps()) {
      List<BottleneckFirstOrder.Ranked> first = new ArrayList<>();
      for (Transfer t : steps.get(0).transfers()) {
        first.add(new BottleneckFirstOrder.Ranked(t, Double.POSITIVE_INFINITY));
      }
      return first;
    }
    // pipelined plans are made on the whole platform: its δ are each host's configured δ
    return BottleneckFirstOrder.ranked(
        steps,
        in.bytes,
        in.platform,
        byIndex(expected.senders(), in.sNames),
        byIndex(expected.receivers(), in.rNames),
        conf.staggerTaskEnds());
  }

  /**
   * Receivers a free flow may be kept for (pipelined steps, gather window &gt; 0): a host where a
   * task of a stage with demand is about to register ({@link PendingTasks.Estimate#awaited}:
   * launched and not registered, or about to launch there as the host's task that fetched all its
   * bytes ends), or whose task registered while this plan was being computed (its demand is not in
   * the plan; measured once on the testbed: the light receiver took the last flow and the heavy
   * receiver's task, registered 2 ms earlier, waited 1.5 s), with no demand in this plan and no
   * flow open to it; for at most one gather window from when a flow was first kept for it, and one
   * more from the task's launch.
   *
   * @return such receivers and their expected bytes per port (δ)
   */
  private Map<String, Double> awaitedReceivers(
      PendingTasks.Estimate expected, PlanInput in, long now) {
    Map<String, Double> out = new HashMap<>();
    Map<String, Double> awaited = new HashMap<>(expected.awaited());
    Set<String> planned = Set.of(in.rNames);
    // a task that registered while this plan was computed is no longer "about to register", and its
    // demand is not in the plan: it waits for the next plan (which its registration asked for) as
    // if
    // about to register, with its registered bytes
    Set<Long> inPlan = new HashSet<>();
    for (Demand d : in.eligible) {
      inPlan.add(d.id);
    }
    for (Demand d : demands.values()) {
      if (!d.released
          && !d.idle
          && d.grant == null
          && d.remainingTotal() > 0
          && !inPlan.contains(d.id)
          && !planned.contains(d.dst)) {
        awaited.merge(d.dst, (double) d.remainingTotal(), Math::max);
      }
    }
    keeping.retainOnly(awaited.keySet());
    if (conf.barrierSteps() || conf.gatherWindowMs() <= 0) {
      return out;
    }
    for (Map.Entry<String, Double> e : awaited.entrySet()) {
      String h = e.getKey();
      if (planned.contains(h) || freeReceive(h) < conf.delta(h) || keeping.expired(h, now)) {
        continue;
      }
      out.put(h, e.getValue() / conf.delta(h));
    }
    return out;
  }

  /** Re-plans when the oldest kept flow's gather window ends, so no flow is kept longer. */
  private void scheduleKeepEnd(long now) {
    if (keepTimer != null) {
      return;
    }
    keepTimer =
        timer.schedule(
            () -> {
              synchronized (this) {
                keepTimer = null;
                planIfIdle();
              }
              kickPlanner();
            },
            Math.max(1, keeping.nextExpiryMs(now) - now));
  }

  /**
   * Counts k per direction of the backbone: a flow's direction is the pair (cluster of its source,
   * cluster of its destination). The backbone is full duplex, so a stage whose reduce tasks run on
   * both clusters may have k flows open each way (KPBS per direction, GGP/OGGP paper sec. 2);
   * pipelined steps only (barrier steps keep k over both directions). Call once, before the first
   * registration; without it every host is in one cluster and all flows count against one k.
   *
   * @param clusterOf cluster name of a host (for example from the topology's {@code /cluster/rack}
   *     path); must not return null
   */
  public synchronized void useClusters(Function<String, String> clusterOf) {
    leases.useClusters(clusterOf);
  }

  private static double[] byIndex(Map<String, Double> byHost, String[] hosts) {
    double[] out = new double[hosts.length];
    for (int i = 0; i < hosts.length; i++) {
      out[i] = byHost.getOrDefault(hosts[i], 0.0);
    }
    return out;
  }

  /**
   * Opens the flow {@code s -> r} for transfer {@code t} (seconds at the base speed): its byte
   * budget goes to the demands on {@code r} that are not fetching, in registration order.
   *
   * @return false when no such demand needs bytes from {@code s} (nothing opened)
   */
  private boolean grantTransfer(
      Transfer t,
      String s,
      String r,
      long pairBytes,
      PlanInput in,
      Map<Long, List<long[]>> parts,
      Map<HostPair, Integer> flowCounts,
      List<FlowGrant> flows) {
    long budget = (long) Math.ceil(t.amount() * conf.baseSpeed());
    if (budget >= pairBytes - 1) {
      budget = pairBytes;
    }
    long left = Math.max(1, budget);
    int receiversOfPair = 0;
    for (Demand d : in.eligible) {
      if (left <= 0) {
        break;
      }
      if (d.released || d.idle || d.grant != null || !d.dst.equals(r)) {
        continue;
      }
      int idx = d.indexOf(s);
      if (idx < 0 || d.remaining[idx] <= 0) {
        continue;
      }
      long give = Math.min(d.remaining[idx], left);
      left -= give;
      parts.computeIfAbsent(d.id, x -> new ArrayList<>()).add(new long[] {idx, give});
      receiversOfPair++;
    }
    if (receiversOfPair == 0) {
      return false;
    }
    leases.open(s, r);
    flowCounts.put(new HostPair(s, r), receiversOfPair);
    flows.add(new FlowGrant(s, r, Math.max(1, budget) - Math.max(0, left)));
    return true;
  }

  private void fire(Consumer<CoordinatorListener> call) {
    for (CoordinatorListener l : listeners) {
      try {
        call.accept(l);
      } catch (RuntimeException e) {
        LOG.warn("wan-shuffle coordinator listener {} failed", l.getClass().getName(), e);
      }
    }
  }

  /** A step of one demand (the key of a transfer reported ahead of its end). */
  private record DemandStep(long demandId, long stepId) {}

  /** The step being run. */
  private static final class ActiveStep {
    final StepEvent event;
    final Set<Long> outstanding;
    final CoordinatorTimer.Cancellable deadline;

    ActiveStep(StepEvent event, Set<Long> outstanding, CoordinatorTimer.Cancellable deadline) {
      this.event = event;
      this.outstanding = outstanding;
      this.deadline = deadline;
    }
  }

  @Override
  public synchronized String toString() {
    return "StepCoordinator["
        + conf.algorithm()
        + ", demands="
        + demands.size()
        + ", open flows="
        + leases.total()
        + ", steps="
        + active.keySet()
        + ", stages="
        + Arrays.toString(stages.keySet().toArray())
        + "]";
  }
}
