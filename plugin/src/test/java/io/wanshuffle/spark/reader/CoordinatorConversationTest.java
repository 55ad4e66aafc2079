package io.wanshuffle.spark.reader;

import static io.wanshuffle.spark.reader.ReaderFixtures.blocks;
import static io.wanshuffle.spark.reader.ReaderFixtures.demandOf;
import static io.wanshuffle.spark.reader.ReaderFixtures.grant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.reader.ReaderFixtures.ScriptedClient;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Numbered calls, their answers on one queue, and the answers the task thread drops. */
class CoordinatorConversationTest {
  private final ScriptedClient client = new ScriptedClient();
  private final CoordinatorConversation conversation =
      new CoordinatorConversation(client, demandOf(blocks("b1", "a1", 100)));

  @Test
  void theRegistrationsAnswerIsAwaitedAndItsRoundTripMeasured() {
    HandoverPredictor predictor = new HandoverPredictor();
    conversation.register(predictor);
    assertTrue(conversation.awaited() > 0);
    assertNull(conversation.takeAnswer(), "not answered yet");
    client.registrations.get(0).complete(new Registered(7, true));
    ReaderEvent e = conversation.takeAnswer();
    assertInstanceOf(ReaderEvent.RegistrationAnswered.class, e);
    assertEquals(0, conversation.awaited(), "taken: nothing awaited");
    assertTrue(predictor.coordinatorDelayMs() < Long.MAX_VALUE, "a round trip was recorded");
  }

  @Test
  void aFailedCallIsAnsweredWithItsUnwrappedCause() {
    conversation.register(null);
    IOException cause = new IOException("refused");
    client.registrations.get(0).completeExceptionally(new CompletionException(cause));
    ReaderEvent e = conversation.takeAnswer();
    assertSame(cause, ((ReaderEvent.CallFailed) e).cause());
  }

  @Test
  void pollsCarryTheDemandIdAndAReplacedPollsAnswerIsDropped() throws InterruptedException {
    conversation.registered(7);
    conversation.poll(false);
    conversation.poll(true);
    assertEquals(7, client.polls.get(0).demandId());
    assertFalse(client.polls.get(0).idle());
    assertTrue(client.polls.get(1).idle());
    client.replies.get(0).complete(grant(1, "a1", 100));
    assertFalse(conversation.awaitAnswer(50), "the replaced poll's answer is not awaited");
    client.replies.get(1).complete(GrantReply.of(GrantReply.Status.NOT_YET));
    assertTrue(conversation.awaitAnswer(1_000));
    ReaderEvent e = conversation.takeAnswer();
    assertEquals(GrantReply.Status.NOT_YET, ((ReaderEvent.GrantAnswered) e).reply().status());
  }

  @Test
  void aReportsAnswerIsAwaitedOnceTheTaskThreadExpectsIt() {
    conversation.registered(7);
    CoordinatorConversation.ReportCall c =
        conversation.report(io.wanshuffle.spark.coordinator.protocol.AwaitGrant.poll(7));
    conversation.post(new ReaderEvent.GrantHandedBack(c.call()));
    assertNull(conversation.takeAnswer(), "no answer awaited yet: the event stays queued");
    conversation.expect(c.call());
    assertInstanceOf(ReaderEvent.GrantHandedBack.class, conversation.takeAnswer());
  }

  private StepRun step(long id) {
    StepRun.Env env =
        new StepRun.Env(
            new ReaderFixtures.RecordingOpener(),
            blocks("b1", "a1", 100),
            new String[] {"a1"},
            conversation,
            new OpenerGate(),
            null,
            null,
            null,
            false,
            0);
    return new StepRun(env, id, 0, (r, call, reply, idle) -> {});
  }

  /** A step opened ahead is never replaced: its blocks are taken, so a mismatch is a bug. */
  @Test
  void aStepOpenedForACallNotAwaitedIsAnError() {
    conversation.registered(7);
    conversation.poll(false);
    conversation.post(new ReaderEvent.StepOpened(conversation.awaited() + 100, step(1)));
    assertThrows(IllegalStateException.class, conversation::takeAnswer);
  }

  @Test
  void drainingReturnsTheOpenedStepsInOrderAndEndsTheWait() {
    StepRun s1 = step(1);
    StepRun s2 = step(2);
    conversation.registered(7);
    conversation.poll(false);
    long call = conversation.awaited();
    conversation.post(new ReaderEvent.StepOpened(call, s1));
    conversation.post(new ReaderEvent.GrantAnswered(call, grant(3, "a1", 1)));
    conversation.post(new ReaderEvent.StepOpened(call + 1, s2));
    assertInstanceOf(ReaderEvent.StepOpened.class, conversation.peekAnswer());
    assertEquals(List.of(s1, s2), conversation.drainOpened());
    assertEquals(0, conversation.awaited());
    assertNull(conversation.takeAnswer());
  }

  @Test
  void aReleaseAfterTheTaskEndedWaitsForTheRegistrationAndOnlyForAGatedOne() {
    conversation.register(null);
    conversation.releaseWhenRegistered("task-end");
    assertTrue(client.released.isEmpty());
    client.registrations.get(0).complete(new Registered(9, true));
    assertEquals(9, client.released.get(0).demandId());

    ScriptedClient other = new ScriptedClient();
    CoordinatorConversation notGated =
        new CoordinatorConversation(other, demandOf(blocks("b1", "a1", 100)));
    notGated.register(null);
    notGated.releaseWhenRegistered("task-end");
    other.registrations.get(0).complete(new Registered(0, false));
    assertTrue(other.released.isEmpty());
  }

  @Test
  void answerOfMapsAReplyOrAFailure() {
    GrantReply g = grant(1, "a1", 1);
    assertSame(
        g, ((ReaderEvent.GrantAnswered) CoordinatorConversation.answerOf(4, g, null)).reply());
    Throwable cause = new IOException("x");
    ReaderEvent e =
        CoordinatorConversation.answerOf(4, null, new CompletionException("wrapped", cause));
    assertSame(cause, ((ReaderEvent.CallFailed) e).cause());
    assertEquals(4, e.call());
  }
}
