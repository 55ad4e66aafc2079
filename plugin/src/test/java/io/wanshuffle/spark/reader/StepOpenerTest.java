package io.wanshuffle.spark.reader;

import static io.wanshuffle.spark.reader.ReaderFixtures.blocks;
import static io.wanshuffle.spark.reader.ReaderFixtures.demandOf;
import static io.wanshuffle.spark.reader.ReaderFixtures.grant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.reader.ReaderFixtures.RecordingOpener;
import io.wanshuffle.spark.reader.ReaderFixtures.ScriptedClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the step-opener does with the answer to a step report, and what it posts. */
class StepOpenerTest {
  private final ReaderContext executor = new ReaderContext();
  private final ScriptedClient client = new ScriptedClient();
  private final RecordingOpener fetch = new RecordingOpener(250);
  private final CrossClusterBlocks blocks = blocks("b1", "a1", 100, "a2", 90, "a3", 80);
  private final CoordinatorConversation conversation =
      new CoordinatorConversation(client, demandOf(blocks));
  private final OpenerGate gate = new OpenerGate();
  private final StepRun.Env env =
      new StepRun.Env(
          fetch, blocks, blocks.hosts(), conversation, gate, executor, null, null, true, 0);
  private final StepTaker taker = new StepTaker(env, 0);
  private final StepOpener opener = new StepOpener(gate, conversation, taker, executor, true, 42);

  @AfterEach
  void close() {
    executor.close();
  }

  /** Routes an answer to a report of {@code reported} and returns what the task thread gets. */
  private ReaderEvent answer(StepRun reported, GrantReply g, boolean idle)
      throws InterruptedException {
    CompletableFuture<GrantReply> reply = new CompletableFuture<>();
    long call = 5;
    opener.reported(reported, call, reply, idle);
    reply.complete(g);
    conversation.expect(call);
    assertTrue(conversation.awaitAnswer(10_000), "no answer posted");
    return conversation.takeAnswer();
  }

  private StepRun reportedStep() {
    conversation.registered(7);
    StepRun s = taker.take(grant(1, "a1", 100), opener);
    s.openNextChunk();
    s.report().reportOnce(System.currentTimeMillis(), false);
    return s;
  }

  @Test
  void aGrantIsOpenedOnAStepOpenerThreadAndTheHandOverLoopMeasured() throws InterruptedException {
    StepRun reported = reportedStep();
    ReaderEvent e = answer(reported, grant(2, "a2", 90), false);
    StepRun opened = ((ReaderEvent.StepOpened) e).step();
    assertEquals(2, opened.stepId());
    assertEquals(List.of("a1", "a2"), fetch.opened, "its fetch is requested");
    assertTrue(
        executor.predictor().coordinatorDelayMs() < Long.MAX_VALUE, "a hand-over loop sample");
  }

  @Test
  void anAnswerWithoutAGrantOrToAClosedGateIsPostedAsItCame() throws InterruptedException {
    StepRun reported = reportedStep();
    GrantReply notYet = GrantReply.of(GrantReply.Status.NOT_YET);
    assertSame(notYet, ((ReaderEvent.GrantAnswered) answer(reported, notYet, false)).reply());
    gate.close();
    GrantReply g = grant(2, "a2", 90);
    assertSame(g, ((ReaderEvent.GrantAnswered) answer(reported, g, false)).reply());
    assertEquals(List.of("a1"), fetch.opened, "nothing opened once closed");
  }

  @Test
  void aGrantWithoutRoomIsHandedBackWithAnIdlePoll() throws InterruptedException {
    StepRun reported = reportedStep();
    StepRun other = taker.take(grant(9, "a2", 90), opener); // 190 B unread
    assertEquals(190, gate.heldBytes());
    int polls = client.polls.size();
    ReaderEvent e = answer(reported, grant(2, "a3", 80), false);
    assertInstanceOf(ReaderEvent.GrantHandedBack.class, e);
    assertEquals(polls + 1, client.polls.size());
    assertTrue(client.lastPoll().idle());
    assertEquals(7, client.lastPoll().demandId());
    assertEquals(1, other.chunks());
  }

  @Test
  void aStepThatFailsToOpenIsPostedWithItsError() throws InterruptedException {
    StepRun reported = reportedStep();
    IllegalStateException boom = new IllegalStateException("block manager stopped");
    fetch.failNextStep = boom;
    ReaderEvent e = answer(reported, grant(2, "a2", 90), false);
    assertSame(boom, ((ReaderEvent.OpenFailed) e).cause());
  }

  @Test
  void theAnswerToAnIdleReportIsNeverOpened() throws InterruptedException {
    StepRun reported = reportedStep();
    ReaderEvent e = answer(reported, grant(2, "a2", 90), true);
    assertInstanceOf(ReaderEvent.GrantAnswered.class, e);
    assertEquals(List.of("a1"), fetch.opened);
  }

  @Test
  void afterTheExecutorStopsTheAnswerIsPostedForTheTaskThread() throws InterruptedException {
    StepRun reported = reportedStep();
    executor.close();
    ReaderEvent e = answer(reported, grant(2, "a2", 90), false);
    assertInstanceOf(ReaderEvent.GrantAnswered.class, e);
  }

  @Test
  void aFailedReportIsPostedAsAFailure() throws InterruptedException {
    StepRun reported = reportedStep();
    CompletableFuture<GrantReply> reply = new CompletableFuture<>();
    opener.reported(reported, 6, reply, false);
    reply.completeExceptionally(new java.io.IOException("driver lost"));
    conversation.expect(6);
    assertTrue(conversation.awaitAnswer(10_000));
    assertInstanceOf(ReaderEvent.CallFailed.class, conversation.takeAnswer());
  }
}
