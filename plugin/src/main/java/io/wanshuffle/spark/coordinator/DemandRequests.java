package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.DemandPhase;
import io.wanshuffle.spark.coordinator.demand.GatherWindow;
import io.wanshuffle.spark.coordinator.demand.StageAccount;
import io.wanshuffle.spark.coordinator.demand.StageGate;
import io.wanshuffle.spark.coordinator.demand.TaskWaves;
import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * What the reduce tasks and the driver's listener ask of a demand, driven through its life cycle
 * ({@link Demand}, {@link DemandPhase}): registration, long-polls and their expiry, releases, the
 * reports of ungated fetches and the end of a stage. The first role of the coordinator's data path:
 * it records, parks and answers; planning is asked for, never run, here.
 *
 * <p>Rules it keeps:
 *
 * <ul>
 *   <li>When idle, the first registration opens the {@link GatherWindow} so a wave of tasks is
 *       planned together; the window closes early once the wave registered.
 *   <li>A poll marked idle ({@link AwaitGrant#idle()}: the task reads another shuffle) takes back
 *       the demand's unstarted grant and keeps it out of planning until a poll without the mark.
 *   <li>Algorithm {@code none}: a poll is answered at once with a grant of everything.
 *   <li>Unknown or released demands are answered {@link GrantReply.Status#UNGATED}, so a task that
 *       lost its coordinator state never waits; so are the registrations of a stage decided not to
 *       gate ({@link StageGate}).
 * </ul>
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
final class DemandRequests {
  private static final Logger LOG = CoordinatorLogger.LOG;

  private final Roles r;
  private final BooleanSupplier idle;
  private final Runnable replan;

  /**
   * Demands that parked a long-poll since the last round's snapshot: the next round is the first
   * plan that could grant it ({@link #planStarted}).
   */
  private final ArrayDeque<Demand> parkedSinceSnapshot = new ArrayDeque<>();

  /**
   * @param roles the coordinator's roles
   * @param idle whether nothing runs and no plan is being computed: a registration then opens the
   *     gather window
   * @param replan asks for a plan (under the lock)
   */
  DemandRequests(Roles roles, BooleanSupplier idle, Runnable replan) {
    this.r = roles;
    this.idle = idle;
    this.replan = replan;
  }

  /**
   * Registers a reduce task attempt's cross-cluster demand.
   *
   * @param m the demand (bytes per source host)
   * @return its id and whether the task must wait for grants, with the base speed and the host's δ
   *     in force
   */
  Registered register(RegisterDemand m) {
    long now = r.clock().getAsLong();
    Demand d = r.book().add(m);
    r.stages().registered(d, now);
    r.waves().registered(d, r.book().countOfTask(d.taskAttemptId()) == 1, now);
    DemandEvent ev =
        new DemandEvent(
            d.id(),
            d.stage(),
            d.shuffleId(),
            d.taskAttemptId(),
            d.executorId(),
            d.dst(),
            List.of(d.src()),
            d.registered().clone(),
            now);
    r.listeners().fire(l -> l.onDemandRegistered(ev));
    if (r.gate().ungated(d.stage())) {
      // decided at the stage's first plan: its reads fetch at once, as Spark does
      release(d, "stage-ungated");
      return withLinks(new Registered(d.id(), false), d.dst());
    }
    if (r.conf().gated() && !r.gather().isOpen()) {
      if (idle.getAsBoolean()) {
        // a wave of tasks starts: gather it so that it is planned together
        r.gather().open(this::gatherElapsed);
      } else if (r.mode().plansOnEveryRegistration()) {
        replan.run();
      }
    }
    closeGatherIfWaveRegistered();
    return withLinks(new Registered(d.id(), r.conf().gated()), d.dst());
  }

  /**
   * @return {@code reg} carrying the base speed and the host's δ the coordinator plans with now,
   *     for the executor's {@code gate.minBytes=auto} threshold
   */
  private Registered withLinks(Registered reg, String host) {
    LinkModel links = r.parameters().current().links();
    return reg.withLinks(links.baseSpeed(), links.receivePorts(host));
  }

  /**
   * A task's read has no cross-cluster blocks: a wave being gathered no longer waits for it, no
   * free flow is kept for its host ({@link TaskWaves#noDemand}).
   *
   * @param stage the task's stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host
   */
  void noCrossClusterDemand(StageRef stage, long taskAttemptId, String host) {
    boolean hasDemand = r.book().countOfTask(taskAttemptId) > 0;
    if (r.waves().noDemand(stage, taskAttemptId, host, hasDemand, r.clock().getAsLong())
        && !r.gather().isOpen()) {
      replan.run(); // the flow kept for this host's task is free for another demand
    }
    closeGatherIfWaveRegistered();
  }

  /**
   * A task ended, whatever the reason: the gather window no longer waits for it.
   *
   * @param taskAttemptId Spark's task attempt id
   */
  void taskEnded(long taskAttemptId) {
    if (r.waves().ended(taskAttemptId)) {
      closeGatherIfWaveRegistered();
    }
  }

  /**
   * Processes a task's report of its finished step (if any) and returns its next grant: a completed
   * future when the answer is known now, else the parked long-poll, completed when a step grants
   * the demand.
   *
   * @param m the poll
   * @return the reply, now or later
   */
  CompletableFuture<GrantReply> awaitGrant(AwaitGrant m) {
    Demand d = r.book().get(m.demandId());
    if (d == null) {
      return answered(GrantReply.Status.UNGATED);
    }
    r.grants().applyReport(d, m);
    if (d.released()) {
      return answered(GrantReply.Status.UNGATED);
    }
    boolean idlePoll = m.idle() && r.conf().gated();
    if (idlePoll && d.grant() != null) {
      // the task ignores any grant it has not started once it says idle: take the flows back
      LOG.debug(
          "wan-shuffle demand {} of task {} is idle; step {} grant taken back unused",
          d.id(),
          d.taskAttemptId(),
          d.grant().stepId());
      r.grants().endGrant(d);
    }
    d.markIdle(idlePoll);
    if (d.grant() != null) {
      return CompletableFuture.completedFuture(d.collect());
    }
    if (d.remainingTotal() == 0) {
      r.book().forget(d);
      d.finish();
      if (r.book().countOfTask(d.taskAttemptId()) == 0) {
        r.waves().fetched(d.stage(), d.taskAttemptId(), d.dst());
      }
      return answered(GrantReply.Status.FINISHED);
    }
    if (!r.conf().gated()) {
      return CompletableFuture.completedFuture(d.grantAll());
    }
    CompletableFuture<GrantReply> poll = new CompletableFuture<>();
    CompletableFuture<GrantReply> replaced = d.park(poll, r.clock().getAsLong());
    if (replaced != null) {
      replaced.complete(GrantReply.of(GrantReply.Status.NOT_YET));
    }
    parkedSinceSnapshot.add(d);
    if (!r.gather().isOpen()) {
      replan.run();
    }
    return poll;
  }

  private static CompletableFuture<GrantReply> answered(GrantReply.Status status) {
    return CompletableFuture.completedFuture(GrantReply.of(status));
  }

  /**
   * A parked long-poll expired and was answered "not yet" (not a grant): it is no longer parked,
   * or, when a grant meant for it lost the race, that grant counts as not collected.
   *
   * @param demandId the demand
   * @param poll the expired poll
   */
  void pollExpired(long demandId, CompletableFuture<GrantReply> poll) {
    Demand d = r.book().get(demandId);
    if (d != null && !d.unpark(poll)) {
      d.uncollected(); // the grant meant for this poll did not reach it
    }
  }

  /**
   * Drops a demand (its task ended, failed or was killed before finishing, its executor was lost,
   * its stage completed or was decided not to gate): frees its flows, forgets its residual demand
   * and re-plans; its parked poll is answered "ungated".
   *
   * @param d the demand; a released one is ignored
   * @param reason for the log and the capture
   */
  void release(Demand d, String reason) {
    if (!d.release()) {
      return;
    }
    long unrealised = d.remainingTotal();
    r.book().forget(d);
    CompletableFuture<GrantReply> w = d.takeWaiter();
    if (w != null) {
      w.complete(GrantReply.of(GrantReply.Status.UNGATED));
    }
    LOG.debug(
        "wan-shuffle demand {} of task {} released ({}), {} bytes unrealised",
        d.id(),
        d.taskAttemptId(),
        reason,
        unrealised);
    r.listeners().fire(l -> l.onDemandReleased(d.id(), d.taskAttemptId(), unrealised, reason));
    if (d.grant() != null) {
      r.grants().endGrant(d);
    } else {
      replan.run();
    }
  }

  /**
   * Releases each demand of a list.
   *
   * @param demands the demands (a copy of the book's)
   * @param reason for the log and the capture
   */
  void releaseAll(List<Demand> demands, String reason) {
    for (Demand d : demands) {
      release(d, reason);
    }
  }

  /**
   * Records a cross-cluster fetch that ran without gating (algorithm none, fallback, an ungated
   * stage): its bytes count as realised; a task that went ungated without learning its demand's id
   * (its registration timed out on the executor but reached the driver) leaves an orphan demand no
   * poll will collect, which is released, its registered bytes counted once.
   *
   * @param rep the report
   */
  void ungatedRealised(UngatedReport rep) {
    long now = r.clock().getAsLong();
    RegisterDemand m = rep.demand();
    StageRef stage = new StageRef(m.stageId(), m.stageAttempt());
    boolean orphan = rep.demandId() == 0 && releaseOrphans(m, stage);
    boolean unregistered = rep.demandId() == 0 && !orphan;
    r.stages().ungated(rep, unregistered, now);
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
      r.listeners().fire(l -> l.onDemandRegistered(ev));
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
            rep.startMs(),
            rep.endMs(),
            rep.endMs());
    r.listeners().fire(l -> l.onTransferRealised(rec));
  }

  /**
   * @return true when demands of the reporting task's read (same stage attempt and shuffle) were
   *     released
   */
  private boolean releaseOrphans(RegisterDemand m, StageRef stage) {
    boolean any = false;
    for (Demand d : r.book().ofTask(m.taskAttemptId())) {
      if (d.stage().equals(stage) && d.shuffleId() == m.shuffleId()) {
        LOG.info(
            "wan-shuffle demand {} of task {}: the task fetched ungated without learning the"
                + " demand's id (its registration timed out on the executor); released",
            d.id(),
            d.taskAttemptId());
        release(d, "ungated");
        any = true;
      }
    }
    return any;
  }

  /**
   * A stage attempt completed: what is left of its demand is dropped, its transfers still to arrive
   * published; then {@code beforeSummary} runs and its final matrix is published.
   *
   * @param stage the stage attempt
   * @param beforeSummary run before the stage's summary (the measured values are adopted there)
   */
  void stageCompleted(StageRef stage, Runnable beforeSummary) {
    r.waves().stageDone(stage);
    r.gate().forget(stage);
    r.waits().forget(stage);
    releaseAll(r.book().ofStage(stage), "stage-done");
    r.grants().publishUnarrived(stage);
    beforeSummary.run();
    StageSummary s = r.stages().complete(stage, r.clock().getAsLong());
    if (s != null) {
      logStageDone(s);
      r.listeners().fire(l -> l.onStageDone(s));
    }
  }

  /**
   * Notes the start of a planning round: the polls parked since the last one are first planned now.
   *
   * @param startedNanos the round's start, {@code System.nanoTime()}
   */
  void planStarted(long startedNanos) {
    for (Demand d; (d = parkedSinceSnapshot.poll()) != null; ) {
      d.planStarted(startedNanos);
    }
  }

  /** Stops: every parked task is told to fetch ungated. */
  void stop() {
    for (Demand d : r.book().all()) {
      CompletableFuture<GrantReply> w = d.takeWaiter();
      if (w != null) {
        w.complete(GrantReply.of(GrantReply.Status.UNGATED));
      }
    }
  }

  private void gatherElapsed() {
    r.gather().elapsed();
    replan.run();
  }

  /**
   * Closes the gather window once every launched task of the stages with demand registered or
   * ended; without the driver listener no launch is known for a stage, and the window decides.
   */
  void closeGatherIfWaveRegistered() {
    if (r.gather().isOpen() && r.waves().waveRegistered(r.book().stages())) {
      r.gather().close();
      replan.run();
    }
  }

  /**
   * @param s a completed stage's summary
   */
  private static void logStageDone(StageSummary s) {
    if (LOG.isInfoEnabled()) {
      LOG.info(
          "wan-shuffle stage {} done: {} B across clusters in {} step(s), shuffles {}; "
              + "cross-cluster traffic matrix:{}",
          s.stage(),
          StageAccount.realisedTotal(s),
          s.steps(),
          Arrays.toString(s.shuffleIds()),
          StageAccount.matrixLines(s));
    }
  }
}
