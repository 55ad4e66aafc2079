package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import java.util.List;

/**
 * Pipelined steps: every demand's future bytes are planned on the whole platform (k flows per
 * direction of the backbone with demand, δ(h) per host; the backbone is full duplex, GGP/OGGP paper
 * sec. 2) and the plan is list-scheduled: whenever a flow ends, the free ports take the plan's
 * transfers bottleneck ports first ({@link BottleneckFirstOrder}). The transfers granted together
 * form one step; steps overlap in time and k and δ hold at every instant. This removes the idle
 * time a barrier costs when a step's flows end at different times.
 */
public final class PipelinedSteps implements StepMode {
  @Override
  public boolean mayPlan(boolean stepsRunning) {
    return true;
  }

  @Override
  public boolean idle(boolean stepsRunning, FlowLeases leases) {
    return !stepsRunning && leases.total() == 0;
  }

  @Override
  public boolean plansOnEveryRegistration() {
    return true;
  }

  @Override
  public boolean hasCapacity(FlowLeases leases) {
    return true;
  }

  @Override
  public boolean admits(Demand d, FlowLeases leases) {
    return true;
  }

  @Override
  public boolean admitsSource(String src, FlowLeases leases) {
    return true;
  }

  @Override
  public Platform platform(
      String[] senders,
      String[] receivers,
      int backboneFlows,
      FlowLeases leases,
      double betaSeconds) {
    return StepMode.platformOf(
        backboneFlows, betaSeconds, senders, receivers, leases::sendPorts, leases::receivePorts);
  }

  @Override
  public List<Step> stepsToGrant(Schedule plan) {
    return plan.steps();
  }

  @Override
  public List<BottleneckFirstOrder.Ranked> order(
      List<Step> steps, DemandMatrix matrix, PendingTasks.Estimate expected) {
    return BottleneckFirstOrder.ranked(
        steps,
        matrix.nonZeroRows(),
        matrix.nonZeroCols(),
        matrix.nonZeroBytes(),
        matrix.platform(),
        matrix.perSender(expected.senders()),
        matrix.perReceiver(expected.receivers()));
  }

  @Override
  public boolean stepFull(FlowLeases leases) {
    return false;
  }

  @Override
  public boolean planFitsFreePorts() {
    return false;
  }

  @Override
  public boolean keepsFlows() {
    return true;
  }
}
