package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import java.util.ArrayList;
import java.util.List;

/**
 * Barrier steps, the KPBS model of the papers (GGP/OGGP paper sec. 2): a step is planned on the
 * free capacity (k less the open flows over both directions of the backbone, δ less each host's
 * open flows, only demands not fetching), its first step granted whole, and the next plan waits
 * until every receiver reported or the step's deadline passed. A receiver past the deadline keeps
 * its flows until it reports, and later steps are planned around them.
 */
public final class BarrierSteps implements StepMode {

  @Override
  public boolean mayPlan(boolean stepsRunning) {
    return !stepsRunning;
  }

  @Override
  public boolean idle(boolean stepsRunning, FlowLeases leases) {
    return !stepsRunning;
  }

  @Override
  public boolean plansOnEveryRegistration() {
    return false;
  }

  @Override
  public boolean hasCapacity(FlowLeases leases) {
    return leases.total() < leases.k();
  }

  @Override
  public boolean admits(Demand d, FlowLeases leases) {
    return d.grantable() && leases.freeReceive(d.dst()) > 0;
  }

  @Override
  public boolean admitsSource(String src, FlowLeases leases) {
    return leases.freeSend(src) > 0;
  }

  @Override
  public Platform platform(
      String[] senders,
      String[] receivers,
      int backboneFlows,
      FlowLeases leases,
      double betaSeconds) {
    return StepMode.platformOf(
        leases.k() - leases.total(),
        betaSeconds,
        senders,
        receivers,
        leases::freeSend,
        leases::freeReceive);
  }

  @Override
  public List<Step> stepsToGrant(Schedule plan) {
    return plan.steps().subList(0, 1);
  }

  @Override
  public List<BottleneckFirstOrder.Ranked> order(
      List<Step> steps, DemandMatrix matrix, PendingTasks.Estimate expected) {
    List<BottleneckFirstOrder.Ranked> first = new ArrayList<>();
    for (Transfer t : steps.get(0).transfers()) {
      first.add(new BottleneckFirstOrder.Ranked(t, Double.POSITIVE_INFINITY));
    }
    return first;
  }

  @Override
  public boolean stepFull(FlowLeases leases) {
    return leases.total() >= leases.k();
  }

  @Override
  public boolean planFitsFreePorts() {
    return true;
  }

  @Override
  public boolean keepsFlows() {
    return false;
  }
}
