package io.wanshuffle.spark.coordinator.assemble;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.HostPair;
import io.wanshuffle.spark.coordinator.plan.BarrierSteps;
import io.wanshuffle.spark.coordinator.plan.PipelinedSteps;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A plan becomes one step: at most k flows per direction and δ per host, a host pair granted once
 * at a time, a flow's budget split over its receiver's demands in registration order, the last free
 * flow kept for a heavier awaited receiver, and the barrier plan's errors reported. Hosts a* are in
 * cluster a, b* in cluster b.
 */
class StepAssemblerTest {
  private static final long NOW = 1_000_000;
  private static final PendingTasks.Estimate NONE =
      new PendingTasks.Estimate(Map.of(), Map.of(), Map.of());
  private static final StepMode BARRIER = new BarrierSteps();
  private static final StepMode PIPELINED = new PipelinedSteps();

  private final FlowKeeping keeping = new FlowKeeping(100);

  private static FlowLeases oneCluster(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> "");
  }

  private static FlowLeases twoClusters(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> h.substring(0, 1));
  }

  private static DemandMatrix matrix(List<Demand> book, FlowLeases l, StepMode mode, long speed) {
    return DemandMatrix.residual(book, l, mode, 0, speed);
  }

  private static int indexOf(String[] hosts, String h) {
    for (int i = 0; i < hosts.length; i++) {
      if (hosts[i].equals(h)) {
        return i;
      }
    }
    throw new AssertionError(h + " is not in the matrix");
  }

  /** The transfer s -> r of {@code seconds}. */
  private static Transfer t(DemandMatrix m, String s, String r, double seconds) {
    return new Transfer(indexOf(m.senders(), s), indexOf(m.receivers(), r), seconds);
  }

  /** The whole pair s -> r. */
  private static Transfer t(DemandMatrix m, String s, String r) {
    int i = indexOf(m.senders(), s);
    int j = indexOf(m.receivers(), r);
    return new Transfer(i, j, m.matrix().amount(i, j));
  }

  private static List<Step> plan(StepMode mode, Transfer... firstStep) {
    return mode.stepsToGrant(new Schedule(List.of(Step.of(List.of(firstStep)))));
  }

  private StepAssembler.Assembly assemble(
      StepAssembler a, List<Step> steps, DemandMatrix m, List<Demand> book) {
    return a.assemble(steps, m, book, NONE, Set.of(), NOW);
  }

  /** Flows per host in the step, sending and receiving, must stay within δ. */
  private static void assertWithinDelta(List<FlowGrant> flows, int delta) {
    Map<String, Integer> send = new HashMap<>();
    Map<String, Integer> receive = new HashMap<>();
    for (FlowGrant f : flows) {
      assertTrue(send.merge(f.srcHost(), 1, Integer::sum) <= delta, f + " breaks δ");
      assertTrue(receive.merge(f.dstHost(), 1, Integer::sum) <= delta, f + " breaks δ");
    }
  }

  @Test
  void neverMoreThanKFlowsInOneDirectionOfTheBackbone() {
    FlowLeases l = twoClusters(1, 5);
    Demand d1 = demand(1, "b1", "a1", 100);
    Demand d2 = demand(2, "b2", "a2", 200);
    Demand d3 = demand(3, "a3", "b3", 300);
    List<Demand> book = List.of(d1, d2, d3);
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1"), t(m, "a2", "b2"), t(m, "b3", "a3")),
            m,
            book);
    // bottleneck ports first: b3 -> a3 (300 B), a2 -> b2 (200 B); a1 -> b1 finds a -> b full
    assertEquals(
        List.of(new FlowGrant("b3", "a3", 300), new FlowGrant("a2", "b2", 200)), a.flows());
    assertEquals(0, l.headroom("a1", "b1"), "a -> b carries its k = 1 flow");
    assertEquals(0, l.headroom("b1", "a1"), "b -> a carries its k = 1 flow");
    assertEquals(2, l.total());
    assertEquals(List.of(3L, 2L), List.copyOf(a.grants().keySet()));
    assertEquals(3.0, a.longestSeconds(), 1e-12, "b3 -> a3, 3 s at 100 B/s");
  }

  @Test
  void neverMoreThanDeltaFlowsAtOneHostSendingOrReceiving() {
    FlowLeases l = oneCluster(5, 1);
    Demand d1 = demand(1, "b1", "a1", 300);
    Demand d2 = demand(2, "b2", "a1", 200);
    Demand d3 = demand(3, "b1", "a2", 100);
    Demand d4 = demand(4, "b3", "a3", 50);
    List<Demand> book = List.of(d1, d2, d3, d4);
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1"), t(m, "a1", "b2"), t(m, "a2", "b1"), t(m, "a3", "b3")),
            m,
            book);
    // a1 -> b1 first (a1 carries 500 B, b1 400 B); a1 -> b2 and a2 -> b1 find a port taken
    assertEquals(List.of(new FlowGrant("a1", "b1", 300), new FlowGrant("a3", "b3", 50)), a.flows());
    assertWithinDelta(a.flows(), 1);
    assertEquals(1, l.sending("a1"));
    assertEquals(1, l.receiving("b1"));
    assertTrue(a.decisions().isEmpty(), "pipelined: a taken port is no scheduler's error");
  }

  @Test
  void aPairWithAFlowOpenIsNotGrantedAgain() {
    FlowLeases l = oneCluster(4, 2);
    Demand d1 = demand(1, "b1", "a1", 500);
    d1.grant(new Demand.Grant(1, new int[] {0}, new long[] {200}), false);
    l.open("a1", "b1");
    Demand d2 = demand(2, "b1", "a1", 300);
    Demand d3 = demand(3, "b2", "a2", 100);
    List<Demand> book = List.of(d1, d2, d3);
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    StepAssembler.Assembly a =
        new StepAssembler(l, keeping, PIPELINED, 0)
            .assemble(
                plan(PIPELINED, t(m, "a1", "b1"), t(m, "a2", "b2")),
                m,
                book,
                NONE,
                Set.of(new HostPair("a1", "b1")),
                NOW);
    assertEquals(List.of(new FlowGrant("a2", "b2", 100)), a.flows());
    assertEquals(Set.of(3L), a.grants().keySet(), "d2 waits until a1 -> b1 closes");
    assertEquals(2, l.total());
  }

  @Test
  void aFlowsBudgetGoesToItsReceiversDemandsInRegistrationOrder() {
    Demand d1 = demand(1, "b1", "a1", 300);
    Demand d2 = demand(2, "b1", "a1", 500, "a2", 100);
    Demand d3 = demand(3, "b2", "a1", 50);
    List<Demand> book = List.of(d1, d2, d3);

    FlowLeases l = oneCluster(4, 2);
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1", 2.0)),
            m,
            book);
    assertEquals(List.of(new FlowGrant("a1", "b1", 200)), a.flows());
    assertEquals(Set.of(1L), a.grants().keySet(), "200 B: all to d1, registered first");
    assertArrayEquals(new long[] {200}, a.grants().get(1L).budgets());
    assertEquals(Map.of(new HostPair("a1", "b1"), 1), a.receiversPerPair());

    l = oneCluster(4, 2);
    m = matrix(book, l, PIPELINED, 100);
    a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1", 6.0), t(m, "a2", "b1")),
            m,
            book);
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 600), new FlowGrant("a2", "b1", 100)), a.flows());
    assertEquals(List.of(1L, 2L), List.copyOf(a.grants().keySet()));
    assertArrayEquals(new int[] {0}, a.grants().get(1L).srcIdx());
    assertArrayEquals(new long[] {300}, a.grants().get(1L).budgets(), "d1's 300 B");
    assertArrayEquals(new int[] {0, 1}, a.grants().get(2L).srcIdx(), "a1, then a2");
    assertArrayEquals(new long[] {300, 100}, a.grants().get(2L).budgets(), "the rest: 300 B");
    assertEquals(
        Map.of(new HostPair("a1", "b1"), 2, new HostPair("a2", "b1"), 1), a.receiversPerPair());
    assertEquals(6.0, a.longestSeconds(), 1e-12);
  }

  @Test
  void aDemandThatIsFetchingGetsNoPartAndTheFlowCarriesWhatTheOthersGot() {
    FlowLeases l = oneCluster(4, 2);
    Demand d1 = demand(1, "b1", "a1", 300, "a3", 100);
    d1.grant(new Demand.Grant(1, new int[] {1}, new long[] {100}), false);
    l.open("a3", "b1");
    Demand d2 = demand(2, "b1", "a1", 500);
    Demand d3 = demand(3, "b2", "a2", 100);
    List<Demand> book = List.of(d1, d2, d3);
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    assertEquals(800, m.bytes(indexOf(m.senders(), "a1"), indexOf(m.receivers(), "b1")));
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1")),
            m,
            book);
    assertEquals(Set.of(2L), a.grants().keySet(), "d1 holds a grant");
    assertEquals(List.of(new FlowGrant("a1", "b1", 500)), a.flows(), "d2's 500 B of the 800 B");

    // no demand on b1 may take a1's bytes now: no flow is opened
    FlowLeases l2 = oneCluster(4, 2);
    l2.open("a3", "b1");
    List<Demand> onlyFetching = List.of(d1, d3);
    DemandMatrix m2 = matrix(onlyFetching, l2, PIPELINED, 100);
    StepAssembler.Assembly none =
        assemble(
            new StepAssembler(l2, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m2, "a1", "b1")),
            m2,
            onlyFetching);
    assertTrue(none.isEmpty());
    assertTrue(none.flows().isEmpty());
    assertEquals(1, l2.total(), "only a3 -> b1");
  }

  // ---- flow keeping: k = 2, a -> b already carries a9 -> b9, so a1 -> b1 would take the last flow

  private FlowLeases lastFreeFlow(int k) {
    FlowLeases l = twoClusters(k, 1);
    l.open("a9", "b9");
    return l;
  }

  private static PendingTasks.Estimate awaiting(String host, double bytes) {
    return new PendingTasks.Estimate(Map.of(), Map.of(), Map.of(host, bytes));
  }

  private StepAssembler.Assembly offerA1B1(
      FlowLeases l, StepMode mode, long gatherWindowMs, PendingTasks.Estimate expected) {
    List<Demand> book = List.of(demand(1, "b1", "a1", 1000));
    DemandMatrix m = matrix(book, l, mode, 1000);
    return new StepAssembler(l, keeping, mode, gatherWindowMs)
        .assemble(plan(mode, t(m, "a1", "b1")), m, book, expected, Set.of(), NOW);
  }

  @Test
  void theLastFreeFlowIsKeptForAHeavierAwaitedReceiverInTheSameCluster() {
    FlowLeases l = lastFreeFlow(2);
    StepAssembler.Assembly a = offerA1B1(l, PIPELINED, 100, awaiting("b2", 2000));
    assertTrue(a.isEmpty());
    assertTrue(a.kept());
    assertEquals(1, l.total(), "the last free flow of a -> b stays free");
    assertEquals(
        List.of(
            new StepAssembler.Decision(
                StepAssembler.Reason.KEPT, "a1", "b1", 1000.0, List.of("b2"), 1)),
        a.decisions());
    assertEquals(Map.of("b2", 2000.0), a.awaited());
    assertEquals(1000.0, a.heaviest(), 0.0);
    assertFalse(keeping.expired("b2", NOW + 99));
    assertTrue(keeping.expired("b2", NOW + 100), "kept for b2 from now, for the gather window");
  }

  @Test
  void aFlowIsGrantedWhenTheAwaitedReceiverIsLighterElsewhereOrAFlowIsLeft() {
    StepAssembler.Assembly lighter =
        offerA1B1(lastFreeFlow(2), PIPELINED, 100, awaiting("b2", 1400));
    assertEquals(List.of(new FlowGrant("a1", "b1", 1000)), lighter.flows(), "1400 < 1.5 x 1000");
    assertFalse(lighter.kept());
    assertEquals(StepAssembler.Reason.GRANTED, lighter.decisions().get(0).reason());

    StepAssembler.Assembly otherCluster =
        offerA1B1(lastFreeFlow(2), PIPELINED, 100, awaiting("a5", 5000));
    assertEquals(1, otherCluster.flows().size(), "a5 receives over b -> a, not this direction");

    StepAssembler.Assembly roomLeft =
        offerA1B1(lastFreeFlow(3), PIPELINED, 100, awaiting("b2", 2000));
    assertEquals(1, roomLeft.flows().size(), "a -> b keeps a free flow after this one");

    StepAssembler.Assembly keepingOff =
        offerA1B1(lastFreeFlow(2), PIPELINED, 0, awaiting("b2", 2000));
    assertEquals(1, keepingOff.flows().size(), "no gather window: no flow kept");
    assertTrue(keepingOff.decisions().isEmpty());

    StepAssembler.Assembly barrier = offerA1B1(lastFreeFlow(2), BARRIER, 100, awaiting("b2", 2000));
    assertEquals(1, barrier.flows().size(), "barrier steps keep no flow");
  }

  @Test
  void aFlowIsNoLongerKeptForAReceiverPastTheBound() {
    keeping.keep("b2", NOW - 100);
    StepAssembler.Assembly a = offerA1B1(lastFreeFlow(2), PIPELINED, 100, awaiting("b2", 2000));
    assertEquals(List.of(new FlowGrant("a1", "b1", 1000)), a.flows());
    assertTrue(a.awaited().isEmpty(), "b2 waited for the whole bound");
  }

  @Test
  void aDemandRegisteredWhileThePlanWasComputedIsAwaited() {
    FlowLeases l = lastFreeFlow(2);
    Demand d1 = demand(1, "b1", "a1", 1000);
    DemandMatrix m = matrix(List.of(d1), l, PIPELINED, 1000);
    Demand late = demand(2, "b2", "a2", 2000);
    StepAssembler.Assembly a =
        new StepAssembler(l, keeping, PIPELINED, 100)
            .assemble(plan(PIPELINED, t(m, "a1", "b1")), m, List.of(d1, late), NONE, Set.of(), NOW);
    assertTrue(a.kept());
    assertEquals(Map.of("b2", 2000.0), a.awaited());
    assertEquals(1, l.total());
  }

  // ---- barrier steps

  @Test
  void aBarrierPlanBeyondDeltaIsReportedAndItsTransferSkipped() {
    FlowLeases l = oneCluster(3, 1);
    List<Demand> book =
        List.of(demand(1, "b1", "a1", 300), demand(2, "b2", "a1", 200), demand(3, "b3", "a2", 100));
    DemandMatrix m = matrix(book, l, BARRIER, 100);
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, BARRIER, 100),
            plan(BARRIER, t(m, "a1", "b1"), t(m, "a1", "b2"), t(m, "a2", "b3")),
            m,
            book);
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 300), new FlowGrant("a2", "b3", 100)), a.flows());
    assertEquals(
        List.of(
            new StepAssembler.Decision(
                StepAssembler.Reason.BEYOND_LIMITS,
                "a1",
                "b2",
                Double.POSITIVE_INFINITY,
                List.of(),
                1)),
        a.decisions());
    assertWithinDelta(a.flows(), 1);
  }

  @Test
  void aBarrierStepTakesOnlyThePlansFirstStepAndAtMostKFlows() {
    List<Demand> book =
        List.of(demand(1, "b1", "a1", 300), demand(2, "b2", "a2", 200), demand(3, "b3", "a3", 100));
    FlowLeases l = oneCluster(3, 1);
    DemandMatrix m = matrix(book, l, BARRIER, 100);
    List<Step> twoSteps =
        BARRIER.stepsToGrant(
            new Schedule(
                List.of(
                    Step.of(List.of(t(m, "a1", "b1"), t(m, "a2", "b2"))),
                    Step.of(List.of(t(m, "a3", "b3"))))));
    StepAssembler.Assembly first =
        assemble(new StepAssembler(l, keeping, BARRIER, 0), twoSteps, m, book);
    assertEquals(
        List.of(new FlowGrant("a1", "b1", 300), new FlowGrant("a2", "b2", 200)),
        first.flows(),
        "the second step waits for the next boundary");

    FlowLeases k2 = oneCluster(2, 1);
    DemandMatrix m2 = matrix(book, k2, BARRIER, 100);
    StepAssembler.Assembly step =
        assemble(
            new StepAssembler(k2, keeping, BARRIER, 0),
            plan(BARRIER, t(m2, "a1", "b1"), t(m2, "a2", "b2"), t(m2, "a3", "b3")),
            m2,
            book);
    assertEquals(2, step.flows().size(), "k = 2 over both directions");
    assertEquals(2, k2.total());
  }

  @Test
  void aBarrierTransferWhosePairIsHeldPastItsDeadlineWaits() {
    FlowLeases l = oneCluster(4, 2);
    Demand laggard = demand(1, "b1", "a1", 500);
    laggard.grant(new Demand.Grant(1, new int[] {0}, new long[] {200}), false);
    l.open("a1", "b1");
    Demand d2 = demand(2, "b1", "a1", 300);
    List<Demand> book = List.of(laggard, d2);
    DemandMatrix m = matrix(book, l, BARRIER, 100);
    StepAssembler.Assembly a =
        new StepAssembler(l, keeping, BARRIER, 0)
            .assemble(
                plan(BARRIER, t(m, "a1", "b1")),
                m,
                book,
                NONE,
                Set.of(new HostPair("a1", "b1")),
                NOW);
    assertTrue(a.isEmpty());
    assertEquals(StepAssembler.Reason.PORTS_HELD, a.decisions().get(0).reason());
    assertEquals(1, l.total());
  }

  @Test
  void theAssemblyIsImmutable() {
    FlowLeases l = oneCluster(2, 1);
    List<Demand> book = List.of(demand(1, "b1", "a1", 300));
    DemandMatrix m = matrix(book, l, PIPELINED, 100);
    StepAssembler.Assembly a =
        assemble(
            new StepAssembler(l, keeping, PIPELINED, 0),
            plan(PIPELINED, t(m, "a1", "b1")),
            m,
            book);
    assertThrows(UnsupportedOperationException.class, () -> a.flows().clear());
    assertThrows(UnsupportedOperationException.class, () -> a.grants().clear());
    assertThrows(UnsupportedOperationException.class, () -> a.receiversPerPair().clear());
    assertThrows(UnsupportedOperationException.class, () -> a.decisions().clear());
  }
}
