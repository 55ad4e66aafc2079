package io.wanshuffle.spark.coordinator.assemble;

import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.HostPair;
import io.wanshuffle.spark.coordinator.plan.BottleneckFirstOrder;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns a plan into one step: offers the plan's transfers, in the {@link StepMode}'s order, to the
 * free ports, and opens a flow for each transfer whose every link has a free lease ({@link
 * FlowLeases}: the NICs within δ, each backbone side and rack link within its capacity; list
 * scheduling; with barrier steps the plan's first step, which fits the free capacity by
 * construction). A host pair is granted at most once at a time. A flow's byte budget ({@link
 * DemandMatrix#budgetBytes}) goes to the demands on its receiver that are not fetching, in
 * registration order.
 *
 * <p>With pipelined steps the last free flows of a shared link may be kept back for a bottleneck
 * receiver whose task is about to register ({@link FlowKeeping}): a receiver with no demand in the
 * plan, no flow open, whose expected bytes per port are at least {@value FlowKeeping#KEEP_FACTOR}
 * times the load of the port that would take the flow and at least every offered transfer's load.
 *
 * <p>The result is an immutable {@link Assembly}; the assembler opens the flows in the {@link
 * FlowLeases} and notes kept flows in the {@link FlowKeeping}, and neither logs nor notifies (the
 * coordinator does, from the assembly's {@link Decision}s). Not thread-safe: used under the
 * coordinator's lock.
 */
public final class StepAssembler {

  /**
   * A demand's part of a step.
   *
   * @param srcIdx indices into the demand's source hosts
   * @param budgets bytes granted from each of those hosts
   */
  public record DemandGrant(int[] srcIdx, long[] budgets) {}

  /** Why a transfer was not granted, or a grant worth explaining in the log. */
  public enum Reason {
    /** A barrier plan put the transfer beyond k or δ with every port free: a scheduler's error. */
    BEYOND_LIMITS,
    /** Barrier steps: a port of the transfer is held by a flow past its step's deadline. */
    PORTS_HELD,
    /** The last free flows of a shared link are kept for heavier receivers about to register. */
    KEPT,
    /** Granted although receivers are awaited (none of them heavier enough to keep the flow). */
    GRANTED
  }

  /**
   * One decision of the assembly, for the log.
   *
   * @param reason what was decided
   * @param src sending host of the transfer
   * @param dst receiving host
   * @param load the load of the transfer's busier port, bytes per port
   * @param keptFor the receivers a flow was kept for ({@link Reason#KEPT}), else empty
   * @param openFlows flows open when it was decided
   */
  public record Decision(
      Reason reason, String src, String dst, double load, List<String> keptFor, int openFlows) {}

  /**
   * One assembled step.
   *
   * @param flows the flows opened, in grant order, with their byte budgets
   * @param grants per demand id (in the order the demands were granted), its part of the step
   * @param receiversPerPair per opened host pair, how many demands fetch it
   * @param longestSeconds the longest granted transfer, seconds at the base speed
   * @param kept whether a free flow was kept for an awaited receiver
   * @param awaited the awaited receivers considered, with their expected bytes per port
   * @param heaviest the largest load among the offered transfers, bytes per port
   * @param decisions what is worth a log line, in order
   */
  public record Assembly(
      List<FlowGrant> flows,
      Map<Long, DemandGrant> grants,
      Map<HostPair, Integer> receiversPerPair,
      double longestSeconds,
      boolean kept,
      Map<String, Double> awaited,
      double heaviest,
      List<Decision> decisions) {

    /**
     * @return true when no flow was opened
     */
    public boolean isEmpty() {
      return grants.isEmpty();
    }
  }

  private final FlowLeases leases;
  private final FlowKeeping keeping;
  private final StepMode mode;
  private final boolean keepingOn;

  /**
   * @param leases the open flows and the k and δ limits; flows are opened here
   * @param keeping the receivers flows are kept for
   * @param mode barrier or pipelined steps
   * @param gatherWindowMs the gather window, ms: 0 turns flow keeping off
   */
  public StepAssembler(FlowLeases leases, FlowKeeping keeping, StepMode mode, long gatherWindowMs) {
    this.leases = leases;
    this.keeping = keeping;
    this.mode = mode;
    this.keepingOn = mode.keepsFlows() && gatherWindowMs > 0;
  }

  /**
   * Assembles one step from a plan.
   *
   * @param steps the plan's steps to grant ({@link StepMode#stepsToGrant})
   * @param m the instance they were planned on
   * @param book every registered demand (awaited receivers are found among those not in {@code m})
   * @param expected what the tasks still to launch are expected to fetch
   * @param openPairs the host pairs with a flow open now (the step tracker's open pairs): not
   *     granted again until they close
   * @param nowMs epoch ms
   * @return the step; empty when no transfer could be granted
   */
  public Assembly assemble(
      List<Step> steps,
      DemandMatrix m,
      Collection<Demand> book,
      PendingTasks.Estimate expected,
      Set<HostPair> openPairs,
      long nowMs) {
    StandingPlan plan =
        new StandingPlan(m, mode.order(steps, m, expected), expected, 0, "", leases);
    return assemble(plan, () -> book, openPairs, nowMs);
  }

  /**
   * Assembles one step from a plan's transfers in the order free ports take them: the first step of
   * a new plan, or, with pipelined steps, the next one of a plan kept while the planner computes
   * the next ({@link StandingPlan}). Transfers whose pair no demand of the plan still needs are
   * marked done in {@code plan}.
   *
   * @param plan the plan, its instance and what the tasks still to launch were expected to fetch
   * @param book the registered demands that are not in the plan's matrix (awaited receivers are
   *     found among them; demands of the plan in it are skipped, so every registered demand will
   *     do, at O(demands) per step); read only when a transfer fits or a flow is kept
   * @param openPairs the host pairs with a flow open now (the step tracker's open pairs): not
   *     granted again until they close; not modified
   * @param nowMs epoch ms
   * @return the step; empty when no transfer could be granted
   */
  public Assembly assemble(
      StandingPlan plan,
      Supplier<? extends Collection<Demand>> book,
      Set<HostPair> openPairs,
      long nowMs) {
    DemandMatrix m = plan.matrix();
    // the receivers registered since the plan are read now when a kept flow may have to be
    // released, else once a transfer fits (with nothing kept, releasing is a no-op: the same
    // result, and most walks of a full backbone read nothing)
    Map<String, Double> registeredSince =
        keeping.isEmpty() ? null : registeredSincePlan(plan, book.get());
    // the awaited receivers are ranked once a transfer fits (most walks of a full backbone find
    // none)
    Map<String, Double> awaited = null;
    List<BottleneckFirstOrder.Ranked> order = plan.order();
    double heaviest = plan.heaviest();
    boolean portsFreeAtStart = leases.total() == 0;
    Builder b = new Builder();
    // the transfers before the first one not done would only be skipped
    for (int i = plan.firstNotDone(); i < order.size(); i++) {
      if (mode.stepFull(leases) || plan.full(leases)) {
        break;
      }
      if (plan.done(i)) {
        continue;
      }
      BottleneckFirstOrder.Ranked ranked = order.get(i);
      Transfer t = ranked.transfer();
      String s = m.senders()[t.src()];
      String r = m.receivers()[t.dst()];
      int[] route = plan.route(i);
      if (plan.headroom(i, leases) <= 0) {
        continue; // a shared link of the route (a backbone side, a rack link) is full
      }
      if (plan.freeSend(i, leases) <= 0
          || plan.freeReceive(i, leases) <= 0
          || b.isOpen(new HostPair(s, r), openPairs)) {
        if (mode.planFitsFreePorts()) {
          b.note(
              portsFreeAtStart ? Reason.BEYOND_LIMITS : Reason.PORTS_HELD, s, r, ranked, List.of());
        }
        continue;
      }
      if (awaited == null) {
        if (registeredSince == null) {
          registeredSince = registeredSincePlan(plan, book.get());
        }
        awaited = awaitedReceivers(plan, registeredSince, nowMs);
      }
      List<String> heavier = heavierAwaited(awaited, r, ranked.load(), heaviest);
      if (!heavier.isEmpty() && plan.headroom(i, leases) <= heavier.size()) {
        for (String h : heavier) {
          keeping.keep(h, nowMs);
        }
        b.kept = true;
        b.note(Reason.KEPT, s, r, ranked, heavier);
        continue;
      }
      if (b.open(t, s, r, route, m)) {
        if (!awaited.isEmpty()) {
          b.note(Reason.GRANTED, s, r, ranked, List.of());
        }
      } else if (noneNeeds(m, s, r)) {
        plan.markDone(i);
      }
    }
    return b.build(awaited == null ? Map.of() : awaited, heaviest);
  }

  /**
   * @return true when no demand of the plan on {@code r} has bytes left from {@code s}, fetching or
   *     not: the pair is done for this plan
   */
  private static boolean noneNeeds(DemandMatrix m, String s, String r) {
    for (Demand d : m.demandsOn(r)) {
      int idx = d.indexOf(s);
      if (idx >= 0 && !d.released() && d.remaining(idx) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The awaited receivers heavier than the transfer's busier port, in the same cluster as {@code
   * r}.
   */
  private List<String> heavierAwaited(
      Map<String, Double> awaited, String r, double load, double heaviest) {
    List<String> heavier = new ArrayList<>();
    for (Map.Entry<String, Double> a : awaited.entrySet()) {
      if (!a.getKey().equals(r)
          && a.getValue() >= FlowKeeping.KEEP_FACTOR * load
          && a.getValue() >= heaviest
          && leases.sameCluster(a.getKey(), r)) {
        heavier.add(a.getKey());
      }
    }
    return heavier;
  }

  /**
   * The receivers of the demands that registered while the plan was computed (not in the plan, no
   * demand of the plan on their host), with their largest registered bytes; flows kept for a
   * receiver that is neither such a receiver nor about to register ({@link
   * PendingTasks.Estimate#awaited}) are released. O(demands in {@code book}).
   */
  private Map<String, Double> registeredSincePlan(StandingPlan plan, Collection<Demand> book) {
    Map<String, Double> since = new HashMap<>();
    for (Demand d : book) {
      if (d.grantable()
          && !plan.planned(d.id())
          && !plan.receives(d.dst())
          && d.remainingTotal() > 0) {
        since.merge(d.dst(), (double) d.remainingTotal(), Math::max);
      }
    }
    Map<String, Double> expected = plan.expected().awaited();
    keeping.retainOnly(h -> expected.containsKey(h) || since.containsKey(h));
    return since;
  }

  /**
   * Receivers a free flow may be kept for: a host where a task of a stage with demand is about to
   * register ({@link PendingTasks.Estimate#awaited}), or whose task registered while this plan was
   * computed (its demand is not in the plan), with no demand in the plan and every port free; for
   * at most one {@link FlowKeeping} bound from when a flow was first kept for it. O(awaited hosts).
   *
   * @param registeredSince {@link #registeredSincePlan}
   * @return such receivers and their expected bytes per port (δ); empty when keeping is off
   */
  private Map<String, Double> awaitedReceivers(
      StandingPlan plan, Map<String, Double> registeredSince, long nowMs) {
    Map<String, Double> out = new HashMap<>();
    if (!keepingOn) {
      return out;
    }
    // a task that registered while the plan was computed waits for the next plan as if about to
    // register, with its registered bytes
    Map<String, Double> awaited = new HashMap<>(plan.expected().awaited());
    registeredSince.forEach((h, b) -> awaited.merge(h, b, Math::max));
    for (Map.Entry<String, Double> e : awaited.entrySet()) {
      String h = e.getKey();
      if (plan.receives(h) || leases.receiving(h) > 0 || keeping.expired(h, nowMs)) {
        continue;
      }
      out.put(h, e.getValue() / leases.receivePorts(h));
    }
    return out;
  }

  /** The step being assembled. */
  private final class Builder {
    final Map<Long, List<long[]>> parts = new LinkedHashMap<>();
    final Map<HostPair, Integer> receiversPerPair = new HashMap<>();
    final List<FlowGrant> flows = new ArrayList<>();
    final List<Decision> decisions = new ArrayList<>();
    double longest;
    boolean kept;

    /** True when the pair has a flow open: from an earlier step, or opened in this one. */
    boolean isOpen(HostPair p, Set<HostPair> openBefore) {
      return openBefore.contains(p) || receiversPerPair.containsKey(p);
    }

    void note(Reason reason, String s, String r, BottleneckFirstOrder.Ranked t, List<String> kept) {
      decisions.add(new Decision(reason, s, r, t.load(), List.copyOf(kept), leases.total()));
    }

    /**
     * Opens the flow {@code s -> r} for transfer {@code t}: its byte budget goes to the demands on
     * {@code r} that are not fetching, in registration order.
     *
     * @return false when no such demand needs bytes from {@code s} (nothing opened)
     */
    boolean open(Transfer t, String s, String r, int[] route, DemandMatrix m) {
      long budget = m.budgetBytes(t);
      long left = Math.max(1, budget);
      int receivers = 0;
      for (Demand d : m.demandsOn(r)) {
        if (left <= 0) {
          break;
        }
        if (!d.grantable()) {
          continue;
        }
        int idx = d.indexOf(s);
        if (idx < 0 || d.remaining(idx) <= 0) {
          continue;
        }
        long give = Math.min(d.remaining(idx), left);
        left -= give;
        parts.computeIfAbsent(d.id(), x -> new ArrayList<>()).add(new long[] {idx, give});
        receivers++;
      }
      if (receivers == 0) {
        return false;
      }
      leases.open(s, r, route);
      receiversPerPair.put(new HostPair(s, r), receivers);
      flows.add(new FlowGrant(s, r, Math.max(1, budget) - Math.max(0, left)));
      longest = Math.max(longest, t.amount());
      return true;
    }

    Assembly build(Map<String, Double> awaited, double heaviest) {
      Map<Long, DemandGrant> grants = new LinkedHashMap<>();
      for (Map.Entry<Long, List<long[]>> e : parts.entrySet()) {
        List<long[]> ps = e.getValue();
        int[] idx = new int[ps.size()];
        long[] budgets = new long[ps.size()];
        for (int i = 0; i < idx.length; i++) {
          idx[i] = (int) ps.get(i)[0];
          budgets[i] = ps.get(i)[1];
        }
        grants.put(e.getKey(), new DemandGrant(idx, budgets));
      }
      return new Assembly(
          List.copyOf(flows),
          Collections.unmodifiableMap(grants),
          Map.copyOf(receiversPerPair),
          longest,
          kept,
          Map.copyOf(awaited),
          heaviest,
          List.copyOf(decisions));
    }
  }
}
