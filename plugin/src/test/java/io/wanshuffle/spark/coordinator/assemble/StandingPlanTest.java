package io.wanshuffle.spark.coordinator.assemble;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.plan.PipelinedSteps;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A plan kept between re-plans: which demands and receivers it covers, when no transfer of it can
 * fit (every backbone side its pairs cross is full), and a pair no demand of it needs any more
 * skipped for good by the assembler while the others are granted again as ports free. Hosts a* are
 * in cluster a, b* in cluster b.
 */
class StandingPlanTest {
  private static final long NOW = 1_000_000;
  private static final PendingTasks.Estimate NONE =
      new PendingTasks.Estimate(Map.of(), Map.of(), Map.of());
  private static final StepMode PIPELINED = new PipelinedSteps();

  private static FlowLeases twoClusters(int k, int delta) {
    return TestDemands.leases(k, h -> delta, h -> h.substring(0, 1));
  }

  /** The plan of one step per pair of the matrix, in the matrix's row-major order. */
  private static StandingPlan planOf(DemandMatrix m, FlowLeases l) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < m.senders().length; i++) {
      for (int j = 0; j < m.receivers().length; j++) {
        double a = m.matrix().amount(i, j);
        if (a > 0) {
          steps.add(Step.of(List.of(new Transfer(i, j, a))));
        }
      }
    }
    List<Step> toGrant = PIPELINED.stepsToGrant(new Schedule(steps));
    return new StandingPlan(m, PIPELINED.order(toGrant, m, NONE), NONE, 4, "test", l);
  }

  @Test
  void itKnowsItsDemandsAndReceivers() {
    FlowLeases l = twoClusters(2, 1);
    Demand d1 = demand(11, "b1", "a1", 100);
    Demand d2 = demand(13, "b2", "a2", 100);
    Demand other = demand(12, "b3", "a3", 100);
    other.markIdle(true); // not planned now
    DemandMatrix m = DemandMatrix.residual(List.of(d1, other, d2), l, PIPELINED, 0, 100);
    StandingPlan p = planOf(m, l);
    assertTrue(p.planned(11) && p.planned(13));
    assertFalse(p.planned(12) || p.planned(10) || p.planned(14) || p.planned(-5));
    assertTrue(p.receives("b1") && p.receives("b2"));
    assertFalse(p.receives("b3"));
    assertEquals(4, p.planId());
    assertEquals("test", p.algorithm());
  }

  @Test
  void aWalkStartsAfterTheTransfersDoneAtTheFront() {
    FlowLeases l = twoClusters(4, 1);
    List<Demand> book = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      book.add(demand(i, "b" + i, "a" + i, 100));
    }
    StandingPlan p = planOf(DemandMatrix.residual(book, l, PIPELINED, 0, 100), l);
    assertEquals(4, p.order().size());
    assertEquals(0, p.firstNotDone());
    p.markDone(2);
    assertEquals(0, p.firstNotDone(), "a transfer not done is still before it");
    p.markDone(0);
    assertEquals(1, p.firstNotDone());
    p.markDone(1);
    assertEquals(3, p.firstNotDone(), "past 1 and the 2 done before");
    p.markDone(3);
    assertEquals(4, p.firstNotDone(), "every transfer done");
  }

  @Test
  void itIsFullWhenEverySideOfTheBackboneItsPairsCrossIsFull() {
    FlowLeases l = twoClusters(1, 2);
    Demand ab = demand(1, "b1", "a1", 100);
    Demand ba = demand(2, "a2", "b2", 100);
    StandingPlan oneWay = planOf(DemandMatrix.residual(List.of(ab), l, PIPELINED, 0, 100), l);
    StandingPlan bothWays = planOf(DemandMatrix.residual(List.of(ab, ba), l, PIPELINED, 0, 100), l);
    assertFalse(oneWay.full(l));
    l.open("a9", "b9"); // a -> b carries its k = 1 flow
    assertTrue(oneWay.full(l), "a -> b is full");
    assertFalse(bothWays.full(l), "b -> a is free");
    l.open("b8", "a8");
    assertTrue(bothWays.full(l));
    l.close("a9", "b9");
    assertFalse(oneWay.full(l));
  }

  @Test
  void withinOneClusterEveryFlowCountsAgainstTheOneK() {
    FlowLeases l = TestDemands.leases(1, h -> 1, h -> "");
    StandingPlan p =
        planOf(DemandMatrix.residual(List.of(demand(1, "b1", "a1", 100)), l, PIPELINED, 0, 100), l);
    assertFalse(p.full(l));
    l.open("a9", "b9");
    assertTrue(p.full(l), "k = 1 flow open");
  }

  @Test
  void aPairNoDemandNeedsIsSkippedForGoodAndTheOthersAreGrantedAgain() {
    FlowLeases l = twoClusters(2, 1);
    StepAssembler a = new StepAssembler(l, new FlowKeeping(100), PIPELINED, 0);
    Demand d1 = demand(1, "b1", "a1", 100);
    Demand d2 = demand(2, "b2", "a2", 100);
    List<Demand> book = List.of(d1, d2);
    StandingPlan p = planOf(DemandMatrix.residual(book, l, PIPELINED, 0, 100), l);
    TestDemands.setRemaining(d1, 0, 0); // d1 fetched everything from a1 since the plan was made
    StepAssembler.Assembly first = a.assemble(p, () -> book, Set.of(), NOW);
    assertEquals(1, first.flows().size(), "a2 -> b2 only");
    assertEquals("a2", first.flows().get(0).srcHost());
    int done = 0;
    for (int i = 0; i < p.order().size(); i++) {
      done += p.done(i) ? 1 : 0;
    }
    assertEquals(1, done, "a1 -> b1 is done for this plan");
    TestDemands.setRemaining(
        d1, 0, 100); // even if it had bytes again, the plan does not walk the pair
    l.close("a2", "b2");
    StepAssembler.Assembly second = a.assemble(p, () -> book, Set.of(), NOW);
    assertEquals(1, second.flows().size(), "a2 -> b2 again: its demand still needs it");
    assertEquals("a2", second.flows().get(0).srcHost());
  }
}
