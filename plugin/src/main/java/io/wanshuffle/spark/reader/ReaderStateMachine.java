package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.TaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gated reader's state on the task thread: its {@link ReaderPhase}, the step it fetches, the
 * reported steps it still has to read, and the transitions driven by the answers that other threads
 * post ({@link ReaderEvent}, consumed one at a time by {@link #pump()}). {@link GatedBlockIterator}
 * reads the steps in order and waits when nothing is left to read.
 *
 * <p>The rules it keeps:
 *
 * <ul>
 *   <li>The demand is registered when the task first reads, not when the reader is created: a task
 *       that creates the readers of several shuffles and reads them one after the other
 *       (CoGroupedRDD) must not be granted flows for a shuffle it is not reading yet.
 *   <li>A reported step is read before anything else, while the next step's flow may already run;
 *       the answer to its report may be a step opened off the task thread ({@link StepOpener}).
 *   <li>Standing aside ({@link #standAside()}): when a sibling reader of the same task is about to
 *       wait for a grant, this reader tells the coordinator it is idle, so the coordinator takes
 *       back a grant it has not started and does not plan it until it is read again. A reader that
 *       fetches a step does not stand aside, except that a paced step is cut where the task left it
 *       (its unopened chunks go back), because it would otherwise hold its flows until the task
 *       came back. An answer to this reader's last report that has come is acted on first, as an
 *       idle reader's (an expired poll is followed by an idle one, a grant not opened goes back).
 *   <li>Any failure of a call, an {@code UNGATED} answer, a {@code FINISHED} answer with blocks
 *       left, or {@code spark.wanshuffle.grant.maxWait} passed ends in ungated fetching ({@link
 *       #goUngated}, with a warning naming why); the demand is released.
 * </ul>
 *
 * <p>Task thread only (siblings call {@link #standAside()} on the same thread), except that {@link
 * #onTaskEnd} runs where Spark runs task completion listeners.
 */
final class ReaderStateMachine implements TaskReaders.Reader {
  private static final Logger LOG = LoggerFactory.getLogger(ReaderStateMachine.class);

  private final TaskContext task;
  private final CrossClusterBlocks blocks;
  private final BlockOpener fetchers;
  private final WanShuffleConf conf;
  private final RegisterDemand demand;
  private final ReaderContext executor;
  private final CoordinatorConversation conversation;
  private final OpenerGate gate = new OpenerGate();
  private final StepTaker taker;
  private final StepOpener opener;

  /** Steps are reported ahead of their end, as predicted ({@link Settings#STEP_HANDOVER}). */
  private final boolean predictedHandover;

  private ReaderPhase phase = ReaderPhase.UNREGISTERED;

  /** The step being fetched: non-null exactly in phase {@code FETCHING}. */
  private StepRun step;

  /** Steps already reported, oldest first: read before anything else. */
  private final ArrayDeque<StepRun> toRead = new ArrayDeque<>();

  /** The ungated fetch: non-null exactly in phase {@code UNGATED} (and after, once done). */
  private UngatedFetch ungated;

  /**
   * @param task the task
   * @param fetchers opens the fetches
   * @param blocks the task's blocks, split by the topology
   * @param client the coordinator's client
   * @param conf wan-shuffle configuration
   * @param metrics the task's shuffle read metrics (pacing counts as fetch wait)
   * @param demand the cross-cluster demand to register
   * @param executor the executor's context
   */
  ReaderStateMachine(
      TaskContext task,
      BlockOpener fetchers,
      CrossClusterBlocks blocks,
      DemandClient client,
      WanShuffleConf conf,
      org.apache.spark.shuffle.ShuffleReadMetricsReporter metrics,
      RegisterDemand demand,
      ReaderContext executor) {
    this.task = task;
    this.blocks = blocks;
    this.fetchers = fetchers;
    this.conf = conf;
    this.demand = demand;
    this.executor = executor;
    this.conversation = new CoordinatorConversation(client, demand);
    this.predictedHandover = Settings.PREDICTED.equals(conf.get(Settings.STEP_HANDOVER));
    StepRun.Env env =
        new StepRun.Env(
            fetchers,
            blocks,
            demand.srcHosts(),
            conversation,
            gate,
            executor,
            task,
            metrics,
            predictedHandover,
            conf.get(Settings.FLOW_STALL_TIMEOUT).orElse(0L));
    this.taker = new StepTaker(env, conf.flowRateCap());
    this.opener =
        new StepOpener(
            gate, conversation, taker, executor, predictedHandover, demand.taskAttemptId());
  }

  /**
   * @return the current phase
   */
  ReaderPhase phase() {
    return phase;
  }

  private void moveTo(ReaderPhase next) {
    assert phase.canMoveTo(next) : phase + " -> " + next;
    phase = next;
  }

  /** The task reads this reader: registers on the first read, or stops standing aside. */
  void startReading() {
    if (phase == ReaderPhase.UNREGISTERED) {
      if (blocks.isEmpty()) {
        moveTo(ReaderPhase.DONE);
        return;
      }
      moveTo(ReaderPhase.REGISTERING);
      conversation.register(predictedHandover ? executor.predictor() : null);
      executor.readers().add(task, this);
    } else if (phase == ReaderPhase.STANDING_ASIDE) {
      // a poll without the idle mark replaces the idle one
      poll(false);
    }
  }

  /**
   * Handles the awaited answer if it has come, without blocking.
   *
   * @throws RuntimeException the error of a step that failed to open off the task thread
   */
  void pump() {
    ReaderEvent e = conversation.takeAnswer();
    if (e == null) {
      return;
    }
    if (e instanceof ReaderEvent.CallFailed f) {
      goUngated("coordinator call failed: " + f.cause());
    } else if (e instanceof ReaderEvent.OpenFailed f) {
      moveTo(ReaderPhase.DONE);
      throw f.cause();
    } else if (e instanceof ReaderEvent.StepOpened s) {
      gate.takenUp();
      step = s.step(); // granted and opened while the task read the previous step
      moveTo(ReaderPhase.FETCHING);
    } else if (e instanceof ReaderEvent.RegistrationAnswered r) {
      executor.gateThreshold().learn(r.reply());
      if (!r.reply().opensGatedDemand()) {
        if (r.reply().demandId() > 0) {
          // the coordinator registered the demand and released it at once (its stage is not
          // gated): the report names it, so its bytes count as registered once
          conversation.registered(r.reply().demandId());
          goUngated(
              "its stage is not gated (the coordinator's decision, logged on the driver)", false);
        } else {
          goUngated("the coordinator does not gate (stopping)");
        }
        return;
      }
      conversation.registered(r.reply().demandId());
      if (r.reply().firstPoll() != null) {
        onGrantReply(r.reply().firstPoll());
      } else {
        poll(phase == ReaderPhase.STANDING_ASIDE);
      }
    } else if (e instanceof ReaderEvent.GrantAnswered g) {
      onGrantReply(g.reply());
    } else if (e instanceof ReaderEvent.GrantHandedBack) {
      // a poll asked now would have its grant opened on this thread beyond the in-flight limit, or
      // held unopened by a task that stalls right after this read: ask once the task caught up
      moveTo(ReaderPhase.HANDED_BACK);
    }
  }

  /** Acts on the coordinator's answer to a poll, a report or the registration (its first poll). */
  private void onGrantReply(GrantReply g) {
    boolean idle = phase == ReaderPhase.STANDING_ASIDE;
    switch (g.status()) {
      case GRANT -> {
        if (idle) {
          poll(true); // the coordinator takes the grant back on the idle poll
        } else {
          startStep(g);
        }
      }
      case NOT_YET -> poll(idle);
      case FINISHED -> {
        if (!blocks.isEmpty()) {
          goUngated("the coordinator considers the demand complete but blocks are left");
        } else {
          moveTo(ReaderPhase.DONE);
        }
      }
      case UNGATED -> goUngated("the coordinator released the demand");
      default -> throw new IllegalStateException("unknown grant status " + g.status());
    }
  }

  private void poll(boolean idle) {
    conversation.poll(idle);
    moveTo(idle ? ReaderPhase.STANDING_ASIDE : ReaderPhase.WAITING);
  }

  private void startStep(GrantReply g) {
    step = taker.take(g, opener);
    moveTo(ReaderPhase.FETCHING);
    if (!step.openNextChunk()) {
      finishStep();
    }
  }

  /**
   * Once the current step is reported (its bytes are here, or due soon), queues it to be read after
   * the steps reported before it and awaits the answer to its report.
   *
   * @return true if the current step was queued
   */
  boolean queueReportedStep() {
    if (phase != ReaderPhase.FETCHING) {
      return false;
    }
    long call = step.report().call();
    if (call == 0) {
      return false;
    }
    toRead.addLast(step);
    step = null;
    conversation.expect(call);
    moveTo(ReaderPhase.REPORTED);
    return true;
  }

  /**
   * The task read the current step to its end: reports it (unless reported) and awaits the answer.
   */
  void finishStep() {
    StepRun s = step;
    step = null;
    conversation.expect(s.report().reportOnce(System.currentTimeMillis(), false));
    moveTo(ReaderPhase.REPORTED);
    s.readAll();
  }

  /** A grant was handed back: once at most the step being read is left, polls again. */
  void pollIfCaughtUp() {
    if (phase == ReaderPhase.HANDED_BACK && toRead.size() <= 1) {
      poll(false);
    }
  }

  /**
   * @return the oldest reported step still to read, or null
   */
  StepRun firstReported() {
    return toRead.peekFirst();
  }

  /** The task read the oldest reported step to its end. */
  void readReported() {
    toRead.removeFirst().readAll();
  }

  /**
   * @return the step being fetched, or null
   */
  StepRun currentStep() {
    return step;
  }

  /**
   * @return the ungated fetch, or null
   */
  UngatedFetch ungated() {
    return ungated;
  }

  /** The task read the ungated fetch to its end: its bytes are reported for the capture. */
  void finishUngated() {
    UngatedReport r = ungated.finish(demand, conversation.demandId());
    if (r != null) {
      conversation.ungatedRealised(r);
    }
  }

  /**
   * @return whether no cross-cluster block is left to ask for and no answer is awaited that may
   *     bring one
   */
  boolean nothingLeft() {
    // the phase first: while a report is answered, a step-opener may be taking blocks
    return phase != ReaderPhase.REPORTED && blocks.isEmpty();
  }

  /**
   * @return whether an answer is awaited
   */
  boolean awaitingAnswer() {
    boolean awaiting = conversation.awaited() != 0;
    assert awaiting == phase.awaitsAnswer() : phase + (awaiting ? " awaits" : " awaits nothing");
    return awaiting;
  }

  /**
   * Waits up to {@code ms} for the awaited answer.
   *
   * @param ms longest wait, ms
   * @throws InterruptedException if the task thread is interrupted
   */
  void awaitAnswer(long ms) throws InterruptedException {
    conversation.awaitAnswer(ms);
  }

  /**
   * @return whether the awaited answer has come (or none is awaited)
   */
  boolean answerArrived() {
    return conversation.awaited() == 0 || conversation.peekAnswer() != null;
  }

  @Override
  public void standAside() {
    if (phase != ReaderPhase.UNGATED) {
      takeUpReply();
    }
    if (phase == ReaderPhase.FETCHING
        && conf.flowRateCap() > 0
        && step.paced()
        && step.report().call() == 0) {
      cutPacedStep();
      return;
    }
    if (phase == ReaderPhase.FETCHING
        || phase == ReaderPhase.REPORTED
        || phase == ReaderPhase.UNGATED
        || blocks.isEmpty()) {
      return;
    }
    switch (phase) {
      case STANDING_ASIDE -> pump();
      case REGISTERING -> {
        if (conversation.peekAnswer() != null) {
          moveTo(ReaderPhase.STANDING_ASIDE); // the registration: an idle poll follows it
          pump();
        }
      }
      case UNREGISTERED -> {}
      default -> poll(true);
    }
  }

  /**
   * Acts on the answer to this reader's last report when it has come, for a sibling about to wait:
   * a step opened on its grant is taken up (so that a paced one can be cut); a grant not opened or
   * an expired long-poll is handled as an idle reader's, so the coordinator hears from this demand
   * again (a grant that reached no poll would hold its flows until the step's deadline).
   */
  private void takeUpReply() {
    queueReportedStep(); // as the task thread's next read would: the step stays first to read
    ReaderEvent answer = phase == ReaderPhase.REPORTED ? conversation.peekAnswer() : null;
    if (answer == null) {
      return;
    }
    if (answer instanceof ReaderEvent.GrantAnswered g
        && (g.reply().status() == GrantReply.Status.GRANT
            || g.reply().status() == GrantReply.Status.NOT_YET)) {
      moveTo(
          ReaderPhase.STANDING_ASIDE); // a grant goes back, a NOT_YET is followed by an idle poll
    }
    pump();
  }

  /**
   * Ends the current paced step where the task left it, for a sibling about to wait: the blocks of
   * the chunks not opened go back for a later grant, the step is reported at once with what it
   * opened, marked idle, and the task reads the opened chunks when it comes back.
   */
  private void cutPacedStep() {
    StepRun s = step;
    gate.unhold(s);
    long[] back = s.giveBackUnopened();
    if (!s.isEmpty()) {
      gate.hold(s);
    }
    s.remaining(blocks.remainingBytes());
    LOG.debug(
        "wan-shuffle: task {} reads another shuffle; its paced step {} ends at the chunks opened,"
            + " {} B go back for a later grant",
        demand.taskAttemptId(),
        s.stepId(),
        Arrays.stream(back).sum());
    step = null;
    toRead.addLast(s);
    moveTo(ReaderPhase.STANDING_ASIDE);
    conversation.expect(s.report().reportOnce(System.currentTimeMillis(), true));
  }

  /**
   * Falls back to fetching the remaining cross-cluster blocks without gating: the steps whose
   * blocks were taken are read first, the demand is released, and a warning says why.
   *
   * @param reason why, for the warning
   */
  void goUngated(String reason) {
    goUngated(reason, true);
  }

  /**
   * @param reason why, for the log
   * @param warn true: a fall-back, warned; false: the coordinator's decision for the stage (logged
   *     once on the driver), the released demand is not released again and the task logs at debug
   */
  private void goUngated(String reason, boolean warn) {
    if (phase == ReaderPhase.UNGATED) {
      return;
    }
    synchronized (gate) {
      gate.close();
      if (step != null) {
        toRead.addLast(step);
        step = null;
      }
      toRead.addAll(conversation.drainOpened());
    }
    moveTo(ReaderPhase.UNGATED);
    String line =
        "wan-shuffle: task {} (stage {}.{}, shuffle {}) fetches its remaining cross-cluster "
            + "blocks without gating: {}";
    Object[] args = {
      demand.taskAttemptId(), demand.stageId(), demand.stageAttempt(), demand.shuffleId(), reason
    };
    if (warn) {
      LOG.warn(line, args);
    } else {
      LOG.debug(line, args);
    }
    if (warn && conversation.demandId() > 0) {
      conversation.release("ungated");
    }
    ungated = UngatedFetch.start(blocks, fetchers);
  }

  /**
   * The task ended (completed, failed or killed): no step is opened any more, timers are cancelled,
   * and a demand not complete is released (once registered, if the registration is still out).
   *
   * @param ctx the task
   */
  void onTaskEnd(TaskContext ctx) {
    executor.readers().remove(ctx);
    List<StepRun> unread;
    synchronized (gate) {
      gate.close();
      unread = conversation.drainOpened();
    }
    if (step != null) {
      step.report().cancelTimer();
    }
    unread.forEach(s -> s.report().cancelTimer());
    String reason =
        ctx.isInterrupted() ? "task-killed" : ctx.isFailed() ? "task-failed" : "task-end";
    if (conversation.demandId() > 0
        && phase != ReaderPhase.UNGATED
        && (step != null || !unread.isEmpty() || !blocks.isEmpty())) {
      conversation.release(reason);
    } else if (phase == ReaderPhase.REGISTERING && !blocks.isEmpty()) {
      conversation.releaseWhenRegistered(reason);
    }
    moveTo(ReaderPhase.DONE);
  }
}
