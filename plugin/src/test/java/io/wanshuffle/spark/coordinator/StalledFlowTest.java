package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.network.MeasuringListener;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * A granted flow that makes no progress (a link down, a sender unreachable) is reported stalled by
 * its task: its ports go to the next flow at once, and its realised transfer, whose span holds the
 * stall, measures no rate.
 */
class StalledFlowTest {
  private final ManualTimer timer = new ManualTimer();
  private final RecordingListener events = new RecordingListener();

  private StepCoordinator coordinator() {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.NIC_RATE.key(), "1mb")
            .set(Settings.BACKBONE_RATE.key(), "10mb")
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.K.key(), "1")
            .set(Settings.DELTA.key(), "1")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.GATHER_WINDOW.key(), "100ms")
            .set(Settings.PLANNING_BUDGET.key(), "0");
    return StepCoordinator.builder(WanShuffleConf.from(c, Set.of("greedy-test")))
        .scheduler(new GreedyTestScheduler())
        .listeners(List.of(events))
        .timer(timer)
        .clock(timer::now)
        .clusters(h -> h.substring(0, 1))
        .build();
  }

  private static RegisterDemand demand(long task, String dst, long bytes) {
    return new RegisterDemand(
        3, 0, 7, task, "e" + task, dst, new String[] {"a1"}, new long[] {bytes});
  }

  @Test
  void aFlowHandedOnAheadThatThenStalledIsRecordedStalledAtItsArrival() {
    StepCoordinator c = coordinator();
    RegisterDemand d1 = demand(1, "b1", 3000);
    long i1 = c.register(d1).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    timer.advance(100);
    GrantReply g = p1.join();
    long t0 = timer.now();
    c.awaitGrant(
        new AwaitGrant(
            i1, g.stepId(), new String[] {"a1"}, new long[] {3000}, new long[] {0}, t0, 0));
    timer.advance(40_000);
    c.flowArrived(new FlowArrived(i1, g.stepId(), t0, timer.now(), 38_000));
    assertEquals(1, events.transfers.size());
    assertEquals(38_000, events.transfers.get(0).stalledMs());
  }

  @Test
  void aStalledFlowHandsItsPortsOnAtOnceAndIsRecordedWithItsStall() {
    StepCoordinator c = coordinator();
    RegisterDemand d1 = demand(1, "b1", 3000);
    RegisterDemand d2 = demand(2, "b2", 2000);
    long i1 = c.register(d1).demandId();
    long i2 = c.register(d2).demandId();
    CompletableFuture<GrantReply> p1 = c.awaitGrant(AwaitGrant.poll(i1));
    CompletableFuture<GrantReply> p2 = c.awaitGrant(AwaitGrant.poll(i2));
    timer.advance(100);
    assertTrue(p1.isDone() && !p2.isDone(), "k = 1, δ = 1 at a1: one flow at a time");
    long t0 = timer.now();
    timer.advance(20_000);
    assertFalse(p2.isDone(), "a flow that does not report keeps its ports");
    GrantReply g = p1.join();
    AwaitGrant stalled =
        new AwaitGrant(
            i1,
            g.stepId(),
            new String[] {"a1"},
            new long[] {3000},
            new long[] {0},
            t0,
            0,
            false,
            15_000);
    assertTrue(stalled.reportsAhead());
    assertEquals(Status.FINISHED, c.awaitGrant(stalled).join().status());
    assertTrue(p2.isDone(), "the stalled flow's ports went to the next flow at its report");
    assertEquals(Status.GRANT, p2.join().status());
    assertTrue(events.transfers.isEmpty(), "its blocks may still come");

    // the link comes back: its blocks arrive 10 s later
    timer.advance(10_000);
    c.flowArrived(new FlowArrived(i1, g.stepId(), t0 + 20_000, timer.now()));
    assertEquals(1, events.transfers.size());
    TransferRecord r = events.transfers.get(0);
    assertEquals(15_000, r.stalledMs());
    assertTrue(r.stalled());
    assertEquals(t0 + 20_000, r.handedOnMs(), "its ports went back at the stall report");
    assertEquals(t0 + 30_000, r.endMs());

    MeasuringListener measuring =
        new MeasuringListener(LinkModel.kpbs(1, h -> 1, h -> h.substring(0, 1), 1_000_000));
    measuring.onTransferRealised(r);
    assertTrue(measuring.meter().flows().isEmpty(), "a stalled flow measures no rate");
    measuring.onTransferRealised(
        new TransferRecord(
            r.stepId(),
            r.stage(),
            r.shuffleId(),
            r.taskAttemptId(),
            r.dstHost(),
            r.srcHosts(),
            r.bytes(),
            r.startMs(),
            r.endMs(),
            r.handedOnMs()));
    assertEquals(1, measuring.meter().flows().size(), "the same flow, not stalled, does");
  }
}
