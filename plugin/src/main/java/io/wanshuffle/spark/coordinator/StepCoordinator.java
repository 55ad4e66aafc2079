package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.measure.PlannedFlow;
import io.wanshuffle.spark.measure.TransferPrediction;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver-side step coordinator: the façade over the roles of the data path, which owns the lock
 * and delivers the replies and the listener events. Reduce tasks register their cross-cluster
 * demand, the coordinator plans KPBS steps over the residual demand and grants them to the
 * receiving tasks (KPBS: GGP/OGGP paper, Cohen, Jeannot, Padoy, Wagner, sec. 2; δ-port: DGGP paper,
 * Jeannot and Wagner, sec. 2).
 *
 * <p>Data path, each role its own class:
 *
 * <ol>
 *   <li>{@link DemandBook}: registered demands (registration, release, executor loss, stage end);
 *       {@link TaskWaves}: the tasks still to launch or register; {@link StageLedger}: what each
 *       stage registered and realised;
 *   <li>{@link DemandMatrix}: the residual demand as a traffic matrix and platform, the one place
 *       where bytes become seconds at the base speed and back;
 *   <li>{@link Planner}: the scheduler within its time budget, with one fallback chain;
 *   <li>{@link StepAssembler}: a plan becomes one step within k and δ ({@link FlowLeases}), flows
 *       kept for awaited receivers ({@link FlowKeeping}), byte budgets;
 *   <li>{@link StepTracker}: running steps, their deadlines and the receivers' reports.
 * </ol>
 *
 * The driver log's lines come from {@link CoordinatorLog}, the listener events go through {@link
 * Listeners}.
 *
 * <p>Barrier and pipelined steps differ only in the {@link StepMode}. A flow is one (source host,
 * destination host) pair of a step; the tasks on the destination that need bytes from the source
 * share its budget.
 *
 * <p>Rules the façade keeps:
 *
 * <ul>
 *   <li>When idle, the first registration opens the {@link GatherWindow} so a wave of tasks is
 *       planned together.
 *   <li>A grant that no poll of its task collected when its step's deadline passes is taken back;
 *       the demand waits, out of planning, until the task polls again. A collected grant is never
 *       taken back.
 *   <li>A poll marked idle ({@link AwaitGrant#idle()}: the task reads another shuffle) takes back
 *       the demand's unstarted grant and keeps it out of planning until a poll without the mark.
 *   <li>If a plan grants nothing while no flow is open, the largest transfer is granted alone: the
 *       shuffle never stalls.
 *   <li>Algorithm {@code none}: registrations are answered "ungated", a poll at once with a grant
 *       of everything; no flow is counted.
 *   <li>Unknown or released demands are answered {@link GrantReply.Status#UNGATED}, so a task that
 *       lost its coordinator state never waits.
 * </ul>
 *
 * <p>Threading: every public method takes the lock only to record what happened and returns; it
 * never runs a scheduler. Planning runs on the planner ({@link PlanningLoop}): snapshot under the
 * lock, scheduler without it, grant under it, replies after it. Listener callbacks run under the
 * lock. No Spark dependency beyond the configuration object, so it is unit-tested without RPC.
 */
public final class StepCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(StepCoordinator.class);

  private final WanShuffleConf conf;
  private final Listeners listeners;
  private final LongSupplier clock;
  private final CoordinatorTimer timer;
  private final StepMode mode;

  private final DemandBook book = new DemandBook();

  /**
   * Demands that parked a long-poll since the last round's snapshot: the next round is the first
   * plan that could grant it ({@link Demand#firstPlanNanos}).
   */
  private final ArrayDeque<Demand> parkedSinceSnapshot = new ArrayDeque<>();

  private final StageLedger stages = new StageLedger();
  private final FlowLeases leases;
  private final FlowKeeping keeping;
  private final TaskWaves waves;
  private final StepAssembler assembler;
  private final StepTracker steps;
  private final GatherWindow gather;
  private final MeasuringListener measuring;
  private final StageGate gate;

  /**
   * β the planner uses, seconds: the configured one, or with {@code beta=auto} the measured one
   * once known ({@link #adoptMeasured}).
   */
  private volatile double betaSeconds;

  /** The cluster of a host. */
  private final Function<String, String> clusterOf;

  /** The scheduler within its budget; null when not gated. */
  private final Planner planner;

  private final PlanningLoop<RoundInput, RoundPlan> planning;
  private CoordinatorTimer.Cancellable keepTimer;

  /**
   * Set while a port freed during a short round waits for {@code planning.replanWait} to pass
   * ({@link #grantFromStandingPlan}).
   */
  private CoordinatorTimer.Cancellable standingTimer;

  private final AtomicLong nextPlanId = new AtomicLong(1);
  private boolean stopped;

  /**
   * Pipelined steps: the last plan, whose next transfers take ports freed while the planner is busy
   * with a slow round ({@link #grantFromStandingPlan}); null before the first plan.
   */
  private StandingPlan standing;

  /**
   * A plan was asked for (ports freed, demand changed) since the last grant from {@link #standing}.
   */
  private boolean changedSinceStanding;

  StepCoordinator(StepCoordinatorBuilder b) {
    if (b.conf().gated() && b.scheduler() == null) {
      throw new IllegalArgumentException(
          "algorithm " + b.conf().get(Settings.ALGORITHM) + " needs a scheduler");
    }
    this.conf = b.conf();
    LinkModel links = b.links() != null ? b.links() : LinkModel.flat(conf, b.clusterOf());
    this.measuring = new MeasuringListener(links);
    List<CoordinatorListener> all = new ArrayList<>(b.listeners());
    all.add(measuring);
    this.listeners = new Listeners(all);
    this.gate = new StageGate(conf.get(Settings.GATE_MARGIN).orElse(-1.0));
    this.betaSeconds = conf.betaSeconds();
    this.clusterOf = b.clusterOf();
    this.clock = Objects.requireNonNull(b.clock(), "clock");
    this.timer = Objects.requireNonNull(b.timer(), "timer");
    this.mode = StepMode.of(conf);
    this.leases = new FlowLeases(links, b.clusterOf());
    this.keeping = new FlowKeeping(conf.get(Settings.GATHER_WINDOW));
    this.waves = new TaskWaves(keeping);
    this.assembler = new StepAssembler(leases, keeping, mode, conf.get(Settings.GATHER_WINDOW));
    this.steps =
        new StepTracker(
            leases,
            timer,
            conf.betaSeconds(),
            conf.get(Settings.STEP_DEADLINE_FACTOR),
            conf.get(Settings.STEP_MIN_DEADLINE));
    this.gather = new GatherWindow(timer, conf.get(Settings.GATHER_WINDOW));
    StepScheduler fallback = b.fallbackSet() ? b.fallback() : Planner.fallbackOf(conf);
    this.planner =
        b.scheduler() == null
            ? null
            : new Planner(b.scheduler(), fallback, conf.get(Settings.PLANNING_BUDGET));
    this.planning =
        new PlanningLoop<>(
            this,
            b.planner(),
            new Rounds(),
            b.clock(),
            mode.planFitsFreePorts() ? 1 : conf.get(Settings.PLANNING_SHARE),
            b.maxRestMs());
  }

  /**
   * @param conf validated configuration (k, δ, β, base speed, deadlines, planning budget)
   * @return a builder of a coordinator for {@code conf}
   */
  public static StepCoordinatorBuilder builder(WanShuffleConf conf) {
    return new StepCoordinatorBuilder(conf);
  }

  /**
   * @param name thread name
   * @return a single daemon thread to plan on ({@link StepCoordinatorBuilder#planner}); shut it
   *     down after {@link #stop}
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
    listeners.fire(l -> l.onCoordinatorStart(info));
  }

  /**
   * Registers a reduce task attempt's cross-cluster demand.
   *
   * @param m the demand (bytes per source host)
   * @return its id and whether the task must wait for grants
   */
  public Registered register(RegisterDemand m) {
    return event(() -> registerLocked(m));
  }

  private Registered registerLocked(RegisterDemand m) {
    if (stopped) {
      return new Registered(0, false);
    }
    long now = clock.getAsLong();
    Demand d = book.add(m);
    stages.registered(d, now);
    waves.registered(d, book.countOfTask(d.taskAttemptId) == 1, now);
    DemandEvent ev =
        new DemandEvent(
            d.id,
            d.stage,
            d.shuffleId,
            d.taskAttemptId,
            d.executorId,
            d.dst,
            List.of(d.src),
            d.registered.clone(),
            now);
    listeners.fire(l -> l.onDemandRegistered(ev));
    if (gate.ungated(d.stage)) {
      // decided at the stage's first plan: its reads fetch at once, as Spark does
      releaseLocked(d, "stage-ungated");
      return withLinks(new Registered(d.id, false), d.dst);
    }
    if (conf.gated() && !gather.isOpen()) {
      if (mode.idle(steps, leases) && !planning.isPlanning()) {
        // a wave of tasks starts: gather it so that it is planned together
        gather.open(this::gatherElapsed);
      } else if (mode.plansOnEveryRegistration()) {
        requestPlan();
      }
    }
    closeGatherIfWaveRegistered();
    return withLinks(new Registered(d.id, conf.gated()), d.dst);
  }

  /**
   * @param r a registration answer
   * @param host the registering task's host
   * @return {@code r} carrying the base speed and the host's δ the coordinator plans with now, for
   *     the executor's {@code gate.minBytes=auto} threshold
   */
  private Registered withLinks(Registered r, String host) {
    LinkModel links = leases.links();
    return r.withLinks(links.baseSpeed(), links.receivePorts(host));
  }

  /**
   * Notes that a task's shuffle read has no cross-cluster blocks (the reader's one-way notice): a
   * wave being gathered no longer waits for the task, no free flow is kept for its host, and it
   * counts as a task with no cross-cluster bytes in its stage's estimate of the tasks still to
   * launch ({@link PendingTasks}). A task with other reads may still register a demand for them.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host
   */
  public void noCrossClusterDemand(int stageId, int attempt, long taskAttemptId, String host) {
    event(
        () -> {
          if (stopped || !conf.gated()) {
            return null;
          }
          StageRef stage = new StageRef(stageId, attempt);
          boolean hasDemand = book.countOfTask(taskAttemptId) > 0;
          if (waves.noDemand(stage, taskAttemptId, host, hasDemand, clock.getAsLong())
              && !gather.isOpen()) {
            requestPlan(); // the flow kept for this host's task is free for another demand
          }
          closeGatherIfWaveRegistered();
          return null;
        });
  }

  /**
   * Notes a submitted stage attempt and the hosts its tasks prefer (driver listener). While tasks
   * of a stage with demand are still to launch, their expected bytes on their preferred hosts count
   * in the load by which pipelined steps rank ports ({@link PendingTasks}, {@link
   * BottleneckFirstOrder}).
   *
   * @param stageId the stage
   * @param attempt the stage attempt
   * @param preferredHosts per task of the attempt, its preferred hosts (empty list: none)
   */
  public synchronized void stageSubmitted(
      int stageId, int attempt, List<List<String>> preferredHosts) {
    if (!stopped && conf.gated()) {
      waves.submitted(new StageRef(stageId, attempt), preferredHosts);
    }
  }

  /**
   * Notes a task the driver launched (driver listener: task start). While a wave is gathered, the
   * coordinator plans as soon as every launched task of the stages with demand has registered or
   * ended; the host, when known, has one pending task fewer ({@link #stageSubmitted}).
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host; null if unknown
   */
  public synchronized void taskLaunched(int stageId, int attempt, long taskAttemptId, String host) {
    if (stopped || !conf.gated()) {
      return;
    }
    boolean registered = book.countOfTask(taskAttemptId) > 0;
    waves.launched(
        new StageRef(stageId, attempt), taskAttemptId, host, registered, clock.getAsLong());
  }

  /**
   * Like {@link #taskLaunched(int, int, long, String)} with the host unknown.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskLaunched(int stageId, int attempt, long taskAttemptId) {
    taskLaunched(stageId, attempt, taskAttemptId, null);
  }

  /**
   * Notes that a task ended, whatever the reason (driver listener): the gather window no longer
   * waits for it. Its demand, if any, is released by {@link #releaseTask} or its own report.
   *
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskEnded(long taskAttemptId) {
    event(
        () -> {
          if (waves.ended(taskAttemptId)) {
            closeGatherIfWaveRegistered();
          }
          return null;
        });
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
    return event(() -> awaitGrantLocked(m));
  }

  private CompletableFuture<GrantReply> awaitGrantLocked(AwaitGrant m) {
    Demand d = book.get(m.demandId());
    if (d == null || stopped) {
      return answered(GrantReply.Status.UNGATED);
    }
    applyReport(d, m);
    if (d.released) {
      return answered(GrantReply.Status.UNGATED);
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
      book.forget(d);
      if (book.countOfTask(d.taskAttemptId) == 0) {
        waves.fetched(d.stage, d.taskAttemptId, d.dst);
      }
      return answered(GrantReply.Status.FINISHED);
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
    parkedSinceSnapshot.add(d);
    CompletableFuture<GrantReply> f = d.waiter;
    if (!gather.isOpen()) {
      requestPlan();
    }
    return f;
  }

  private static CompletableFuture<GrantReply> answered(GrantReply.Status status) {
    return CompletableFuture.completedFuture(GrantReply.of(status));
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
      Demand d = book.get(demandId);
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
    event(
        () -> {
          Demand d = book.get(demandId);
          if (d != null) {
            releaseLocked(d, reason);
          }
          return null;
        });
  }

  /**
   * Drops every demand of a task attempt (driver listener: task end).
   *
   * @param taskAttemptId Spark's task attempt id
   * @param reason for the log and the capture
   */
  public void releaseTask(long taskAttemptId, String reason) {
    event(
        () -> {
          for (Demand d : book.ofTask(taskAttemptId)) {
            releaseLocked(d, reason);
          }
          return null;
        });
  }

  /**
   * Drops every demand of tasks that ran on a lost executor and re-plans.
   *
   * @param executorId the executor
   */
  public void executorLost(String executorId) {
    event(
        () -> {
          for (Demand d : book.ofExecutor(executorId)) {
            releaseLocked(d, "executor-lost");
          }
          return null;
        });
  }

  /**
   * A stage attempt completed: drops what is left of its demand and publishes its final matrix.
   *
   * @param stageId Spark's stage id
   * @param attempt stage attempt number
   */
  public void stageCompleted(int stageId, int attempt) {
    if (conf.betaAuto() || conf.platformAuto()) {
      // the auto values are adopted from the estimate under the lock: compute it before taking it
      measuring.estimate();
    }
    event(
        () -> {
          stageCompletedLocked(new StageRef(stageId, attempt));
          return null;
        });
  }

  private void stageCompletedLocked(StageRef ref) {
    waves.stageDone(ref);
    gate.forget(ref);
    for (Demand d : book.ofStage(ref)) {
      releaseLocked(d, "stage-done");
    }
    publishUnarrived(ref);
    adoptMeasured();
    StageSummary s = stages.complete(ref, clock.getAsLong());
    if (s != null) {
      CoordinatorLog.stageDone(s);
      listeners.fire(l -> l.onStageDone(s));
    }
  }

  /**
   * Replaces the {@code auto} values later plans use by the measured ones, called when a stage ends
   * (later shuffles plan with them), each switch logged in one INFO line naming the old and the new
   * value. With {@code beta=auto}: the measured β, at least {@link
   * WanShuffleConf#AUTO_BETA_FLOOR_SECONDS}, once the measurement holds {@link
   * WanShuffleConf#AUTO_MIN_FLOWS} flows and some gated flow. With {@code k=auto} or {@code auto}
   * rates ({@link WanShuffleConf#platformAuto()}) on the KPBS platform of the rate keys (not with a
   * topology file): k, the base speed and δ of the measured rates ({@link MeasuredPlatform}) once
   * it holds {@link WanShuffleConf#AUTO_MIN_FLOWS} flows, applied when no flow is open and no plan
   * is being computed (else at a later stage's end). A value is switched only when k changes or β
   * or the base speed moves by more than {@link #AUTO_SWITCH_CHANGE} of the value in use, so that
   * the measurement's stage-to-stage noise neither re-plans nor logs.
   */
  private void adoptMeasured() {
    if (!conf.betaAuto() && !conf.platformAuto()) {
      return;
    }
    NetworkEstimate e = measuring.estimate();
    if (e.flows() < WanShuffleConf.AUTO_MIN_FLOWS) {
      return;
    }
    if (conf.betaAuto() && e.hasBeta()) {
      double measured = Math.max(0, e.betaSeconds());
      double planned = Math.max(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS, measured);
      if (movedBeyond(betaSeconds, planned)) {
        CoordinatorLog.autoBeta(betaSeconds, planned, measured, e.flows());
        betaSeconds = planned;
        steps.betaSeconds(planned);
      }
    }
    if (conf.platformAuto()
        && conf.get(Settings.TOPOLOGY_FILE).isEmpty()
        && leases.total() == 0
        && !planning.isPlanning()) {
      MeasuredPlatform.of(e, conf)
          .ifPresent(
              p -> {
                LinkModel old = leases.links();
                if (p.k() != old.k() || movedBeyond(old.baseSpeed(), p.baseSpeed())) {
                  CoordinatorLog.autoPlatform(old.k(), old.baseSpeed(), p, e.flows());
                  leases.relink(p.links(conf, clusterOf));
                  standing = null;
                }
              });
    }
  }

  /**
   * Least relative change of a measured β or base speed against the value in use that switches it
   * ({@link #adoptMeasured}).
   */
  static final double AUTO_SWITCH_CHANGE = 0.10;

  /**
   * @param inUse the value plans use
   * @param measured the measured value
   * @return true when {@code measured} differs from {@code inUse} by more than {@link
   *     #AUTO_SWITCH_CHANGE} of {@code inUse} (any difference when {@code inUse} is 0)
   */
  static boolean movedBeyond(double inUse, double measured) {
    if (inUse == 0) {
      return measured != 0;
    }
    return Math.abs(measured - inUse) > AUTO_SWITCH_CHANGE * Math.abs(inUse);
  }

  /**
   * @return the listener that measures the realised flows (its meter takes synthetic flows in
   *     tests)
   */
  MeasuringListener measuring() {
    return measuring;
  }

  /**
   * @return β later plans use, seconds: the configured β, or with {@code beta=auto} the measured
   *     one once known
   */
  public double betaSeconds() {
    return betaSeconds;
  }

  /**
   * Records a cross-cluster fetch that ran without gating (algorithm none or fallback).
   *
   * @param r the report
   */
  public void ungatedRealised(UngatedReport r) {
    event(
        () -> {
          ungatedRealisedLocked(r);
          return null;
        });
  }

  private void ungatedRealisedLocked(UngatedReport r) {
    long now = clock.getAsLong();
    RegisterDemand m = r.demand();
    StageRef stage = new StageRef(m.stageId(), m.stageAttempt());
    // a task that went ungated without learning its demand id (its registration timed out on the
    // executor but reached the driver): that demand is an orphan no poll will collect; release it
    // and do not count its registered bytes twice
    boolean orphan = r.demandId() == 0 && releaseOrphans(m, stage);
    boolean unregistered = r.demandId() == 0 && !orphan;
    stages.ungated(r, unregistered, now);
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
      listeners.fire(l -> l.onDemandRegistered(ev));
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
    listeners.fire(l -> l.onTransferRealised(rec));
  }

  /**
   * @return true when demands of the reporting task's read (same stage attempt and shuffle) were
   *     released
   */
  private boolean releaseOrphans(RegisterDemand m, StageRef stage) {
    boolean any = false;
    for (Demand d : book.ofTask(m.taskAttemptId())) {
      if (d.stage.equals(stage) && d.shuffleId == m.shuffleId()) {
        LOG.info(
            "wan-shuffle demand {} of task {}: the task fetched ungated without learning the"
                + " demand's id (its registration timed out on the executor); released",
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
    TransferRecord rec = steps.arrived(m.demandId(), m.stepId(), m.endMs(), m.reportedMs());
    if (rec != null) {
      listeners.fire(l -> l.onTransferRealised(rec));
    }
  }

  /**
   * Publishes the transfers reported ahead whose arrival never came, with their report time as
   * their end.
   *
   * @param stage the stage, or null for every stage
   */
  private void publishUnarrived(StageRef stage) {
    for (TransferRecord r : steps.drainArriving(stage)) {
      LOG.debug(
          "wan-shuffle step {} of task {}: no arrival reported; recorded with its report time as"
              + " its end",
          r.stepId(),
          r.taskAttemptId());
      listeners.fire(l -> l.onTransferRealised(r));
    }
  }

  /** Stops: every parked task is told to fetch ungated; listeners get {@code onCoordinatorStop}. */
  public synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    planning.stop();
    publishUnarrived(null);
    waves.clear();
    gather.close();
    steps.cancelDeadlines();
    for (Demand d : book.all()) {
      if (d.waiter != null) {
        d.waiter.complete(GrantReply.of(GrantReply.Status.UNGATED));
      }
    }
    listeners.fire(CoordinatorListener::onCoordinatorStop);
    timer.shutdown();
    if (planner != null) {
      planner.close();
    }
  }

  /**
   * @return flows open now (granted and not yet reported), for tests and metrics
   */
  public synchronized int openFlowCount() {
    return leases.total();
  }

  /**
   * @return demands registered and not yet finished or released
   */
  public synchronized int pendingDemandCount() {
    return book.size();
  }

  /**
   * Waits until a plan that ran over the planning budget has ended (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no such plan is running
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitLatePlan(long timeoutMs) throws InterruptedException {
    return planner == null || planner.awaitLateRun(timeoutMs);
  }

  // ---------------------------------------------------------------------------------------------

  private void gatherElapsed() {
    event(
        () -> {
          gather.elapsed();
          requestPlan();
          return null;
        });
  }

  private void closeGatherIfWaveRegistered() {
    // without the driver listener no launch is known for a stage: then the window decides
    if (gather.isOpen() && waves.waveRegistered(book.stages())) {
      gather.close();
      requestPlan();
    }
  }

  private void deadlineReached(long stepId) {
    event(
        () -> {
          deadlineReachedLocked(stepId);
          return null;
        });
  }

  private void deadlineReachedLocked(long stepId) {
    for (Long id : steps.outstanding(stepId)) {
      Demand d = book.get(id);
      // a grant no poll has collected by now is not being fetched: take its flows back
      if (d != null && d.grant != null && d.grant.stepId() == stepId && !d.grantDelivered) {
        LOG.warn(
            "wan-shuffle task {} did not collect its grant of step {} before the deadline; its"
                + " flows are taken back and its demand waits for its next poll",
            d.taskAttemptId,
            stepId);
        d.idle = true; // out of planning until it polls again, like an idle poll
        endGrant(d);
      }
    }
    if (steps.runningIds().contains(stepId)) {
      LOG.warn(
          "wan-shuffle step {} passed its deadline with {} receiver(s) still fetching; their"
              + " flows stay counted until they report",
          stepId,
          steps.outstanding(stepId).size());
      stepDone(steps.finish(stepId), true);
    }
  }

  private void applyReport(Demand d, AwaitGrant m) {
    if (m.doneStepId() == 0) {
      return;
    }
    if (d.grant == null || d.grant.stepId() != m.doneStepId()) {
      LOG.debug("ignoring stale report of step {} for demand {}", m.doneStepId(), d.id);
      return;
    }
    TransferRecord rec = steps.report(d, m, clock.getAsLong(), stages.get(d.stage));
    if (rec != null) {
      listeners.fire(l -> l.onTransferRealised(rec));
    }
    endGrant(d);
  }

  /** Closes the grant of {@code d}: frees its flows, ends its step if it was the last receiver. */
  private void endGrant(Demand d) {
    StepEvent ended = steps.endGrant(d);
    if (ended != null) {
      stepDone(ended, false);
    }
    // flows closed: with pipelined steps their ports are re-planned at once; with barriers only
    // when no step is running (a laggard past its deadline)
    requestPlan();
  }

  private void stepDone(StepEvent event, boolean deadlinePassed) {
    long now = clock.getAsLong();
    listeners.fire(l -> l.onStepDone(event, now, deadlinePassed));
    requestPlan();
  }

  private void releaseLocked(Demand d, String reason) {
    if (d.released) {
      return;
    }
    d.released = true;
    long unrealised = d.remainingTotal();
    book.forget(d);
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
    listeners.fire(l -> l.onDemandReleased(d.id, d.taskAttemptId, unrealised, reason));
    if (d.grant != null) {
      endGrant(d);
    } else {
      requestPlan();
    }
  }

  /** Asks for a plan (under the lock); the planner takes it up once the lock is released. */
  private void requestPlan() {
    if (stopped || !conf.gated() || !mode.mayPlan(steps)) {
      return;
    }
    planning.request();
    changedSinceStanding = true;
  }

  /**
   * Runs {@code body} under the lock, then grants from the standing plan when the planner is busy
   * ({@link #grantFromStandingPlan}); after the lock, completes the replies that granted and hands
   * a requested plan to the planner.
   */
  private <T> T event(Supplier<T> body) {
    List<Runnable> replies = new ArrayList<>();
    T out;
    synchronized (this) {
      out = body.get();
      grantFromStandingPlan(replies);
    }
    for (Runnable r : replies) {
      r.run();
    }
    planning.kick();
    return out;
  }

  /**
   * Pipelined steps, when the planner is busy: the ports freed since the last plan take the last
   * plan's next transfers (list scheduling of the last plan, {@link StandingPlan}) instead of
   * waiting for the plan being computed, once that wait would pass {@code planning.replanWait}: at
   * once when the last round took longer, else when the round being planned reaches it (a timer; a
   * round that ends sooner grants the freed ports itself). While the planner rests between rounds
   * ({@code planning.share}) the last plan serves at once, and an event it has nothing for while a
   * backbone side has room (or with no last plan) ends the rest. The re-plan that follows covers
   * the whole residual demand again. A plan on the free ports only (barrier steps) never does.
   */
  private void grantFromStandingPlan(List<Runnable> replies) {
    if (!changedSinceStanding || stopped) {
      return;
    }
    if (planning.isResting()) {
      // the next round waits for the planner's rest (planning.share): the last plan serves now,
      // and an event it has nothing for while a backbone side has room ends the rest
      if (standing == null) {
        planning.wake();
        return;
      }
      changedSinceStanding = false;
      if (!grantStep(standing, clock.getAsLong(), System.nanoTime(), replies)
          && !standing.full(leases)) {
        planning.wake();
      }
      return;
    }
    if (standing == null || !planning.isBusy()) {
      return;
    }
    long waitMs = conf.get(Settings.REPLAN_WAIT);
    if (planning.lastRoundMs() < waitMs) {
      long planned = planning.planningForMs();
      if (planned < 0) {
        return; // the next round's snapshot is about to read the freed ports
      }
      if (planned < waitMs) {
        if (standingTimer == null) {
          standingTimer =
              timer.schedule(
                  () ->
                      event(
                          () -> {
                            standingTimer = null;
                            return null;
                          }),
                  waitMs - planned);
        }
        return;
      }
    }
    changedSinceStanding = false;
    grantStep(standing, clock.getAsLong(), System.nanoTime(), replies);
  }

  /** Re-plans when the oldest kept flow's bound ends, so that no flow is kept longer. */
  private void scheduleKeepEnd(long now) {
    if (keepTimer != null) {
      return;
    }
    keepTimer =
        timer.schedule(
            () ->
                event(
                    () -> {
                      keepTimer = null;
                      requestPlan();
                      return null;
                    }),
            Math.max(1, keeping.nextExpiryMs(now) - now));
  }

  /**
   * What a round plans on, read under the lock.
   *
   * @param residual the residual demand
   * @param expected what the tasks still to launch are expected to fetch
   * @param freshStages per stage attempt with unreleased demand not predicted yet, its whole
   *     traffic ({@link TaskWaves#stageTraffic}): predicted without the lock, recorded and decided
   *     on by the plan's apply
   */
  private record RoundInput(
      DemandMatrix.Snapshot residual,
      PendingTasks.Estimate expected,
      Map<StageRef, List<PlannedFlow>> freshStages) {}

  /**
   * A round's plan, computed without the lock.
   *
   * @param plan the planner's answer
   * @param standing its transfers in the order free ports take them, with the instance
   * @param predictions the fresh stages' transfer phases predicted with the network measured so far
   *     ({@link TransferPrediction#ofStage})
   */
  private record RoundPlan(
      Planner.Plan plan,
      StandingPlan standing,
      Map<StageRef, TransferPrediction.Prediction> predictions) {}

  /**
   * The planner's rounds: read the residual demand (under the lock), build its matrix, plan it and
   * rank its transfers (without the lock), grant a step from the plan (under the lock).
   */
  private final class Rounds implements PlanningLoop.Round<RoundInput, RoundPlan> {
    @Override
    public RoundInput snapshot(long startedNanos) {
      for (Demand d; (d = parkedSinceSnapshot.poll()) != null; ) {
        if (d.waiter != null && d.firstPlanNanos == 0) {
          d.firstPlanNanos = startedNanos; // the first plan that could have granted this poll
        }
      }
      if (stopped || !conf.gated() || !mode.mayPlan(steps)) {
        return null;
      }
      gather.close();
      if (!mode.hasCapacity(leases)) {
        return null;
      }
      DemandMatrix.Snapshot residual = DemandMatrix.snapshot(book.all(), leases, mode, betaSeconds);
      if (residual == null) {
        return null;
      }
      Map<StageRef, List<PlannedFlow>> fresh = new LinkedHashMap<>();
      for (Demand d : book.all()) {
        if (!d.released && !gate.predicted(d.stage) && !fresh.containsKey(d.stage)) {
          fresh.put(d.stage, waves.stageTraffic(d.stage, book.ofStage(d.stage)));
        }
      }
      return new RoundInput(residual, waves.estimate(), fresh);
    }

    @Override
    public RoundPlan plan(RoundInput in) {
      Map<StageRef, TransferPrediction.Prediction> predictions = new LinkedHashMap<>();
      if (!in.freshStages().isEmpty()) {
        NetworkEstimate est = measuring.estimate();
        in.freshStages()
            .forEach(
                (st, flows) ->
                    predictions.put(
                        st, TransferPrediction.ofStage(flows, est, leases.links(), betaSeconds)));
      }
      DemandMatrix m =
          DemandMatrix.of(in.residual(), leases, mode, betaSeconds, leases.links().baseSpeed());
      Planner.Plan plan = planner.plan(m);
      List<Step> toGrant = mode.stepsToGrant(plan.schedule());
      StandingPlan sp =
          new StandingPlan(
              m,
              mode.order(toGrant, m, in.expected()),
              in.expected(),
              nextPlanId.getAndIncrement(),
              plan.algorithm(),
              leases);
      return new RoundPlan(plan, sp, predictions);
    }

    @Override
    public void apply(RoundInput in, RoundPlan out, long startedNanos, List<Runnable> replies) {
      long now = clock.getAsLong();
      StandingPlan sp = out.standing();
      DemandMatrix m = sp.matrix();
      Planner.Plan plan = out.plan();
      PlanEvent pe =
          new PlanEvent(
              sp.planId(),
              now,
              plan.algorithm(),
              List.of(m.senders()),
              List.of(m.receivers()),
              m.residualBytes(),
              m.baseSpeed(),
              m.platform(),
              plan.schedule(),
              plan.nanos());
      listeners.fire(l -> l.onPlanComputed(pe));
      if (ungateStagesThatDoNotPay(out.predictions())) {
        // the plan holds their demands: plan again without them
        standing = null;
        requestPlan();
        return;
      }
      if (!grantStep(sp, now, startedNanos, replies) && leases.total() == 0) {
        // nothing could be granted and no flow will end to trigger the next plan: never stall
        StandingPlan last =
            new StandingPlan(
                m,
                mode.order(m.largestTransferOnly().steps(), m, in.expected()),
                in.expected(),
                sp.planId(),
                sp.algorithm(),
                leases);
        grantStep(last, now, startedNanos, replies);
      }
      standing = mode.planFitsFreePorts() ? null : sp;
      changedSinceStanding = false;
    }
  }

  /**
   * Records the predictions of the stages planned for the first time ({@link #recordPredictions})
   * and, when stages are decided on ({@link StageGate}), releases the demands of a stage where
   * gating does not pay (their tasks fetch at once).
   *
   * @param predictions the round's predictions of the stages fresh when it read the residual
   * @return true when a stage was ungated
   */
  private boolean ungateStagesThatDoNotPay(
      Map<StageRef, TransferPrediction.Prediction> predictions) {
    Map<StageRef, TransferPrediction.Prediction> fresh = recordPredictions(predictions);
    if (!gate.enabled() || fresh.isEmpty()) {
      return false;
    }
    boolean ungated = false;
    for (Map.Entry<StageRef, TransferPrediction.Prediction> e : fresh.entrySet()) {
      StageRef st = e.getKey();
      TransferPrediction.Prediction p = e.getValue();
      StageGate.Decision dec = gate.decide(st, p.scheduledSeconds(), p.defaultSeconds());
      LOG.info("wan-shuffle stage {}.{} {}", st.stageId(), st.attempt(), dec.reason());
      listeners.fire(
          l ->
              l.onStageGated(
                  st, dec.gated(), dec.scheduledSeconds(), dec.defaultSeconds(), dec.reason()));
      if (!dec.gated()) {
        ungated = true;
        for (Demand d : new ArrayList<>(book.ofStage(st))) {
          releaseLocked(d, "stage-ungated");
        }
      }
    }
    return ungated;
  }

  /**
   * Records, once per stage attempt, the transfer phase predicted on its whole traffic when it was
   * first planned; listeners get {@code onStagePredicted}.
   *
   * @param predictions a round's predictions
   * @return those of stage attempts not predicted before, with unreleased demand
   */
  private Map<StageRef, TransferPrediction.Prediction> recordPredictions(
      Map<StageRef, TransferPrediction.Prediction> predictions) {
    Map<StageRef, TransferPrediction.Prediction> fresh = new LinkedHashMap<>();
    for (Map.Entry<StageRef, TransferPrediction.Prediction> e : predictions.entrySet()) {
      StageRef st = e.getKey();
      TransferPrediction.Prediction p = e.getValue();
      if (book.ofStage(st).stream().anyMatch(d -> !d.released) && gate.markPredicted(st)) {
        fresh.put(st, p);
        listeners.fire(l -> l.onStagePredicted(st, p.scheduledSeconds(), p.defaultSeconds()));
      }
    }
    return fresh;
  }

  /**
   * Assembles one step from a plan and grants it: the demands get their parts, the step is tracked
   * and published, and its log line and the answers to the parked polls of its receivers go to
   * {@code replies} (run after the lock is released).
   *
   * @param plan the plan's transfers in the order free ports take them
   * @return false when no transfer could be granted
   */
  private boolean grantStep(
      StandingPlan plan, long now, long startedNanos, List<Runnable> replies) {
    long planId = plan.planId();
    String algorithm = plan.algorithm();
    StepAssembler.Assembly a =
        assembler.assemble(plan, () -> book.notIn(plan.matrix()), steps.openPairs(), now);
    CoordinatorLog.decisions(a, algorithm);
    if (a.kept()) {
      scheduleKeepEnd(now);
    }
    if (a.isEmpty()) {
      return false;
    }
    long stepId = steps.nextStepId();
    Set<Long> outstanding = new LinkedHashSet<>();
    long[] tasks = new long[a.grants().size()];
    Set<StageRef> stagesOfStep = new HashSet<>();
    for (Map.Entry<Long, StepAssembler.DemandGrant> e : a.grants().entrySet()) {
      Demand d = book.get(e.getKey());
      d.grant = new Demand.Grant(stepId, e.getValue().srcIdx(), e.getValue().budgets());
      d.grantDelivered = false;
      tasks[outstanding.size()] = d.taskAttemptId;
      outstanding.add(d.id);
      stagesOfStep.add(d.stage);
    }
    stages.stepGranted(stagesOfStep);
    long deadlineMs = steps.deadlineMs(now, a.longestSeconds());
    StepEvent ev = new StepEvent(stepId, planId, a.flows(), tasks, now, deadlineMs);
    steps.start(ev, a.receiversPerPair(), outstanding, this::deadlineReached);
    int receivers = outstanding.size();
    int openFlows = leases.total();
    // the line is written once the lock is released, with the figures of the grant
    replies.add(() -> CoordinatorLog.stepGranted(ev, algorithm, receivers, openFlows));
    listeners.fire(l -> l.onStepGranted(ev));
    for (Long id : outstanding) {
      Demand d = book.get(id);
      if (d.waiter != null) {
        // completed after the lock is released; a poll that expires first gets the grant from
        // d.grant on its next call
        CompletableFuture<GrantReply> w = d.waiter;
        d.waiter = null;
        d.grantDelivered = true;
        // the time it waited for ports, from the first plan after its poll to this one: not part
        // of the executor's hand-over loop
        long held = d.firstPlanNanos == 0 ? 0 : (startedNanos - d.firstPlanNanos) / 1_000_000;
        GrantReply reply = d.grant.reply(d).withHeldMs(held);
        replies.add(() -> w.complete(reply));
      }
    }
    return true;
  }

  @Override
  public synchronized String toString() {
    return "StepCoordinator["
        + conf.get(Settings.ALGORITHM)
        + ", demands="
        + book.size()
        + ", open flows="
        + leases.total()
        + ", steps="
        + steps.runningIds()
        + ", stages="
        + stages
        + "]";
  }
}
