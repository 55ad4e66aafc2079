package io.wanshuffle.spark.coordinator.track;

import io.wanshuffle.spark.coordinator.assemble.StandingPlan;
import io.wanshuffle.spark.coordinator.assemble.StepAssembler;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.DemandBook;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.StageLedger;
import io.wanshuffle.spark.coordinator.demand.StageWaits;
import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.Listeners;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Grants steps and takes them back: a step assembled from a plan ({@link StepAssembler}) gives each
 * receiving demand its part, starts in the {@link StepTracker} with its deadline, is logged and
 * published, and answers the parked long-polls of its receivers; a receiver's report, an idle poll,
 * a release or a passed deadline ends a demand's grant, frees its flows and asks for a plan. The
 * grant role of the coordinator's data path, between the step assembler and the step tracker.
 *
 * <p>Rules it keeps: a grant that no poll of its task collected when its step's deadline passes is
 * taken back and the demand stands aside, out of planning, until the task polls again; a collected
 * grant is never taken back; a step past its deadline ends, and receivers still fetching keep their
 * flows counted until they report.
 *
 * <p>Not thread-safe: used under the coordinator's lock; its timer's actions run under it too.
 */
public final class StepGrants {
  private static final Logger LOG = CoordinatorLogger.LOG;

  private final DemandBook book;
  private final StepTracker steps;
  private final FlowLeases leases;
  private final StageLedger stages;
  private final StepAssembler assembler;
  private final FlowKeeping keeping;
  private final Listeners listeners;
  private final CoordinatorTimer timer;
  private final LongSupplier clock;
  private final Runnable replan;
  private final StageWaits waits;

  /** Set while a re-plan waits for the oldest kept flow's bound to end. */
  private CoordinatorTimer.Cancellable keepTimer;

  /**
   * @param book the registered demands
   * @param steps the running steps
   * @param leases the open flows
   * @param stages the stages' accounts
   * @param assembler turns a plan into one step
   * @param keeping the receivers free flows are kept for
   * @param listeners told of every grant, report and step end
   * @param timer the coordinator's timer, whose actions run under the coordinator's lock
   * @param clock epoch ms
   * @param replan asks for a plan (under the lock)
   * @param waits told whether each granted demand waited for ports
   */
  public StepGrants(
      DemandBook book,
      StepTracker steps,
      FlowLeases leases,
      StageLedger stages,
      StepAssembler assembler,
      FlowKeeping keeping,
      Listeners listeners,
      CoordinatorTimer timer,
      LongSupplier clock,
      Runnable replan,
      StageWaits waits) {
    this.book = book;
    this.steps = steps;
    this.leases = leases;
    this.stages = stages;
    this.assembler = assembler;
    this.keeping = keeping;
    this.listeners = listeners;
    this.timer = timer;
    this.clock = clock;
    this.replan = replan;
    this.waits = waits;
  }

  /**
   * Assembles one step from a plan and grants it: the demands get their parts, the step is tracked
   * and published, and its log line and the answers to the parked polls of its receivers go to
   * {@code replies} (run after the lock is released).
   *
   * @param plan the plan's transfers in the order free ports take them
   * @param now epoch ms
   * @param startedNanos when the round that grants started, {@code System.nanoTime()}
   * @param replies where the answers to send after the lock go
   * @return false when no transfer could be granted
   */
  public boolean grantStep(StandingPlan plan, long now, long startedNanos, List<Runnable> replies) {
    String algorithm = plan.algorithm();
    StepAssembler.Assembly a =
        assembler.assemble(
            plan,
            () -> book.notIn(plan.matrix().unplannedIds(), plan.matrix().readUpTo()),
            steps.openPairs(),
            now);
    GrantLog.decisions(a, algorithm);
    if (a.kept()) {
      scheduleKeepEnd(now);
    }
    if (a.isEmpty()) {
      return false;
    }
    long stepId = steps.nextStepId();
    int logLineAt = replies.size();
    Set<Long> outstanding = new LinkedHashSet<>();
    long[] tasks = new long[a.grants().size()];
    Set<StageRef> stagesOfStep = new HashSet<>();
    for (Map.Entry<Long, StepAssembler.DemandGrant> e : a.grants().entrySet()) {
      Demand d = book.get(e.getKey());
      waits.granted(d.stage(), d.waitedMs(now) >= StageWaits.WAITED_MS, now);
      CompletableFuture<GrantReply> w = d.takeWaiter();
      d.grant(new Demand.Grant(stepId, e.getValue().srcIdx(), e.getValue().budgets()), w != null);
      if (w != null) {
        // completed after the lock is released; the time it waited for ports, from the first plan
        // after its poll to this one, is not part of the executor's hand-over loop
        GrantReply reply = d.grant().reply(d).withHeldMs(d.heldMs(startedNanos));
        replies.add(() -> w.complete(reply));
      }
      tasks[outstanding.size()] = d.taskAttemptId();
      outstanding.add(d.id());
      stagesOfStep.add(d.stage());
    }
    stages.stepGranted(stagesOfStep);
    long deadlineMs = steps.deadlineMs(now, a.longestSeconds());
    StepEvent ev = new StepEvent(stepId, plan.planId(), a.flows(), tasks, now, deadlineMs);
    steps.start(ev, a.receiversPerPair(), outstanding, this::deadlineReached);
    int receivers = outstanding.size();
    int openFlows = leases.total();
    // the line is written once the lock is released, before the answers, with the grant's figures
    replies.add(logLineAt, () -> GrantLog.stepGranted(ev, algorithm, receivers, openFlows));
    listeners.fire(l -> l.onStepGranted(ev));
    return true;
  }

  /**
   * Applies a poll's report of its finished step, if it reports the grant the demand holds: the
   * realised transfer is recorded (or waits for its arrival when reported ahead) and the grant
   * ends. A report of a stalled step ({@link AwaitGrant#stalledMs()}) is logged once, at WARN. A
   * report of another step is stale and ignored.
   *
   * @param d the polling demand
   * @param m the poll
   */
  public void applyReport(Demand d, AwaitGrant m) {
    if (m.doneStepId() == 0) {
      return;
    }
    if (d.grant() == null || d.grant().stepId() != m.doneStepId()) {
      LOG.debug("ignoring stale report of step {} for demand {}", m.doneStepId(), d.id());
      return;
    }
    if (m.stalledMs() > 0) {
      LOG.warn(
          "wan-shuffle task {}: its flows of step {} to {} made no progress for {} ms; reported"
              + " stalled, their ports are re-planned now (its blocks still arrive, or fail, through"
              + " Spark's fetch)",
          d.taskAttemptId(),
          m.doneStepId(),
          d.dst(),
          m.stalledMs());
    }
    TransferRecord rec = steps.report(d, m, clock.getAsLong(), stages.get(d.stage()));
    if (rec != null) {
      listeners.fire(l -> l.onTransferRealised(rec));
    }
    endGrant(d);
  }

  /**
   * Closes the grant of {@code d}: frees its flows, ends its step if it was the last receiver, and
   * asks for a plan (pipelined steps re-plan the freed ports at once; barrier steps only when no
   * step is running).
   *
   * @param d a demand
   */
  public void endGrant(Demand d) {
    StepEvent ended = steps.endGrant(d);
    if (ended != null) {
      stepDone(ended, false);
    }
    replan.run();
  }

  /**
   * Records the end of a step that was reported ahead of it (predicted hand-over, or a stall): its
   * realised transfer goes to the listeners with its arrival time; a stalled flow's arrival (its
   * recovery) is logged once, at INFO. Unknown or already recorded steps are ignored.
   *
   * @param m the arrival
   */
  public void flowArrived(FlowArrived m) {
    TransferRecord rec =
        steps.arrived(m.demandId(), m.stepId(), m.endMs(), m.reportedMs(), m.stalledMs());
    if (rec != null && rec.stalled()) {
      LOG.info(
          "wan-shuffle task {}: its flows of step {} to {}, which went {} ms without progress,"
              + " arrived {} ms after their ports were handed on",
          rec.taskAttemptId(),
          rec.stepId(),
          rec.dstHost(),
          rec.stalledMs(),
          rec.endMs() - rec.handedOnMs());
    }
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
  public void publishUnarrived(StageRef stage) {
    for (TransferRecord r : steps.drainArriving(stage)) {
      LOG.debug(
          "wan-shuffle step {} of task {}: no arrival reported; recorded with its report time as"
              + " its end",
          r.stepId(),
          r.taskAttemptId());
      listeners.fire(l -> l.onTransferRealised(r));
    }
  }

  /** Stops: the transfers still to arrive are published, the deadlines cancelled. */
  public void stop() {
    publishUnarrived(null);
    steps.cancelDeadlines();
  }

  private void stepDone(StepEvent event, boolean deadlinePassed) {
    long now = clock.getAsLong();
    listeners.fire(l -> l.onStepDone(event, now, deadlinePassed));
    replan.run();
  }

  private void deadlineReached(long stepId) {
    for (Long id : steps.outstanding(stepId)) {
      Demand d = book.get(id);
      // a grant no poll has collected by now is not being fetched: take its flows back
      if (d != null && d.grantUncollected() && d.grant().stepId() == stepId) {
        LOG.warn(
            "wan-shuffle task {} did not collect its grant of step {} before the deadline; its"
                + " flows are taken back and its demand waits for its next poll",
            d.taskAttemptId(),
            stepId);
        endGrant(d);
        d.markIdle(true); // out of planning until it polls again, like an idle poll
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

  /** Re-plans when the oldest kept flow's bound ends, so that no flow is kept longer. */
  private void scheduleKeepEnd(long now) {
    if (keepTimer != null) {
      return;
    }
    keepTimer =
        timer.schedule(
            () -> {
              keepTimer = null;
              replan.run();
            },
            Math.max(1, keeping.nextExpiryMs(now) - now));
  }
}
