package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.Step;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.coordinator.assemble.StandingPlan;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.demand.StageGate;
import io.wanshuffle.spark.coordinator.demand.StageWaits;
import io.wanshuffle.spark.coordinator.demand.TaskWaves;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.matrix.ResidualSnapshot;
import io.wanshuffle.spark.coordinator.network.LinkFacts;
import io.wanshuffle.spark.coordinator.network.PlanningParameters;
import io.wanshuffle.spark.coordinator.plan.Planner;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.measure.PlannedFlow;
import io.wanshuffle.spark.measure.TransferPrediction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The planner's rounds ({@link PlanningLoop}): read the residual demand under the lock, build its
 * traffic matrix, plan it and rank its transfers without the lock, grant a step from the plan under
 * the lock; and, with pipelined steps, the last plan kept between rounds ({@link StandingPlan}),
 * whose next transfers take ports freed while the planner is busy or resting.
 *
 * <p>Rules it keeps: a plan that grants nothing while no flow is open grants the largest transfer
 * alone, so the shuffle never stalls; a stage is predicted once, at its first plan, and decided on
 * there ({@link StageGate}); a stage decided not to gate is released and the round plans again
 * without it.
 *
 * <p>Its methods but {@link #plan} and {@link #kick} run under the coordinator's lock.
 */
final class PlanningRounds
    implements PlanningLoop.Round<PlanningRounds.RoundInput, PlanningRounds.RoundPlan> {

  /**
   * What a round plans on, read under the lock.
   *
   * @param parameters the planning parameters in force when it was read
   * @param residual the residual demand
   * @param expected what the tasks still to launch are expected to fetch
   * @param freshStages per stage attempt with unreleased demand not predicted yet, its whole
   *     traffic ({@link TaskWaves#stageTraffic}): predicted without the lock, recorded and decided
   *     on by the plan's apply
   * @param openFlows per link id, this application's flows holding it when the round was read
   *     (published with the demand when an arbiter shares the links), or null without an arbiter
   */
  record RoundInput(
      PlanningParameters parameters,
      ResidualSnapshot residual,
      PendingTasks.Estimate expected,
      Map<StageRef, List<PlannedFlow>> freshStages,
      int[] openFlows) {}

  /**
   * A round's plan, computed without the lock.
   *
   * @param plan the planner's answer
   * @param standing its transfers in the order free ports take them, with the instance
   * @param predictions the fresh stages' transfer phases predicted with the network measured so far
   *     ({@link TransferPrediction#ofStage})
   * @param measured the network measured so far, to adopt its {@code auto} values from; null when
   *     they were adopted less than {@link #ADOPT_EVERY_MS} ago or none is {@code auto}
   */
  record RoundPlan(
      Planner.Plan plan,
      StandingPlan standing,
      Map<StageRef, TransferPrediction.Prediction> predictions,
      NetworkEstimate measured) {}

  /**
   * Least time between two adoptions of the measured {@code auto} values while stages run, ms: a
   * stage's own flows set β and the rates of its later plans ({@link
   * LiveParameters#adoptMeasured}), not only the next stage's.
   */
  static final long ADOPT_EVERY_MS = 5_000;

  private final Roles r;
  private final Planner planner;
  private final DemandRequests requests;
  private final PlanningLoop<RoundInput, RoundPlan> loop;
  private final BackboneArbitration arbitration;
  private final AtomicLong nextPlanId = new AtomicLong(1);

  /** When the measured values were last adopted, epoch ms; touched by the planner thread only. */
  private long adoptedAtMs;

  private boolean stopped;

  /**
   * Pipelined steps: the last plan, whose next transfers take ports freed while the planner is busy
   * with a slow round ({@link #refill}); null before the first plan.
   */
  private StandingPlan standing;

  /**
   * A plan was asked for (ports freed, demand changed) since the last grant from {@link #standing}.
   */
  private boolean changedSinceStanding;

  /** Set while a port freed during a short round waits for {@code planning.replanWait} to pass. */
  private CoordinatorTimer.Cancellable standingTimer;

  /**
   * @param roles the coordinator's roles
   * @param planner the scheduler within its budget; null when not gated
   * @param requests the demands' requests (parked polls, releases)
   * @param lock the coordinator's lock
   * @param executor runs the planning loop
   * @param share largest share of the wall-clock time the rounds take, in (0, 1]
   * @param maxRestMs longest rest after a round, ms
   */
  PlanningRounds(
      Roles roles,
      Planner planner,
      DemandRequests requests,
      Object lock,
      Executor executor,
      double share,
      long maxRestMs) {
    this.r = roles;
    this.planner = planner;
    this.requests = requests;
    this.loop = new PlanningLoop<>(lock, executor, this, roles.clock(), share, maxRestMs);
    this.arbitration =
        new BackboneArbitration(
            roles.clock(), c -> roles.listeners().fire(l -> l.onShareChanged(c)));
  }

  /** Asks for a plan (under the lock); the planner takes it up once the lock is released. */
  void request() {
    if (stopped || !r.conf().gated() || !r.mode().mayPlan(!r.steps().isEmpty())) {
      return;
    }
    loop.request();
    changedSinceStanding = true;
  }

  /** Hands a requested plan to the planner; without the lock. */
  void kick() {
    loop.kick();
  }

  /**
   * @return true while the planner plans a snapshot
   */
  boolean isPlanning() {
    return loop.isPlanning();
  }

  /** A plan made before now is void (the link model was replaced). */
  void dropStanding() {
    standing = null;
  }

  /** No more plans; this application leaves the backbone's split. */
  void stop() {
    stopped = true;
    loop.stop();
    arbitration.close();
  }

  /**
   * @return this application's side of the backbone's split between applications
   */
  BackboneArbitration arbitration() {
    return arbitration;
  }

  /**
   * The shares of the links' windows may have moved (another application's demand changed): they
   * are installed and, when one moved, the last plan is void and a plan is asked for.
   */
  void sharesChanged() {
    if (!stopped && arbitration.refreshShares(r.parameters())) {
      standing = null;
      request();
    }
  }

  /**
   * Pipelined steps, when the planner is busy: the ports freed since the last plan take the last
   * plan's next transfers (list scheduling of the last plan, {@link StandingPlan}) instead of
   * waiting for the plan being computed, once that wait would pass {@code planning.replanWait}: at
   * once when the last round took longer, else when the round being planned reaches it (a timer; a
   * round that ends sooner grants the freed ports itself). While the planner rests between rounds
   * ({@code planning.share}) the last plan serves at once, and an event it has nothing for while a
   * backbone side has room (or with no last plan) ends the rest. The re-plan that follows covers
   * the whole residual demand again. A plan on the free ports only (barrier steps) never does.
   *
   * @param replies where the answers to send after the lock go
   */
  void refill(List<Runnable> replies) {
    if (!changedSinceStanding || stopped) {
      return;
    }
    if (loop.isResting()) {
      if (standing == null) {
        loop.wake();
        return;
      }
      changedSinceStanding = false;
      if (granted(r.grants().grantStep(standing, r.clock().getAsLong(), System.nanoTime(), replies))
          || standing.full(r.leases())) {
        return;
      }
      loop.wake();
      return;
    }
    if (standing == null || !loop.isBusy()) {
      return;
    }
    long waitMs = r.conf().get(Settings.REPLAN_WAIT);
    if (loop.lastRoundMs() < waitMs) {
      long planned = loop.planningForMs();
      if (planned < 0) {
        return; // the next round's snapshot is about to read the freed ports
      }
      if (planned < waitMs) {
        if (standingTimer == null) {
          // fires as an event: its end runs this refill again
          standingTimer = r.timer().schedule(() -> standingTimer = null, waitMs - planned);
        }
        return;
      }
    }
    changedSinceStanding = false;
    granted(r.grants().grantStep(standing, r.clock().getAsLong(), System.nanoTime(), replies));
  }

  /**
   * After a grant, publishes this application's claim again with its flows open now (with an
   * arbiter), so that the granted flows keep their links claimed from now on.
   *
   * @param any whether the grant started some flow
   * @return {@code any}
   */
  private boolean granted(boolean any) {
    if (any && arbitration.active()) {
      PlanningParameters p = r.parameters().current();
      arbitration.publishOpen(p, openFlows(p));
    }
    return any;
  }

  @Override
  public RoundInput snapshot(long startedNanos) {
    requests.planStarted(startedNanos);
    if (arbitration.active() && !hasDemand()) {
      // nothing left to fetch: the other applications get this one's shares now, not at its next
      // plan (there may be none for a long while)
      arbitration.publishNone();
    }
    if (stopped || !r.conf().gated() || !r.mode().mayPlan(!r.steps().isEmpty())) {
      return null;
    }
    r.gather().close();
    if (!r.mode().hasCapacity(r.leases())) {
      return null;
    }
    PlanningParameters p = r.parameters().current();
    ResidualSnapshot residual =
        ResidualSnapshot.read(r.book().all(), r.leases(), r.mode(), p.betaSeconds());
    if (residual == null) {
      // nothing can start now (ports full, or shares used): the demand last published stands
      return null;
    }
    int[] open = arbitration.active() ? openFlows(p) : null;
    Map<StageRef, List<PlannedFlow>> fresh = new LinkedHashMap<>();
    for (Demand d : r.book().all()) {
      if (!d.released() && !r.gate().predicted(d.stage()) && !fresh.containsKey(d.stage())) {
        fresh.put(d.stage(), r.waves().stageTraffic(d.stage(), r.book().ofStage(d.stage())));
      }
    }
    return new RoundInput(p, residual, r.waves().estimate(), fresh, open);
  }

  /**
   * @return per link id of the parameters' link model, this application's flows holding it now
   */
  private int[] openFlows(PlanningParameters p) {
    int[] open = new int[p.links().linkCount()];
    for (int l = 0; l < open.length; l++) {
      open[l] = r.leases().used(l);
    }
    return open;
  }

  /** Whether a demand in the book still has bytes to fetch through the coordinator. */
  private boolean hasDemand() {
    for (Demand d : r.book().all()) {
      if (!d.released() && d.remainingTotal() > 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public RoundPlan plan(RoundInput in) {
    PlanningParameters p = in.parameters();
    Map<StageRef, TransferPrediction.Prediction> predictions = new LinkedHashMap<>();
    NetworkEstimate measured = null;
    if ((r.conf().betaAuto() || r.conf().platformAuto())
        && r.clock().getAsLong() - adoptedAtMs >= ADOPT_EVERY_MS) {
      measured = r.measuring().estimate();
    }
    if (!in.freshStages().isEmpty()) {
      NetworkEstimate est = r.measuring().estimate();
      in.freshStages()
          .forEach(
              (st, flows) ->
                  predictions.put(
                      st, TransferPrediction.ofStage(flows, est, p.links(), p.betaSeconds())));
    }
    DemandMatrix m =
        DemandMatrix.of(in.residual(), r.leases(), r.mode(), p.betaSeconds(), p.baseSpeed());
    arbitration.publish(m, p, in.openFlows());
    Planner.Plan plan = planner.plan(m);
    List<Step> toGrant = r.mode().stepsToGrant(plan.schedule());
    StandingPlan sp =
        new StandingPlan(
            m,
            r.mode().order(toGrant, m, in.expected()),
            in.expected(),
            nextPlanId.getAndIncrement(),
            plan.algorithm(),
            r.leases());
    return new RoundPlan(plan, sp, predictions, measured);
  }

  @Override
  public void apply(RoundInput in, RoundPlan out, long startedNanos, List<Runnable> replies) {
    long now = r.clock().getAsLong();
    StandingPlan sp = out.standing();
    DemandMatrix m = sp.matrix();
    Planner.Plan plan = out.plan();
    PlanEvent pe =
        new PlanEvent(
            sp.planId(),
            now,
            plan.algorithm(),
            List.of(m.senders()),
            List.of(m.receivers()),
            m.residualBytes(),
            m.baseSpeed(),
            m.platform(),
            plan.schedule(),
            plan.nanos());
    r.listeners().fire(l -> l.onPlanComputed(pe));
    if (out.measured() != null) {
      adoptedAtMs = now;
      if (r.parameters()
          .adoptMeasured(out.measured(), r.conf(), r.clusterOf(), r.leases().total() == 0)) {
        // a new link model: this round's plan was made on the old one
        standing = null;
        request();
        return;
      }
    }
    boolean ungated =
        r.gate()
            .decideFresh(
                out.predictions(),
                st -> r.book().ofStage(st).stream().anyMatch(d -> !d.released()),
                r.listeners(),
                st -> requests.releaseAll(new ArrayList<>(r.book().ofStage(st)), "stage-ungated"));
    if (ungated) {
      // the plan holds their demands: plan again without them
      standing = null;
      request();
      return;
    }
    ungateTaskBound(now);
    LinkFacts inForce = r.parameters().current().facts();
    if (arbitration.refreshShares(r.parameters())
        || in.parameters().facts().admitsMoreThan(inForce)
        || sp.facts().admitsMoreThan(inForce)) {
      // this application's share or window of a link moved down, now or since the round read it
      // (an arbiter's callback installs shares at any time): the plan may exceed it
      standing = null;
      request();
      return;
    }
    if (!granted(r.grants().grantStep(sp, now, startedNanos, replies)) && r.leases().total() == 0) {
      // nothing could be granted and no flow will end to trigger the next plan: never stall
      StandingPlan last =
          new StandingPlan(
              m,
              r.mode().order(m.largestTransferOnly().steps(), m, in.expected()),
              in.expected(),
              sp.planId(),
              sp.algorithm(),
              r.leases());
      granted(r.grants().grantStep(last, now, startedNanos, replies));
    }
    standing = r.mode().planFitsFreePorts() ? null : sp;
    changedSinceStanding = false;
  }

  /**
   * Ungates the stages the network does not hold ({@link StageWaits}, with {@code
   * gate.ungateTaskBound}): their demands are released, their tasks fetch at once.
   */
  private void ungateTaskBound(long now) {
    for (StageWaits.TaskBound t : r.waits().taskBound(now, r.leases())) {
      if (!r.conf().get(Settings.GATE_TASK_BOUND) || r.gate().ungated(t.stage())) {
        continue;
      }
      r.gate().ungateTaskBound(t, r.listeners());
      requests.releaseAll(new ArrayList<>(r.book().ofStage(t.stage())), "stage-ungated");
    }
  }
}
