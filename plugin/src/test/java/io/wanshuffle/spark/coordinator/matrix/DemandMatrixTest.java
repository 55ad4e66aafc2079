package io.wanshuffle.spark.coordinator.matrix;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.plan.BarrierSteps;
import io.wanshuffle.spark.coordinator.plan.PipelinedSteps;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The residual demand as a KPBS instance: bytes to seconds at the base speed and back, the demands,
 * sources and ports each step mode plans on, and null when nothing can start.
 */
class DemandMatrixTest {
  private static final StepMode BARRIER = new BarrierSteps();
  private static final StepMode PIPELINED = new PipelinedSteps();

  /** One cluster for every host. */
  private static FlowLeases oneCluster(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> "");
  }

  /** Hosts a* in cluster a, b* in cluster b. */
  private static FlowLeases twoClusters(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> h.substring(0, 1));
  }

  private static DemandMatrix residual(
      List<Demand> book, FlowLeases leases, StepMode mode, long baseSpeed) {
    return DemandMatrix.residual(book, leases, mode, 0.05, baseSpeed);
  }

  private static void grant(Demand d, long stepId, int srcIdx, long budget) {
    d.grant(new Demand.Grant(stepId, new int[] {srcIdx}, new long[] {budget}), false);
  }

  @Test
  void bytesBecomeSecondsAtTheBaseSpeedExactly() {
    DemandMatrix m =
        residual(
            List.of(demand(1, "b1", "a1", 35_000_000L)), oneCluster(2, 1), PIPELINED, 12_500_000L);
    assertEquals(2.8, m.matrix().amount(0, 0), 0.0, "35,000,000 B at 12,500,000 B/s");
    assertEquals(35_000_000L, m.bytes(0, 0));
    assertEquals(12_500_000L, m.baseSpeed());
    assertEquals(0.05, m.platform().beta(), 0.0);
  }

  @Test
  void rowsAndColumnsFollowRegistrationOrderAndAPairSumsItsDemands() {
    Demand d1 = demand(1, "b2", "a2", 100, "a1", 50);
    Demand d2 = demand(2, "b1", "a1", 30);
    Demand d3 = demand(3, "b2", "a1", 20);
    DemandMatrix m = residual(List.of(d1, d2, d3), oneCluster(4, 2), PIPELINED, 10);
    assertArrayEquals(new String[] {"a2", "a1"}, m.senders());
    assertArrayEquals(new String[] {"b2", "b1"}, m.receivers());
    assertArrayEquals(new long[] {100, 0}, m.residualBytes().toDense()[0]);
    assertArrayEquals(new long[] {50 + 20, 30}, m.residualBytes().toDense()[1]);
    assertEquals(100, m.bytes(0, 0));
    assertEquals(0, m.bytes(0, 1));
    assertEquals(50 + 20, m.bytes(1, 0));
    assertEquals(7.0, m.matrix().amount(1, 0), 1e-12);
    assertEquals(List.of(d1, d2, d3), m.demands());
  }

  /** Base speed 1024 B/s, so every amount below is exact in binary. */
  @Test
  void aBudgetIsTheTransfersSecondsRoundedUpNeverMoreThanThePairAndTheWholePairWhenOneByteIsLeft() {
    DemandMatrix m =
        residual(List.of(demand(1, "b1", "a1", 1024)), oneCluster(1, 1), BARRIER, 1024);
    assertEquals(512, m.budgetBytes(new Transfer(0, 0, 0.5)));
    assertEquals(101, m.budgetBytes(new Transfer(0, 0, 100.5 / 1024)), "100.5 B rounded up");
    assertEquals(1, m.budgetBytes(new Transfer(0, 0, 1.0 / 1024)));
    assertEquals(1022, m.budgetBytes(new Transfer(0, 0, 1022.0 / 1024)), "2 B left: kept");
    assertEquals(1024, m.budgetBytes(new Transfer(0, 0, 1023.0 / 1024)), "1 B left: whole pair");
    assertEquals(1024, m.budgetBytes(new Transfer(0, 0, 1.0)));
    assertEquals(1024, m.budgetBytes(new Transfer(0, 0, 2.0)), "never more than the pair");
  }

  @Test
  void theLastResortIsTheLargestTransferAloneInOneStep() {
    DemandMatrix m =
        residual(
            List.of(demand(1, "b1", "a1", 100, "a2", 300), demand(2, "b2", "a1", 200)),
            oneCluster(4, 2),
            PIPELINED,
            100);
    Schedule s = m.largestTransferOnly();
    assertEquals(1, s.steps().size());
    assertEquals(List.of(new Transfer(1, 0, 3.0)), s.steps().get(0).transfers(), "a2 -> b1, 3 s");
  }

  /**
   * Open flows: a1 -> b2 (d2's grant), a3 -> b3 and a4 -> b3 (b3 receives δ = 2), a4 -> b5 (a4
   * sends δ = 2); k = 7 in one cluster.
   */
  private static FlowLeases busyLeases() {
    FlowLeases l = oneCluster(7, 2);
    l.open("a1", "b2");
    l.open("a3", "b3");
    l.open("a4", "b3");
    l.open("a4", "b5");
    return l;
  }

  @Test
  void barrierStepsPlanTheDemandsWithoutAGrantAndAFreeReceivePortOnTheFreeKAndDelta() {
    Demand d1 = demand(1, "b1", "a1", 100, "a2", 200, "a4", 400);
    Demand d2 = demand(2, "b2", "a1", 500);
    grant(d2, 1, 0, 100);
    Demand d3 = demand(3, "b3", "a2", 300);
    DemandMatrix m = residual(List.of(d1, d2, d3), busyLeases(), BARRIER, 100);
    assertEquals(List.of(d1), m.demands(), "d2 is fetching, b3 has no free receive port");
    assertArrayEquals(new String[] {"a1", "a2"}, m.senders(), "a4 has no free send port");
    assertArrayEquals(new String[] {"b1"}, m.receivers());
    assertArrayEquals(new long[][] {{100}, {200}}, m.residualBytes().toDense());
    Platform p = m.platform();
    assertEquals(3, p.k(), "k = 7 less 4 open flows");
    assertEquals(1, p.senderPorts(0), "a1: δ 2 less 1 flow sent");
    assertEquals(2, p.senderPorts(1));
    assertEquals(2, p.receiverPorts(0));
  }

  @Test
  void pipelinedStepsPlanEveryDemandsFutureBytesOnTheWholePlatform() {
    Demand d1 = demand(1, "b1", "a1", 100, "a2", 200, "a4", 400);
    Demand d2 = demand(2, "b2", "a1", 500);
    grant(d2, 1, 0, 100);
    Demand d3 = demand(3, "b3", "a2", 300);
    DemandMatrix m = residual(List.of(d1, d2, d3), busyLeases(), PIPELINED, 100);
    assertEquals(List.of(d1, d2, d3), m.demands());
    assertArrayEquals(new String[] {"a1", "a2", "a4"}, m.senders());
    assertArrayEquals(new String[] {"b1", "b2", "b3"}, m.receivers());
    assertArrayEquals(
        new long[][] {{100, 500 - 100, 0}, {200, 0, 300}, {400, 0, 0}},
        m.residualBytes().toDense(),
        "d2's future bytes: its residual less its running grant's budget");
    Platform p = m.platform();
    assertEquals(7, p.k(), "k x 1 direction with demand, open flows not deducted");
    for (int i = 0; i < 3; i++) {
      assertEquals(2, p.senderPorts(i));
      assertEquals(2, p.receiverPorts(i));
    }
  }

  @Test
  void pipelinedStepsPlanKPerDirectionOfTheBackboneWithDemand() {
    FlowLeases l = twoClusters(2, 1);
    Demand ab = demand(1, "b1", "a1", 100);
    Demand ba = demand(2, "a2", "b2", 100);
    assertEquals(2, residual(List.of(ab), l, PIPELINED, 100).platform().k(), "a -> b only");
    assertEquals(4, residual(List.of(ab, ba), l, PIPELINED, 100).platform().k(), "both ways");
  }

  @Test
  void nothingStartableIsNull() {
    assertNull(residual(List.of(), oneCluster(2, 1), PIPELINED, 100), "no demand");

    Demand granted = demand(1, "b1", "a1", 500);
    grant(granted, 1, 0, 100);
    FlowLeases l = oneCluster(2, 1);
    l.open("a1", "b1");
    assertNull(residual(List.of(granted), l, BARRIER, 100), "barrier: every demand fetching");
    assertNull(
        residual(List.of(granted), l, PIPELINED, 100),
        "pipelined: future bytes, but no demand could take a flow now");

    Demand released = demand(2, "b2", "a2", 100);
    released.release();
    Demand idle = demand(3, "b3", "a3", 100);
    idle.markIdle(true);
    assertNull(residual(List.of(released, idle), oneCluster(2, 1), PIPELINED, 100));

    FlowLeases fullAb = twoClusters(1, 2);
    fullAb.open("a9", "b9");
    Demand d = demand(4, "b1", "a1", 100);
    assertNull(residual(List.of(d), fullAb, PIPELINED, 100), "a -> b carries k flows");
    Demand back = demand(5, "a1", "b3", 100);
    assertNotNull(
        residual(List.of(d, back), fullAb, PIPELINED, 100), "b -> a is the other direction");

    FlowLeases senderBusy = oneCluster(5, 1);
    senderBusy.open("a1", "b7");
    assertNull(
        residual(List.of(demand(6, "b1", "a1", 100)), senderBusy, PIPELINED, 100),
        "a1 sends δ flows");
  }

  @Test
  void aFullLinkOnEveryRouteOfADemandRulesOutAllItsSourcesAndOnlyThoseLinksCount() {
    // clusters a, b, c: b1 reads from a1 and c1; every route into b crosses backbone.in[/b]
    FlowLeases l = TestDemands.leases(1, h -> 1, h -> h.substring(0, 1));
    Demand d = demand(1, "b1", "a1", 100, "c1", 100);
    List<String> shared = new java.util.ArrayList<>();
    for (int link : d.sharedLinks(l.links())) {
      shared.add(l.links().name(link));
    }
    assertEquals(List.of("backbone.in[/b]", "nic.down[b1]"), shared);
    assertNotNull(residual(List.of(d), l, PIPELINED, 100), "both sources may start");
    l.open("a2", "b2");
    assertNull(residual(List.of(d), l, PIPELINED, 100), "b's side carries k = 1 flow");
    l.close("a2", "b2");
    l.open("a2", "c2");
    assertNotNull(
        residual(List.of(d), l, PIPELINED, 100), "a's side is full, c1's flow still fits");
    Demand fromA = demand(2, "b3", "a1", 100);
    assertNull(residual(List.of(fromA), l, PIPELINED, 100), "a's side is full");
  }

  @Test
  void valuesPerHostFollowTheRowsAndColumns() {
    DemandMatrix m =
        residual(
            List.of(demand(1, "b1", "a1", 100, "a2", 100), demand(2, "b2", "a2", 100)),
            oneCluster(4, 2),
            PIPELINED,
            100);
    assertArrayEquals(
        new double[] {0, 7}, m.perSender(Map.of("a2", 7.0, "b1", 9.0)), "absent hosts: 0");
    assertArrayEquals(new double[] {0, 3}, m.perReceiver(Map.of("b2", 3.0)));
  }
}
