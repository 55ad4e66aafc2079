package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on the answer to a step report when it arrives, on a step-opener thread of the executor's
 * {@link ReaderContext}: a grant's blocks are taken and its fetch opened there, while the task
 * thread may still be blocked reading the reported step's last block or busy with its records (the
 * task's next flow would otherwise start only after that, which with one task per receiving
 * executor is the case at nearly every hand-over of a receiver's port). The opened step is posted
 * to the task thread ({@link ReaderEvent.StepOpened}), which reads it after the reported one.
 *
 * <p>A grant is not opened, and is posted as it came ({@link ReaderEvent.GrantAnswered}), when the
 * reader's {@link OpenerGate} is closed (ungated, task ended) or nothing is left to take. It is
 * handed back at once with an idle poll ({@link ReaderEvent.GrantHandedBack}) when the task is too
 * far behind ({@link OpenerGate#roomFor}): a grant it would start only when it gets here would hold
 * its ports meanwhile. The report of a paced step cut for a sibling reader is marked idle, and its
 * answer is posted without opening (the coordinator takes back any grant to an idle reader).
 *
 * <p>The decision, the opening and the post happen under the gate's lock, so the answers to one
 * reader's reports reach its queue in report order.
 */
final class StepOpener implements StepRun.Answers {
  private static final Logger LOG = LoggerFactory.getLogger(StepOpener.class);

  private final OpenerGate gate;
  private final CoordinatorConversation conversation;
  private final StepTaker taker;
  private final ReaderContext executor;
  private final boolean predictedHandover;
  private final long taskAttemptId;

  /**
   * @param gate the reader's gate
   * @param conversation the reader's conversation (the queue the answers go to)
   * @param taker takes a grant's blocks
   * @param executor the executor's context (opener threads, predictor)
   * @param predictedHandover whether hand-over loops are measured for the predictor
   * @param taskAttemptId the reader's task, for the log
   */
  StepOpener(
      OpenerGate gate,
      CoordinatorConversation conversation,
      StepTaker taker,
      ReaderContext executor,
      boolean predictedHandover,
      long taskAttemptId) {
    this.gate = gate;
    this.conversation = conversation;
    this.taker = taker;
    this.executor = executor;
    this.predictedHandover = predictedHandover;
    this.taskAttemptId = taskAttemptId;
  }

  /**
   * Routes the answer to a step report: opened on a step-opener thread when it arrives, or (idle
   * report, or the executor's context closed) posted as it came.
   */
  @Override
  public void reported(
      StepRun reported, long call, CompletableFuture<GrantReply> reply, boolean idle) {
    if (idle) {
      reply.whenComplete((g, t) -> conversation.post(CoordinatorConversation.answerOf(call, g, t)));
      return;
    }
    reply.whenComplete(
        (g, t) -> {
          if (!executor.execute(() -> open(reported, call, g, t))) {
            conversation.post(CoordinatorConversation.answerOf(call, g, t));
          }
        });
  }

  /**
   * Decides, opens and posts under the gate's lock (a step-opener thread).
   *
   * @param reported the step whose report {@code g} answers
   * @param call the report's number
   * @param g the answer; null when the call failed
   * @param failure the call's failure, or null
   */
  void open(StepRun reported, long call, GrantReply g, Throwable failure) {
    synchronized (gate) {
      conversation.post(decide(reported, call, g, failure));
    }
  }

  private ReaderEvent decide(StepRun reported, long call, GrantReply g, Throwable failure) {
    assert Thread.holdsLock(gate) : "a step-opener takes the reader's blocks under its gate's lock";
    if (failure != null || g.status() != GrantReply.Status.GRANT || gate.isClosed()) {
      return CoordinatorConversation.answerOf(call, g, failure);
    }
    if (!gate.roomFor(reported, g, taker.maxStepBytes())) {
      LOG.debug(
          "wan-shuffle: task {} hands back its grant of step {}: {}",
          taskAttemptId,
          g.stepId(),
          gate.describeHeld());
      conversation.handBack();
      return new ReaderEvent.GrantHandedBack(call);
    }
    StepRun s = taker.take(g, this);
    try {
      if (!s.openNextChunk()) {
        return new ReaderEvent.GrantAnswered(call, g); // nothing taken: the task thread ends it
      }
    } catch (RuntimeException e) {
      // the step's blocks were taken: the task must fail as it would have had it opened the step
      // itself, never carry on without them
      return new ReaderEvent.OpenFailed(call, e);
    }
    long sentMs = reported.report().sentMs();
    if (predictedHandover && sentMs > 0) {
      // the time the coordinator held the report for ports is not part of the loop
      executor.predictor().handOverLoop(System.currentTimeMillis() - sentMs - g.heldMs());
    }
    gate.openedAhead();
    return new ReaderEvent.StepOpened(call, s);
  }
}
