package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A plan's transfers in the order free ports take them ({@link StepMode#order}: bottleneck ports
 * first with pipelined steps), with the instance they were planned on: what the step assembler
 * walks when it grants a step ({@link StepAssembler#assemble(StandingPlan, java.util.Collection,
 * Set, long)}). With pipelined steps the coordinator keeps the last one between re-plans, so that a
 * port freed while the planner computes the next plan takes the last plan's next transfer at once
 * (list scheduling of the plan, as Graham's list scheduling takes the next job of a fixed list; the
 * re-plan that follows covers the demand registered since).
 *
 * <p>Built off the coordinator's lock (its routes come from the immutable link model); its {@code
 * done} marks are set under the lock by the assembler. Walking it costs O(transfers walked): a
 * transfer whose pair no demand of the plan still needs is marked and skipped for good, and the
 * walk stops once every backbone side the plan's pairs cross is full ({@link #full}).
 */
final class StandingPlan {
  private final DemandMatrix matrix;
  private final List<BottleneckFirstOrder.Ranked> order;
  private final PendingTasks.Estimate expected;
  private final long planId;
  private final String algorithm;
  private final Set<String> receivers;
  private final BitSet demandIds = new BitSet();
  private final long firstDemandId;
  private final int[][] routes;
  private final boolean[] done;
  private final int[] outLinks;
  private final int[] inLinks;

  /**
   * @param matrix the instance planned on
   * @param order the plan's transfers in the order free ports take them
   * @param expected what the tasks still to launch were expected to fetch when it was planned
   * @param planId the plan's number (0 for a plan no listener saw)
   * @param algorithm the scheduler that made it
   * @param links the link model, for the backbone sides of the pairs' routes
   */
  StandingPlan(
      DemandMatrix matrix,
      List<BottleneckFirstOrder.Ranked> order,
      PendingTasks.Estimate expected,
      long planId,
      String algorithm,
      LinkModel links) {
    this.matrix = matrix;
    this.order = List.copyOf(order);
    this.expected = expected;
    this.planId = planId;
    this.algorithm = algorithm;
    this.receivers = Set.of(matrix.receivers());
    long first = Long.MAX_VALUE;
    for (Demand d : matrix.demands()) {
      first = Math.min(first, d.id);
    }
    this.firstDemandId = first;
    for (Demand d : matrix.demands()) {
      demandIds.set((int) (d.id - first));
    }
    this.done = new boolean[order.size()];
    this.routes = new int[order.size()][];
    Set<Integer> out = new HashSet<>();
    Set<Integer> in = new HashSet<>();
    boolean everyRouteCrosses = true;
    for (int i = 0; i < this.order.size(); i++) {
      BottleneckFirstOrder.Ranked r = this.order.get(i);
      boolean crossesOut = false;
      boolean crossesIn = false;
      routes[i] =
          links.route(matrix.senders()[r.transfer().src()], matrix.receivers()[r.transfer().dst()]);
      for (int l : routes[i]) {
        if (links.isBackboneOut(l)) {
          out.add(l);
          crossesOut = true;
        } else if (links.isBackboneIn(l)) {
          in.add(l);
          crossesIn = true;
        }
      }
      everyRouteCrosses &= crossesOut && crossesIn;
    }
    this.outLinks = everyRouteCrosses ? toArray(out) : new int[0];
    this.inLinks = everyRouteCrosses ? toArray(in) : new int[0];
  }

  private static int[] toArray(Set<Integer> s) {
    return new ArrayList<>(s).stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * @return the instance planned on
   */
  DemandMatrix matrix() {
    return matrix;
  }

  /**
   * @return the transfers in the order free ports take them
   */
  List<BottleneckFirstOrder.Ranked> order() {
    return order;
  }

  /**
   * @return what the tasks still to launch were expected to fetch when it was planned
   */
  PendingTasks.Estimate expected() {
    return expected;
  }

  /**
   * @return the plan's number
   */
  long planId() {
    return planId;
  }

  /**
   * @return the scheduler that made it
   */
  String algorithm() {
    return algorithm;
  }

  /**
   * @param host a host
   * @return true when the plan has demand received by it
   */
  boolean receives(String host) {
    return receivers.contains(host);
  }

  /**
   * @param demandId a demand
   * @return true when the demand is in the plan
   */
  boolean planned(long demandId) {
    long i = demandId - firstDemandId;
    return i >= 0 && i < Integer.MAX_VALUE && demandIds.get((int) i);
  }

  /**
   * @param i a transfer's position in {@link #order()}
   * @return the link ids of its pair's route
   */
  int[] route(int i) {
    return routes[i];
  }

  /**
   * @param i a transfer's position in {@link #order()}
   * @return true when no demand of the plan needs its pair any more
   */
  boolean done(int i) {
    return done[i];
  }

  /**
   * @param i a transfer's position in {@link #order()} whose pair no demand of the plan needs
   */
  void markDone(int i) {
    done[i] = true;
  }

  /**
   * @param leases the open flows
   * @return true when no transfer of the plan can fit now: every route crosses the backbone, and
   *     every outgoing side or every incoming side the plan's pairs cross is full
   */
  boolean full(FlowLeases leases) {
    if (outLinks.length == 0) {
      return false;
    }
    return allFull(outLinks, leases) || allFull(inLinks, leases);
  }

  private static boolean allFull(int[] links, FlowLeases leases) {
    for (int l : links) {
      if (leases.used(l) < leases.links().capacity(l)) {
        return false;
      }
    }
    return true;
  }
}
