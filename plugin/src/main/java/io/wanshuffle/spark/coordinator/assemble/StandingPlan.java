package io.wanshuffle.spark.coordinator.assemble;

import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.LinkFacts;
import io.wanshuffle.spark.coordinator.plan.BottleneckFirstOrder;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A plan's transfers in the order free ports take them ({@link StepMode#order}: bottleneck ports
 * first with pipelined steps), with the instance they were planned on: what the step assembler
 * walks when it grants a step ({@link StepAssembler#assemble(StandingPlan,
 * java.util.function.Supplier, Set, long)}). With pipelined steps the coordinator keeps the last
 * one between re-plans, so that a port freed while the planner computes the next plan takes the
 * last plan's next transfer at once (list scheduling of the plan, as Graham's list scheduling takes
 * the next job of a fixed list; the re-plan that follows covers the demand registered since).
 *
 * <p>Built off the coordinator's lock (its routes come from the immutable link model); its {@code
 * done} marks are set under the lock by the assembler. Walking it costs O(transfers walked), each
 * in a few array reads: the route, the NIC links and the δ of both hosts of every transfer are
 * resolved here ({@link #freeSend}, {@link #freeReceive}); a transfer whose pair no demand of the
 * plan still needs is marked and skipped for good (a walk starts after the marked ones at the
 * front, {@link #firstNotDone}), and the walk stops once every backbone side the plan's pairs cross
 * is full ({@link #full}).
 */
public final class StandingPlan {
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

  /** The first position in {@link #order} not {@link #done}: every walk may start there. */
  private int firstNotDone;

  private final int[] outLinks;
  private final int[] inLinks;
  private final int[] outCapacity;
  private final int[] inCapacity;

  /** Per transfer, the links of its route that are not NICs, and their capacities. */
  private final int[][] shared;

  private final int[][] sharedCapacity;

  /** The links' windows and shares the plan's capacities were read from. */
  private final LinkFacts facts;

  /** Per transfer, the link id of its sender's NIC (up), -1 when the route has none. */
  private final int[] nicUp;

  /** Per transfer, the link id of its receiver's NIC (down), -1 when the route has none. */
  private final int[] nicDown;

  /** The largest load among the plan's transfers, bytes per port. */
  private final double heaviest;

  /** Per sender row of the matrix, δ as a sender (at most its NIC link's window). */
  private final int[] sendPorts;

  /** Per receiver column of the matrix, δ as a receiver (at most its NIC link's window). */
  private final int[] receivePorts;

  /**
   * @param matrix the instance planned on
   * @param order the plan's transfers in the order free ports take them
   * @param expected what the tasks still to launch were expected to fetch when it was planned
   * @param planId the plan's number (0 for a plan no listener saw)
   * @param algorithm the scheduler that made it
   * @param leases the flow leases, for the routes of the pairs, their links' kinds and capacities
   *     and the hosts' δ (their immutable parts only: safe off the lock)
   */
  public StandingPlan(
      DemandMatrix matrix,
      List<BottleneckFirstOrder.Ranked> order,
      PendingTasks.Estimate expected,
      long planId,
      String algorithm,
      FlowLeases leases) {
    this.matrix = matrix;
    this.order = List.copyOf(order);
    this.expected = expected;
    this.planId = planId;
    this.algorithm = algorithm;
    this.receivers = new HashSet<>(Arrays.asList(matrix.receivers()));
    long first = Long.MAX_VALUE;
    for (Demand d : matrix.demands()) {
      first = Math.min(first, d.id());
    }
    this.firstDemandId = first;
    for (Demand d : matrix.demands()) {
      demandIds.set((int) (d.id() - first));
    }
    int n = order.size();
    this.done = new boolean[n];
    this.routes = new int[n][];
    this.shared = new int[n][];
    this.sharedCapacity = new int[n][];
    this.nicUp = new int[n];
    this.nicDown = new int[n];
    this.sendPorts = new int[matrix.senders().length];
    this.receivePorts = new int[matrix.receivers().length];
    Arrays.fill(sendPorts, -1);
    Arrays.fill(receivePorts, -1);
    LinkFacts facts = leases.facts();
    this.facts = facts;
    double heaviestLoad = 0;
    for (BottleneckFirstOrder.Ranked r : this.order) {
      heaviestLoad = Math.max(heaviestLoad, r.load());
    }
    this.heaviest = heaviestLoad;
    Set<Integer> out = new HashSet<>();
    Set<Integer> in = new HashSet<>();
    boolean everyRouteCrosses = true;
    for (int i = 0; i < n; i++) {
      BottleneckFirstOrder.Ranked r = this.order.get(i);
      int row = r.transfer().src();
      int col = r.transfer().dst();
      boolean crossesOut = false;
      boolean crossesIn = false;
      routes[i] = matrix.route(row, col, leases.links());
      nicUp[i] = -1;
      nicDown[i] = -1;
      int sharedCount = 0;
      shared[i] = new int[routes[i].length];
      for (int l : routes[i]) {
        if (!facts.isNic(l)) {
          shared[i][sharedCount++] = l;
        }
        switch (facts.kind(l)) {
          case LinkFacts.BACKBONE_OUT -> {
            out.add(l);
            crossesOut = true;
          }
          case LinkFacts.BACKBONE_IN -> {
            in.add(l);
            crossesIn = true;
          }
          case LinkFacts.NIC_UP -> nicUp[i] = l;
          case LinkFacts.NIC_DOWN -> nicDown[i] = l;
          default -> {
            // a rack link: counted by the leases' headroom
          }
        }
      }
      shared[i] = Arrays.copyOf(shared[i], sharedCount);
      sharedCapacity[i] = capacities(shared[i], facts);
      if (sendPorts[row] < 0) {
        sendPorts[row] = ports(leases.sendPorts(matrix.senders()[row]), nicUp[i], facts);
      }
      if (receivePorts[col] < 0) {
        receivePorts[col] = ports(leases.receivePorts(matrix.receivers()[col]), nicDown[i], facts);
      }
      everyRouteCrosses &= crossesOut && crossesIn;
    }
    this.outLinks = everyRouteCrosses ? toArray(out) : new int[0];
    this.inLinks = everyRouteCrosses ? toArray(in) : new int[0];
    this.outCapacity = capacities(outLinks, facts);
    this.inCapacity = capacities(inLinks, facts);
  }

  /**
   * @return δ of a host, at most its NIC link's window (this application's share of it when several
   *     applications share the NIC); δ when the route has no NIC link
   */
  private static int ports(int delta, int nic, LinkFacts facts) {
    return nic < 0 ? delta : Math.min(delta, facts.window(nic));
  }

  private static int[] capacities(int[] links, LinkFacts facts) {
    int[] c = new int[links.length];
    for (int x = 0; x < links.length; x++) {
      c[x] = facts.window(links[x]);
    }
    return c;
  }

  /**
   * @return the links' windows and shares this plan grants within (those in force when it was
   *     built)
   */
  public LinkFacts facts() {
    return facts;
  }

  private static int[] toArray(Set<Integer> s) {
    return new ArrayList<>(s).stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * @return the instance planned on
   */
  public DemandMatrix matrix() {
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
   * @return the largest load among the plan's transfers ({@link BottleneckFirstOrder.Ranked#load}),
   *     bytes per port; 0 for an empty plan
   */
  double heaviest() {
    return heaviest;
  }

  /**
   * @return the plan's number
   */
  public long planId() {
    return planId;
  }

  /**
   * @return the scheduler that made it
   */
  public String algorithm() {
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
   * The free leases of the busiest shared link of the transfer's route, as {@link
   * FlowLeases#headroom(int[])}.
   *
   * @param i a transfer's position in {@link #order()}
   * @param leases the open flows
   * @return free leases of its busiest link other than the NICs; {@link Integer#MAX_VALUE} for a
   *     route of NICs only
   */
  int headroom(int i, FlowLeases leases) {
    int[] links = shared[i];
    int[] cap = sharedCapacity[i];
    int free = Integer.MAX_VALUE;
    for (int x = 0; x < links.length; x++) {
      free = Math.min(free, cap[x] - leases.used(links[x]));
    }
    return free;
  }

  /**
   * The flows the transfer's sender may still send, as {@link FlowLeases#freeSend}: δ minus the
   * flows on its NIC link (every flow the sender sends holds its {@code nic.up} link once).
   *
   * @param i a transfer's position in {@link #order()}
   * @param leases the open flows
   * @return δ(sender) minus the flows it sends now
   */
  int freeSend(int i, FlowLeases leases) {
    int row = order.get(i).transfer().src();
    return nicUp[i] >= 0
        ? sendPorts[row] - leases.used(nicUp[i])
        : leases.freeSend(matrix.senders()[row]);
  }

  /**
   * The flows the transfer's receiver may still receive, as {@link FlowLeases#freeReceive}.
   *
   * @param i a transfer's position in {@link #order()}
   * @param leases the open flows
   * @return δ(receiver) minus the flows it receives now
   */
  int freeReceive(int i, FlowLeases leases) {
    int col = order.get(i).transfer().dst();
    return nicDown[i] >= 0
        ? receivePorts[col] - leases.used(nicDown[i])
        : leases.freeReceive(matrix.receivers()[col]);
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
    while (firstNotDone < done.length && done[firstNotDone]) {
      firstNotDone++;
    }
  }

  /**
   * @return the first position in {@link #order()} that is not {@link #done}: the transfers before
   *     it are done, so a walk that only skips them may start here ({@code order().size()} when all
   *     are done)
   */
  int firstNotDone() {
    return firstNotDone;
  }

  /**
   * @param leases the open flows
   * @return true when no transfer of the plan can fit now: every route crosses the backbone, and
   *     every outgoing side or every incoming side the plan's pairs cross is full
   */
  public boolean full(FlowLeases leases) {
    if (outLinks.length == 0) {
      return false;
    }
    return allFull(outLinks, outCapacity, leases) || allFull(inLinks, inCapacity, leases);
  }

  private static boolean allFull(int[] links, int[] capacity, FlowLeases leases) {
    for (int x = 0; x < links.length; x++) {
      if (leases.used(links[x]) < capacity[x]) {
        return false;
      }
    }
    return true;
  }
}
