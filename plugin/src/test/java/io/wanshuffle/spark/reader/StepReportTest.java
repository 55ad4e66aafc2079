package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A step's one report: whoever comes first sends it, and a report ahead gets its arrival once. */
class StepReportTest {
  private final ReaderContext executor = new ReaderContext();

  /**
   * Each report as {endMs, idle ? 1 : 0, stalledMs}, each arrival as {reportedMs, endMs,
   * stalledMs}.
   */
  private final List<long[]> sent = new CopyOnWriteArrayList<>();

  private final List<long[]> arrivals = new CopyOnWriteArrayList<>();
  private final AtomicLong calls = new AtomicLong(40);

  private final StepReport report =
      new StepReport(
          new StepReport.Sender() {
            @Override
            public long send(long endMs, boolean idle, long stalledMs) {
              sent.add(new long[] {endMs, idle ? 1 : 0, stalledMs});
              return calls.incrementAndGet();
            }

            @Override
            public void arrived(long reportedMs, long endMs, long stalledMs) {
              arrivals.add(new long[] {reportedMs, endMs, stalledMs});
            }
          },
          executor);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theArrivalReportsOnceAndLaterCallsReturnTheSameCall() {
    assertEquals(0, report.call());
    report.arrived();
    assertEquals(1, sent.size());
    assertTrue(sent.get(0)[0] > 0, "reported with its end");
    long call = report.call();
    assertEquals(41, call);
    assertTrue(report.sentMs() > 0);
    assertEquals(call, report.reportOnce(System.currentTimeMillis(), false));
    report.arrived();
    report.aheadAt(System.currentTimeMillis());
    report.readAll();
    assertEquals(1, sent.size(), "one report per step");
    assertTrue(arrivals.isEmpty(), "reported at its arrival: no separate arrival");
  }

  @Test
  void theTimerReportsAheadAndTheArrivalFollowsOnce() throws InterruptedException {
    long before = System.currentTimeMillis();
    report.aheadAt(before + 20);
    ReaderFixtures.await("reported ahead", () -> report.call() != 0);
    assertEquals(0, sent.get(0)[0], "a report ahead has no end yet");
    assertTrue(report.sentMs() >= before + 15, "not before the predicted time");
    report.arrived();
    report.arrived();
    report.readAll();
    assertEquals(1, sent.size());
    assertEquals(1, arrivals.size(), "the arrival once");
    assertTrue(arrivals.get(0)[1] >= arrivals.get(0)[0]);
  }

  @Test
  void aStepReportedAheadWhoseArrivalWasNeverSignalledGetsItWhenRead() {
    report.aheadAt(System.currentTimeMillis());
    ReaderFixtures.await("reported ahead", () -> report.call() != 0);
    report.readAll();
    assertEquals(1, arrivals.size());
  }

  @Test
  void aReportByTheTaskCancelsThePredictedOne() throws InterruptedException {
    report.aheadAt(System.currentTimeMillis() + 150);
    long call = report.reportOnce(System.currentTimeMillis(), true);
    assertEquals(1, sent.get(0)[1], "idle");
    Thread.sleep(300);
    assertEquals(1, sent.size());
    assertEquals(call, report.call());
    report.readAll();
    assertTrue(arrivals.isEmpty());
  }

  @Test
  void aNewPredictionReschedulesTheReport() {
    report.aheadAt(System.currentTimeMillis() + 60_000);
    report.aheadAt(System.currentTimeMillis() + 10);
    ReaderFixtures.await("reported at the second prediction", () -> report.call() != 0);
    assertEquals(1, sent.size());
  }

  @Test
  void aStepWhoseRequestsGoQuietIsReportedStalledOnceAndItsArrivalFollows() {
    FlowProgress progress = new FlowProgress();
    long before = System.currentTimeMillis();
    progress.requested(3, before);
    report.watchStall(progress, 60, System::currentTimeMillis);
    ReaderFixtures.await("reported stalled", () -> report.call() != 0);
    assertEquals(1, sent.size());
    assertEquals(0, sent.get(0)[0], "reported ahead of its end");
    assertTrue(sent.get(0)[2] >= 60, "stalled for at least the timeout: " + sent.get(0)[2]);
    assertTrue(report.sentMs() >= before + 55, "not before the timeout");
    // the blocks arrive after all: their arrival once, no second report
    report.arrived();
    report.readAll();
    assertEquals(1, sent.size());
    assertEquals(1, arrivals.size());
  }

  @Test
  void aFlowWhoseBytesKeepAdvancingIsNotStalledUntilTheyStop() throws InterruptedException {
    FlowProgress progress = new FlowProgress();
    progress.requested(1, System.currentTimeMillis());
    report.watchStall(progress, 300, System::currentTimeMillis);
    long until = System.currentTimeMillis() + 800;
    while (System.currentTimeMillis() < until) {
      progress.advanced(System.currentTimeMillis());
      Thread.sleep(20);
    }
    assertEquals(0, report.call(), "bytes advanced every 20 ms: not stalled");
    long stopped = System.currentTimeMillis();
    ReaderFixtures.await("reported once the bytes stopped", () -> report.call() != 0);
    assertTrue(report.sentMs() >= stopped + 250, "a full timeout after the last bytes");
    assertTrue(sent.get(0)[2] >= 300);
  }

  @Test
  void aStepWithNothingInFlightIsWaitingForItsTaskNotStalled() throws InterruptedException {
    FlowProgress progress = new FlowProgress();
    report.watchStall(progress, 30, System::currentTimeMillis);
    Thread.sleep(200);
    assertEquals(0, report.call(), "no request sent yet");
    progress.requested(1, System.currentTimeMillis());
    progress.settled(System.currentTimeMillis());
    Thread.sleep(200);
    assertEquals(0, report.call(), "every request settled: the fetcher waits for the task");
  }

  @Test
  void aStepHandedOnAheadThatThenStallsTellsItsStallWithItsArrival() throws InterruptedException {
    FlowProgress progress = new FlowProgress();
    progress.requested(2, System.currentTimeMillis());
    report.watchStall(progress, 100, System::currentTimeMillis);
    progress.advanced(System.currentTimeMillis());
    report.aheadAt(System.currentTimeMillis()); // predicted hand-over: reported ahead at once
    ReaderFixtures.await("reported ahead", () -> report.call() != 0);
    assertEquals(0, sent.get(0)[2], "handed on as predicted, not as stalled");
    Thread.sleep(250); // then its bytes stop
    progress.settled(System.currentTimeMillis());
    progress.settled(System.currentTimeMillis());
    report.arrived();
    assertEquals(1, sent.size());
    assertEquals(1, arrivals.size());
    assertTrue(arrivals.get(0)[2] >= 250, "the arrival tells the stall: " + arrivals.get(0)[2]);
  }

  @Test
  void aStepHandedOnAheadThatKeptMovingArrivesWithoutAStall() {
    FlowProgress progress = new FlowProgress();
    progress.requested(1, System.currentTimeMillis());
    report.watchStall(progress, 60_000, System::currentTimeMillis);
    report.aheadAt(System.currentTimeMillis());
    ReaderFixtures.await("reported ahead", () -> report.call() != 0);
    progress.settled(System.currentTimeMillis());
    report.arrived();
    assertEquals(0, arrivals.get(0)[2]);
  }

  @Test
  void aReportOnArrivalEndsTheWatch() throws InterruptedException {
    FlowProgress progress = new FlowProgress();
    progress.requested(1, System.currentTimeMillis());
    report.watchStall(progress, 50, System::currentTimeMillis);
    report.arrived();
    Thread.sleep(200);
    assertEquals(1, sent.size());
    assertEquals(0, sent.get(0)[2], "reported on arrival, not stalled");
  }

  @Test
  void afterTheExecutorStopsAStepIsReportedOnArrivalOnly() throws InterruptedException {
    executor.close();
    report.aheadAt(System.currentTimeMillis());
    Thread.sleep(100);
    assertEquals(0, report.call());
    report.arrived();
    assertEquals(1, sent.size());
  }
}
