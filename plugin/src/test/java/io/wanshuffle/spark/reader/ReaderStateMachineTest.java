package io.wanshuffle.spark.reader;

import static io.wanshuffle.spark.reader.ReaderFixtures.blocks;
import static io.wanshuffle.spark.reader.ReaderFixtures.conf;
import static io.wanshuffle.spark.reader.ReaderFixtures.demandOf;
import static io.wanshuffle.spark.reader.ReaderFixtures.grant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.reader.ReaderFixtures.RecordingOpener;
import io.wanshuffle.spark.reader.ReaderFixtures.ScriptedClient;
import java.util.List;
import org.apache.spark.TaskContext$;
import org.apache.spark.TaskContextImpl;
import org.apache.spark.executor.TempShuffleReadMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import scala.Option;

/**
 * The reader's transitions from phase to phase, driven one answer at a time by a scripted
 * coordinator client.
 */
class ReaderStateMachineTest {
  private final TaskContextImpl task = TaskContext$.MODULE$.empty();
  private final ReaderContext executor = new ReaderContext();
  private final ScriptedClient client = new ScriptedClient();
  private final WanShuffleConf arrival = conf(Settings.STEP_HANDOVER.key(), "arrival");

  @AfterEach
  void close() {
    executor.close();
  }

  private ReaderStateMachine machine(CrossClusterBlocks b, BlockOpener fetch, WanShuffleConf conf) {
    return new ReaderStateMachine(
        task, fetch, b, client, conf, new TempShuffleReadMetrics(), demandOf(b), executor);
  }

  /** Registered (demand 7) and waiting on its first poll. */
  private ReaderStateMachine waiting(CrossClusterBlocks b, BlockOpener fetch, WanShuffleConf conf) {
    ReaderStateMachine m = machine(b, fetch, conf);
    m.startReading();
    client.registrations.get(0).complete(new Registered(7, true));
    m.pump();
    assertEquals(ReaderPhase.WAITING, m.phase());
    return m;
  }

  /** Pumps until the machine leaves {@code phase} (answers posted by the step-opener thread). */
  private static void pumpWhile(ReaderStateMachine m, ReaderPhase phase)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (m.phase() == phase) {
      assertTrue(System.currentTimeMillis() < deadline, "still " + phase);
      m.awaitAnswer(100);
      m.pump();
    }
  }

  @Test
  void registersOnTheFirstReadThenPolls() {
    CrossClusterBlocks b = blocks("b1", "a1", 100);
    ReaderStateMachine m = machine(b, new RecordingOpener(), arrival);
    assertEquals(ReaderPhase.UNREGISTERED, m.phase());
    assertTrue(client.registrations.isEmpty(), "no registration before the first read");

    m.startReading();
    assertEquals(ReaderPhase.REGISTERING, m.phase());
    assertEquals(1, client.registrations.size());
    assertEquals(1, executor.readers().tasks(), "the task's readers know it");
    m.pump();
    assertEquals(ReaderPhase.REGISTERING, m.phase(), "nothing answered yet");

    client.registrations.get(0).complete(new Registered(7, true));
    m.pump();
    assertEquals(ReaderPhase.WAITING, m.phase());
    assertEquals(7, client.lastPoll().demandId());
    assertFalse(client.lastPoll().idle());
    assertEquals(0, client.lastPoll().doneStepId());
  }

  @Test
  void aReaderWithoutCrossClusterBlocksIsDoneAtItsFirstRead() {
    ReaderStateMachine m = machine(blocks("b1", "b2", 10), new RecordingOpener(), arrival);
    m.startReading();
    assertEquals(ReaderPhase.DONE, m.phase());
    assertTrue(client.registrations.isEmpty());
    assertTrue(m.nothingLeft());
  }

  @Test
  void aNotYetIsFollowedByAnotherPoll() {
    ReaderStateMachine m = waiting(blocks("b1", "a1", 100), new RecordingOpener(), arrival);
    client.answer(GrantReply.of(GrantReply.Status.NOT_YET));
    m.pump();
    assertEquals(ReaderPhase.WAITING, m.phase());
    assertEquals(2, client.polls.size());
  }

  /**
   * A grant with the registration starts the step on the task thread; its bytes' arrival reports it
   * (a network thread); the task thread then awaits the answer, and FINISHED ends the reader.
   */
  @Test
  void aStepIsFetchedReportedOnArrivalAndTheAnswerAwaited() throws InterruptedException {
    RecordingOpener fetch = new RecordingOpener();
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50);
    ReaderStateMachine m = machine(b, fetch, arrival);
    m.startReading();
    client
        .registrations
        .get(0)
        .complete(new Registered(7, true).withFirstPoll(grant(1, "a1", 150), 0));
    m.pump();
    assertEquals(ReaderPhase.FETCHING, m.phase());
    assertEquals(List.of("a1 a1"), fetch.opened);
    assertFalse(m.queueReportedStep(), "not reported before its bytes arrive");

    fetch.arrivals.get(0).run();
    assertEquals(1, client.lastPoll().doneStepId());
    assertArrayEquals(new long[] {150}, client.lastPoll().fetchedBytes());
    StepRun step = m.currentStep();
    assertTrue(m.queueReportedStep());
    assertEquals(ReaderPhase.REPORTED, m.phase());
    assertSame(step, m.firstReported(), "read before anything else");
    assertFalse(m.nothingLeft(), "the answer may bring a step");

    client.answer(GrantReply.of(GrantReply.Status.FINISHED));
    pumpWhile(m, ReaderPhase.REPORTED);
    assertEquals(ReaderPhase.DONE, m.phase());
    assertEquals(1, client.polls.size(), "one report, no poll after FINISHED");
  }

  /**
   * The grant that answers a report is opened on a step-opener thread and taken up by the task
   * thread from the queue.
   */
  @Test
  void theGrantAnsweringAReportIsOpenedOffTheTaskThreadAndTakenUp() throws InterruptedException {
    RecordingOpener fetch = new RecordingOpener();
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 70);
    ReaderStateMachine m = waiting(b, fetch, arrival);
    client.answer(grant(1, "a1", 100));
    m.pump();
    fetch.arrivals.get(0).run();
    assertTrue(m.queueReportedStep());
    client.answer(grant(2, "a2", 70));
    ReaderFixtures.await("step 2 opened", () -> fetch.opened.contains("a2"));
    pumpWhile(m, ReaderPhase.REPORTED);
    assertEquals(ReaderPhase.FETCHING, m.phase());
    assertEquals(2, m.currentStep().stepId());
  }

  /**
   * Standing aside replaces the poll with an idle one; read again, a normal poll replaces that, and
   * the answers to the replaced polls are dropped.
   */
  @Test
  void standingAsideAndReadingAgainReplaceThePollAndDropTheOldAnswers() {
    RecordingOpener fetch = new RecordingOpener();
    ReaderStateMachine m = waiting(blocks("b1", "a1", 100), fetch, arrival);
    m.standAside();
    assertEquals(ReaderPhase.STANDING_ASIDE, m.phase());
    assertTrue(client.lastPoll().idle());

    m.startReading();
    assertEquals(ReaderPhase.WAITING, m.phase());
    assertFalse(client.lastPoll().idle());
    assertEquals(3, client.polls.size());

    client.replies.get(0).complete(grant(1, "a1", 100)); // the first poll, replaced
    client.replies.get(1).complete(grant(1, "a1", 100)); // the idle poll, replaced
    m.pump();
    assertEquals(ReaderPhase.WAITING, m.phase(), "answers to replaced calls are dropped");
    assertTrue(fetch.opened.isEmpty());
    client.answer(grant(1, "a1", 100));
    m.pump();
    assertEquals(ReaderPhase.FETCHING, m.phase());
  }

  @Test
  void aGrantWhileStandingAsideGoesBackWithAnotherIdlePoll() {
    RecordingOpener fetch = new RecordingOpener();
    ReaderStateMachine m = waiting(blocks("b1", "a1", 100), fetch, arrival);
    m.standAside();
    client.answer(grant(1, "a1", 100));
    m.standAside(); // the sibling still waits: the answer is acted on as an idle reader's
    assertEquals(ReaderPhase.STANDING_ASIDE, m.phase());
    assertEquals(3, client.polls.size());
    assertTrue(client.lastPoll().idle());
    assertTrue(fetch.opened.isEmpty(), "nothing fetched for the shuffle not being read");
  }

  @ParameterizedTest
  @EnumSource(
      value = GrantReply.Status.class,
      names = {"UNGATED", "FINISHED"})
  void anUngatedAnswerOrFinishedWithBlocksLeftFallsBackToUngatedFetching(GrantReply.Status s) {
    RecordingOpener fetch = new RecordingOpener();
    ReaderStateMachine m = waiting(blocks("b1", "a1", 100, "a2", 70), fetch, arrival);
    client.answer(GrantReply.of(s));
    m.pump();
    assertEquals(ReaderPhase.UNGATED, m.phase());
    assertEquals(List.of("a1 a2"), fetch.opened, "every block left, in one fetch");
    assertEquals(1, client.released.size());
    assertEquals("ungated", client.released.get(0).reason());
    assertNotNull(m.ungated());
    assertFalse(m.awaitingAnswer());

    m.finishUngated();
    assertEquals(1, client.reports.size(), "the ungated bytes are reported once");
    assertArrayEquals(new long[] {100, 70}, client.reports.get(0).demand().bytes());
    m.finishUngated();
    assertEquals(1, client.reports.size());
  }

  @Test
  void aFailedRegistrationFallsBackWithoutARelease() {
    RecordingOpener fetch = new RecordingOpener();
    ReaderStateMachine m = machine(blocks("b1", "a1", 100), fetch, arrival);
    m.startReading();
    client.registrations.get(0).completeExceptionally(new java.io.IOException("refused"));
    m.pump();
    assertEquals(ReaderPhase.UNGATED, m.phase());
    assertTrue(client.released.isEmpty(), "nothing registered, nothing to release");
  }

  /**
   * A task too far behind hands the grant back at once; it polls again once at most the step it
   * reads is left.
   */
  @Test
  void aGrantWithoutRoomIsHandedBackAndThePollWaitsUntilTheTaskCaughtUp()
      throws InterruptedException {
    RecordingOpener fetch = new RecordingOpener(250);
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 90, "a3", 80);
    ReaderStateMachine m = waiting(b, fetch, arrival);
    client.answer(grant(1, "a1", 100));
    m.pump();
    fetch.arrivals.get(0).run(); // step 1 reported
    client.answer(grant(2, "a2", 90)); // room: nothing but step 1 to read
    ReaderFixtures.await("step 2 opened", () -> fetch.arrivals.size() == 2);
    fetch.arrivals.get(1).run(); // step 2 reported before the task took it up
    int polls = client.polls.size();
    client.answer(grant(3, "a3", 80)); // 190 B unread + 80 B > 250 B
    ReaderFixtures.await("grant 3 handed back", () -> client.polls.size() == polls + 1);
    assertTrue(client.lastPoll().idle(), "handed back with an idle poll");

    assertTrue(m.queueReportedStep()); // step 1
    pumpWhile(m, ReaderPhase.REPORTED);
    assertEquals(ReaderPhase.FETCHING, m.phase()); // step 2 taken up
    assertTrue(m.queueReportedStep()); // step 2
    pumpWhile(m, ReaderPhase.REPORTED);
    assertEquals(ReaderPhase.HANDED_BACK, m.phase());
    assertFalse(m.awaitingAnswer());

    m.pollIfCaughtUp();
    assertEquals(ReaderPhase.HANDED_BACK, m.phase(), "two steps still to read");
    m.readReported(); // step 1 read
    m.pollIfCaughtUp();
    assertEquals(ReaderPhase.WAITING, m.phase());
    assertFalse(client.lastPoll().idle());
    assertEquals(List.of("a1", "a2"), fetch.opened);
  }

  /**
   * A paced step that the task left for a sibling is cut: the chunks not opened go back, and the
   * step is reported at once, marked idle, with what it opened.
   */
  @Test
  void aPacedStepIsCutWhenASiblingWaits() {
    RecordingOpener fetch = new RecordingOpener();
    WanShuffleConf paced = conf(Settings.FLOW_RATE_CAP.key(), "1000");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 100, "a1", 100);
    ReaderStateMachine m = waiting(b, fetch, paced);
    client.answer(grant(1, "a1", 300));
    m.pump();
    assertEquals(ReaderPhase.FETCHING, m.phase());
    assertEquals(List.of("a1 a1"), fetch.opened, "the first 200 ms chunk at 1000 B/s");

    m.standAside();
    assertEquals(ReaderPhase.STANDING_ASIDE, m.phase());
    assertTrue(client.lastPoll().idle());
    assertEquals(1, client.lastPoll().doneStepId());
    assertArrayEquals(new long[] {200}, client.lastPoll().fetchedBytes());
    assertArrayEquals(new long[] {100}, client.lastPoll().remainingBytes());
    assertFalse(b.isEmpty(), "the unopened chunk went back");
    assertNotNull(m.firstReported(), "the opened chunk is read when the task comes back");
    assertNull(m.currentStep());
  }

  /** A task that ends while its registration is out releases the demand once it is answered. */
  @Test
  void aTaskEndingWhileRegisteringReleasesTheDemandOnceRegistered() {
    ReaderStateMachine m = machine(blocks("b1", "a1", 100), new RecordingOpener(), arrival);
    m.startReading();
    m.onTaskEnd(task);
    assertEquals(ReaderPhase.DONE, m.phase());
    assertEquals(0, executor.readers().tasks());
    assertTrue(client.released.isEmpty());
    client.registrations.get(0).complete(new Registered(7, true));
    assertEquals(1, client.released.size());
    assertEquals(7, client.released.get(0).demandId());
    assertEquals("task-end", client.released.get(0).reason());
  }

  @Test
  void aKilledTaskReleasesItsDemand() {
    ReaderStateMachine m = waiting(blocks("b1", "a1", 100), new RecordingOpener(), arrival);
    task.markInterrupted("killed by test");
    m.onTaskEnd(task);
    assertEquals(1, client.released.size());
    assertEquals("task-killed", client.released.get(0).reason());
    task.markTaskCompleted(Option.empty());
  }
}
