package io.wanshuffle.spark.coordinator.plan;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * Barrier and pipelined steps: when a plan may be made, which demands, sources and ports it is made
 * on, which of its steps are granted, in which order, and when a step is full. Hosts a* are in
 * cluster a, b* in cluster b.
 */
class StepModeTest {
  private final BarrierSteps barrier = new BarrierSteps();
  private final PipelinedSteps pipelined = new PipelinedSteps();

  /** k = 5 per direction, δ = 2; a1 -> b1 and b1 -> a2 open: one flow each way. */
  private final FlowLeases leases = TestDemands.leases(5, h -> 2, h -> h.substring(0, 1));

  {
    leases.open("a1", "b1");
    leases.open("b1", "a2");
  }

  @Test
  void barrierStepsPlanOnlyAtAStepBoundary() {
    assertTrue(barrier.mayPlan(false));
    assertTrue(barrier.idle(false, leases), "flows past their step's deadline do not count");
    assertFalse(barrier.mayPlan(true));
    assertFalse(barrier.idle(true, leases));
    assertFalse(barrier.plansOnEveryRegistration());
  }

  @Test
  void pipelinedStepsPlanAtAnyTimeAndAreIdleOnlyWithoutOpenFlows() {
    assertTrue(pipelined.mayPlan(true));
    assertFalse(pipelined.idle(false, leases), "no step running, but flows open");
    assertTrue(pipelined.idle(false, TestDemands.leases(5, h -> 2, h -> "")));
    assertFalse(pipelined.idle(true, TestDemands.leases(5, h -> 2, h -> "")));
    assertTrue(pipelined.plansOnEveryRegistration());
  }

  @Test
  void barrierStepsCountKOverBothDirections() {
    FlowLeases k2 = TestDemands.leases(2, h -> 2, h -> h.substring(0, 1));
    assertTrue(barrier.hasCapacity(k2));
    assertFalse(barrier.stepFull(k2));
    k2.open("a1", "b1");
    k2.open("b1", "a1");
    assertFalse(barrier.hasCapacity(k2), "one flow each way is k = 2 in all");
    assertTrue(barrier.stepFull(k2));
    assertTrue(pipelined.hasCapacity(k2), "pipelined: k per direction, checked per flow");
    assertFalse(pipelined.stepFull(k2));
  }

  @Test
  void barrierStepsAdmitDemandsWithoutAGrantWithAFreeReceivePortFromSendersWithAFreePort() {
    Demand free = demand(1, "b2", "a3", 100);
    Demand fetching = demand(2, "b2", "a3", 100);
    fetching.grant(new Demand.Grant(1, new int[] {0}, new long[] {50}), false);
    FlowLeases l = TestDemands.leases(5, h -> 1, h -> h.substring(0, 1));
    l.open("a1", "b1");
    Demand receiverBusy = demand(3, "b1", "a3", 100);
    assertTrue(barrier.admits(free, l));
    assertFalse(barrier.admits(fetching, l));
    assertFalse(barrier.admits(receiverBusy, l), "b1 receives δ = 1 flow");
    assertTrue(barrier.admitsSource("a3", l));
    assertFalse(barrier.admitsSource("a1", l), "a1 sends δ = 1 flow");

    assertTrue(pipelined.admits(fetching, l), "pipelined: its future bytes are planned");
    assertTrue(pipelined.admits(receiverBusy, l));
    assertTrue(pipelined.admitsSource("a1", l));
  }

  @Test
  void barrierStepsPlanOnTheFreeCapacityAndPipelinedStepsOnTheWholePlatform() {
    String[] senders = {"a1", "a3"};
    String[] receivers = {"b1", "b2"};
    Platform b = barrier.platform(senders, receivers, 2, leases, 0.1);
    assertEquals(3, b.k(), "k = 5 less the 2 open flows");
    assertEquals(0.1, b.beta(), 0.0);
    assertEquals(1, b.senderPorts(0), "a1 sends one flow of δ = 2");
    assertEquals(2, b.senderPorts(1));
    assertEquals(1, b.receiverPorts(0), "b1 receives one flow of δ = 2");
    assertEquals(2, b.receiverPorts(1));

    Platform p = pipelined.platform(senders, receivers, 10, leases, 0.1);
    assertEquals(10, p.k(), "the backbone's flows for the plan, open flows not deducted");
    assertEquals(0.1, p.beta(), 0.0);
    for (int i = 0; i < 2; i++) {
      assertEquals(2, p.senderPorts(i));
      assertEquals(2, p.receiverPorts(i));
    }
    assertEquals(5, pipelined.platform(senders, receivers, 5, leases, 0.1).k());
  }

  @Test
  void barrierStepsGrantThePlansFirstStepPipelinedStepsEveryStep() {
    Step first = Step.of(List.of(new Transfer(0, 0, 1)));
    Step second = Step.of(List.of(new Transfer(1, 1, 2)));
    Schedule plan = new Schedule(List.of(first, second));
    assertEquals(List.of(first), barrier.stepsToGrant(plan));
    assertEquals(List.of(first, second), pipelined.stepsToGrant(plan));
  }

  /**
   * Three pairs in one cluster, k = 2, δ = 1: a1 -> b1 100 B with a task of 100 B still to launch
   * on b1, a2 -> b2 and a3 -> b3 300 B each. No port is urgent (bound 400 B, urgent from 340 B).
   */
  @Test
  void barrierStepsOfferThePlansOrderPipelinedStepsTheBottleneckOrder() {
    FlowLeases l = TestDemands.leases(2, h -> 1, h -> "");
    DemandMatrix m =
        DemandMatrix.residual(
            List.of(
                demand(1, "b1", "a1", 100), demand(2, "b2", "a2", 300), demand(3, "b3", "a3", 300)),
            l,
            pipelined,
            0,
            100);
    List<Step> steps =
        List.of(
            Step.of(List.of(new Transfer(1, 1, 3), new Transfer(0, 0, 1), new Transfer(2, 2, 3))));
    PendingTasks.Estimate expected =
        new PendingTasks.Estimate(Map.of("b1", 100.0), Map.of("a1", 100.0), Map.of());

    List<BottleneckFirstOrder.Ranked> b = barrier.order(steps, m, expected);
    assertEquals(List.of(1, 0, 2), b.stream().map(r -> r.transfer().dst()).toList(), "plan order");
    assertTrue(b.stream().allMatch(r -> r.load() == Double.POSITIVE_INFINITY));

    assertEquals(
        List.of(0, 1, 2),
        pipelined.order(steps, m, expected).stream().map(r -> r.transfer().dst()).toList(),
        "staggered: b1 has a task to launch and the fewest bytes left, so it goes first");
  }

  @Test
  void onlyPipelinedStepsKeepFlowsAndOnlyBarrierPlansMustFitTheFreePorts() {
    assertTrue(barrier.planFitsFreePorts());
    assertFalse(barrier.keepsFlows());
    assertFalse(pipelined.planFitsFreePorts());
    assertTrue(pipelined.keepsFlows());
  }

  @Test
  void theConfigurationNamesTheMode() {
    assertInstanceOf(PipelinedSteps.class, StepMode.of(conf(Settings.PIPELINED)));
    assertInstanceOf(BarrierSteps.class, StepMode.of(conf(Settings.BARRIER)));
  }

  private static WanShuffleConf conf(String mode) {
    return WanShuffleConf.from(
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.STEP_MODE.key(), mode),
        Set.of("greedy-test"));
  }
}
