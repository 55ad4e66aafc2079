package io.wanshuffle.spark.coordinator.track;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.StageAccount;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.HostPair;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The running steps: a pair's flow closes with its last receiver, a step ends with its last
 * receiver or at its deadline (driven by a {@link ManualTimer}), and the receivers' reports,
 * including transfers reported ahead of their end.
 */
class StepTrackerTest {
  private final ManualTimer timer = new ManualTimer();
  private final FlowLeases leases = TestDemands.leases(5, h -> 3, h -> "");
  private final StepTracker tracker = new StepTracker(leases, timer, () -> 0.25, 2.0, 1000);
  private final List<Long> deadlines = new ArrayList<>();

  private final Demand d1 = demand(1, "b1", "a1", 300, "a2", 200);
  private final Demand d2 = demand(2, "b1", "a1", 100);
  private final Demand d3 = demand(3, "b2", "a3", 400);

  private static void grant(Demand d, long stepId, int[] srcIdx, long[] budgets) {
    d.grant(new Demand.Grant(stepId, srcIdx, budgets), false);
  }

  /**
   * Step 1: a1 -> b1 fetched by d1 and d2, a2 -> b1 by d1, a3 -> b2 by d3; longest transfer 1.5 s.
   */
  private StepEvent startStepOne() {
    grant(d1, 1, new int[] {0, 1}, new long[] {300, 200});
    grant(d2, 1, new int[] {0}, new long[] {100});
    grant(d3, 1, new int[] {0}, new long[] {400});
    leases.open("a1", "b1");
    leases.open("a2", "b1");
    leases.open("a3", "b2");
    long now = timer.now();
    StepEvent ev =
        new StepEvent(
            tracker.nextStepId(),
            1,
            List.of(
                new FlowGrant("a1", "b1", 400),
                new FlowGrant("a2", "b1", 200),
                new FlowGrant("a3", "b2", 400)),
            new long[] {1, 2, 3},
            now,
            tracker.deadlineMs(now, 1.5));
    tracker.start(
        ev,
        Map.of(
            new HostPair("a1", "b1"), 2, new HostPair("a2", "b1"), 1, new HostPair("a3", "b2"), 1),
        new LinkedHashSet<>(List.of(1L, 2L, 3L)),
        deadlines::add);
    return ev;
  }

  @Test
  void theDeadlineIsTheFactorTimesBetaPlusTheLongestTransferAtLeastTheMinimum() {
    assertEquals(5000 + 3500, tracker.deadlineMs(5000, 1.5), "2 x (0.25 + 1.5) s");
    assertEquals(5000 + 1000, tracker.deadlineMs(5000, 0.125), "2 x 0.375 s is below 1 s");
  }

  @Test
  void aPairsFlowClosesWithItsLastReceiverAndTheStepEndsWithItsLastReceiver() {
    assertEquals(1, tracker.nextStepId());
    StepEvent ev = startStepOne();
    assertEquals(2, tracker.nextStepId());
    assertFalse(tracker.isEmpty());
    assertEquals(Set.of(1L), tracker.runningIds());
    assertEquals(List.of(1L, 2L, 3L), tracker.outstanding(1));
    assertEquals(3, leases.total());

    assertNull(tracker.endGrant(d1));
    assertNull(d1.grant());
    assertEquals(2, leases.total(), "a2 -> b1 closed; a1 -> b1 still fetched by d2");
    assertEquals(Set.of(new HostPair("a1", "b1"), new HostPair("a3", "b2")), tracker.openPairs());
    assertEquals(1, leases.sending("a1"));

    assertNull(tracker.endGrant(d2));
    assertEquals(1, leases.total(), "a1 -> b1 closed with its last receiver");
    assertEquals(0, leases.sending("a1"));
    assertEquals(List.of(3L), tracker.outstanding(1));

    assertSame(ev, tracker.endGrant(d3), "d3 was the step's last receiver");
    assertEquals(0, leases.total());
    assertTrue(tracker.isEmpty());
    assertTrue(tracker.openPairs().isEmpty());
    assertTrue(tracker.outstanding(1).isEmpty());
    timer.advance(60_000);
    assertTrue(deadlines.isEmpty(), "the step's deadline was cancelled");
  }

  @Test
  void theDeadlineFiresOnTheTimerAndFinishEndsTheStepButReceiversKeepTheirFlows() {
    StepEvent ev = startStepOne();
    timer.advance(3499);
    assertTrue(deadlines.isEmpty());
    timer.advance(1);
    assertEquals(List.of(1L), deadlines, "2 x (0.25 + 1.5) s after the grant");
    assertSame(ev, tracker.finish(1));
    assertNull(tracker.finish(1), "not running any more");
    assertTrue(tracker.isEmpty());
    assertEquals(3, leases.total(), "receivers past the deadline keep their flows");
    assertEquals(3, tracker.openPairs().size());
    assertNull(tracker.endGrant(d1), "no step ends: it already did");
    assertNull(tracker.endGrant(d2));
    assertEquals(1, leases.total());
    assertEquals(Set.of(new HostPair("a3", "b2")), tracker.openPairs());
  }

  @Test
  void aPairOpenInTwoStepsStaysOpenUntilItsFlowInEachStepCloses() {
    startStepOne();
    tracker.finish(1); // past its deadline: d3 still fetches a3 -> b2 in step 1
    Demand d4 = demand(4, "b2", "a3", 100);
    grant(d4, 2, new int[] {0}, new long[] {100});
    leases.open("a3", "b2");
    long now = timer.now();
    tracker.start(
        new StepEvent(
            tracker.nextStepId(),
            2,
            List.of(new FlowGrant("a3", "b2", 100)),
            new long[] {4},
            now,
            tracker.deadlineMs(now, 0.1)),
        Map.of(new HostPair("a3", "b2"), 1),
        new LinkedHashSet<>(List.of(4L)),
        deadlines::add);
    Set<HostPair> open = tracker.openPairs();
    assertEquals(3, open.size());
    tracker.endGrant(d3);
    assertTrue(open.contains(new HostPair("a3", "b2")), "still open in step 2 (a live view)");
    tracker.endGrant(d4);
    assertFalse(open.contains(new HostPair("a3", "b2")));
    tracker.endGrant(d1);
    tracker.endGrant(d2);
    assertTrue(open.isEmpty());
    assertEquals(0, leases.total());
  }

  @Test
  void finishCancelsTheDeadline() {
    startStepOne();
    tracker.finish(1);
    timer.advance(60_000);
    assertTrue(deadlines.isEmpty());
  }

  @Test
  void cancelDeadlinesCancelsEveryRunningStepsDeadline() {
    startStepOne();
    Demand d4 = demand(4, "b3", "a4", 10);
    grant(d4, 2, new int[] {0}, new long[] {10});
    leases.open("a4", "b3");
    long now = timer.now();
    tracker.start(
        new StepEvent(2, 2, List.of(), new long[] {4}, now, tracker.deadlineMs(now, 0.1)),
        Map.of(new HostPair("a4", "b3"), 1),
        new LinkedHashSet<>(List.of(4L)),
        deadlines::add);
    tracker.cancelDeadlines();
    timer.advance(60_000);
    assertTrue(deadlines.isEmpty());
  }

  @Test
  void aDemandWithoutAStepGrantClosesNothing() {
    startStepOne();
    Demand ungated = demand(9, "b1", "a1", 100);
    grant(ungated, 0, new int[] {0}, new long[] {100});
    assertNull(tracker.endGrant(ungated));
    assertNull(ungated.grant());
    assertNull(tracker.endGrant(demand(10, "b1", "a1", 5)));
    assertEquals(3, leases.total());
    assertEquals(List.of(1L, 2L, 3L), tracker.outstanding(1));
  }

  @Test
  void aReportUpdatesTheDemandAndTheStagesAccountAndReturnsTheRealisedTransfer() {
    startStepOne();
    StageAccount account = new StageAccount(TestDemands.STAGE, 0);
    // the report lists the demand's hosts in another order, and a host the demand does not know
    AwaitGrant m =
        new AwaitGrant(
            1,
            1,
            new String[] {"a2", "zz", "a1"},
            new long[] {200, 7, 250},
            new long[] {0, 7, 50},
            100,
            900);
    TransferRecord r = tracker.report(d1, m, 950, account);
    assertArrayEquals(new long[] {50, 0}, d1.remaining());
    assertArrayEquals(new long[] {250, 200}, d1.realised());
    assertEquals(1, r.stepId());
    assertEquals(TestDemands.STAGE, r.stage());
    assertEquals(7, r.shuffleId());
    assertEquals(1, r.taskAttemptId());
    assertEquals("b1", r.dstHost());
    assertEquals(List.of("a1", "a2"), r.srcHosts(), "in the grant's order");
    assertArrayEquals(new long[] {250, 200}, r.bytes());
    assertEquals(100, r.startMs());
    assertEquals(900, r.endMs());
    assertEquals(900, r.handedOnMs());
    StageSummary s = account.summary(1000);
    int a1 = s.hosts().indexOf("a1");
    int a2 = s.hosts().indexOf("a2");
    int b1 = s.hosts().indexOf("b1");
    assertEquals(250, s.realisedBytes()[a1][b1]);
    assertEquals(200, s.realisedBytes()[a2][b1]);
    assertEquals(0, s.registeredBytes()[a1][b1], "a report adds realised bytes only");
    assertEquals(3, leases.total(), "reporting does not close the grant: endGrant does");
  }

  private static AwaitGrant ahead(Demand d, long stepId, long startMs) {
    return new AwaitGrant(
        d.id(),
        stepId,
        d.src().clone(),
        d.remaining().clone(),
        new long[d.src().length],
        startMs,
        0);
  }

  @Test
  void aTransferReportedAheadComesBackOnceThroughArrived() {
    startStepOne();
    assertNull(tracker.report(d2, ahead(d2, 1, 100), 400, null), "it waits for its arrival");
    TransferRecord r = tracker.arrived(d2.id(), 1, 1500, 1200, 0);
    assertEquals(List.of("a1"), r.srcHosts());
    assertArrayEquals(new long[] {100}, r.bytes());
    assertEquals(100, r.startMs());
    assertEquals(1500, r.endMs());
    assertEquals(1200, r.handedOnMs(), "handed on when reported");
    assertNull(tracker.arrived(d2.id(), 1, 1500, 1200, 0), "published once");
    assertNull(tracker.arrived(d1.id(), 1, 1500, 1200, 0), "d1 reported nothing ahead");
  }

  @Test
  void anArrivalIsClampedToStartAtOrBeforeItsHandOverAndEnd() {
    startStepOne();
    tracker.report(d2, ahead(d2, 1, 100), 400, null);
    TransferRecord early = tracker.arrived(d2.id(), 1, 50, 40, 0);
    assertEquals(100, early.endMs(), "an end before the start (clock skew) is the start");
    assertEquals(100, early.handedOnMs());
    tracker.report(d3, ahead(d3, 1, 100), 400, null);
    TransferRecord late = tracker.arrived(d3.id(), 1, 800, 900, 0);
    assertEquals(800, late.handedOnMs(), "never handed on after its end");
  }

  @Test
  void theUnarrivedTransfersOfAStageAreDrainedWithTheirReportTime() {
    startStepOne();
    StageRef other = new StageRef(8, 0);
    Demand o = new Demand(4, other, 7, 4, "e4", "b4", new String[] {"a4"}, new long[] {60});
    grant(o, 1, new int[] {0}, new long[] {60});
    tracker.report(d2, ahead(d2, 1, 100), 400, null);
    tracker.report(o, ahead(o, 1, 100), 450, null);
    tracker.report(d3, ahead(d3, 1, 500), 300, null);
    List<TransferRecord> mine = tracker.drainArriving(TestDemands.STAGE);
    assertEquals(List.of(2L, 3L), mine.stream().map(TransferRecord::taskAttemptId).toList());
    assertEquals(400, mine.get(0).endMs(), "its report time");
    assertEquals(400, mine.get(0).handedOnMs());
    assertEquals(500, mine.get(1).endMs(), "never before its start");
    assertNull(tracker.arrived(d2.id(), 1, 1000, 900, 0), "drained: not published again");
    assertTrue(tracker.drainArriving(TestDemands.STAGE).isEmpty());
    List<TransferRecord> rest = tracker.drainArriving(null);
    assertEquals(1, rest.size());
    assertEquals(other, rest.get(0).stage());
    assertTrue(tracker.drainArriving(null).isEmpty());
  }

  /** {@code start} copies the step's outstanding demands: the caller's set is never changed. */
  @Test
  void startCopiesTheOutstandingDemands() {
    grant(d2, 1, new int[] {0}, new long[] {100});
    leases.open("a1", "b1");
    long now = timer.now();
    Set<Long> outstanding = Set.of(2L);
    StepEvent ev = new StepEvent(1, 1, List.of(), new long[] {2}, now, now + 1000);
    tracker.start(ev, Map.of(new HostPair("a1", "b1"), 1), outstanding, deadlines::add);
    assertSame(ev, tracker.endGrant(d2));
    assertEquals(Set.of(2L), outstanding);
  }
}
