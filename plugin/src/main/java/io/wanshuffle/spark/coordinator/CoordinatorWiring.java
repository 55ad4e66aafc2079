package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.assemble.StepAssembler;
import io.wanshuffle.spark.coordinator.demand.DemandBook;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.GatherWindow;
import io.wanshuffle.spark.coordinator.demand.StageGate;
import io.wanshuffle.spark.coordinator.demand.StageLedger;
import io.wanshuffle.spark.coordinator.demand.StageWaits;
import io.wanshuffle.spark.coordinator.demand.TaskWaves;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.Listeners;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.network.MeasuringListener;
import io.wanshuffle.spark.coordinator.network.PlanningParameters;
import io.wanshuffle.spark.coordinator.network.WindowControl;
import io.wanshuffle.spark.coordinator.plan.Planner;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import io.wanshuffle.spark.coordinator.track.StepGrants;
import io.wanshuffle.spark.coordinator.track.StepTracker;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Builds the coordinator's roles from a {@link StepCoordinatorBuilder} and wires them to each
 * other: the parameters in force, the flow leases and steps, the grants, the demands' requests and
 * the planning rounds. The timer the roles get runs each action as an event of the coordinator
 * (under its lock, then its replies), so that no role needs to know the façade.
 */
final class CoordinatorWiring {
  private final CoordinatorTimer timer;
  private final Function<String, String> clusterOf;
  private final Planner planner;
  private final Roles roles;
  private final DemandRequests requests;
  private final PlanningRounds rounds;
  private final Listeners listeners;

  /**
   * @param b the builder's settings
   * @param lock the coordinator's lock
   * @param asEvent runs an action as one event of the coordinator
   * @throws IllegalArgumentException if a gated configuration comes without a scheduler
   * @throws NullPointerException if the timer or the clock is missing
   */
  CoordinatorWiring(StepCoordinatorBuilder b, Object lock, Consumer<Runnable> asEvent) {
    WanShuffleConf conf = b.conf();
    if (conf.gated() && b.scheduler() == null) {
      throw new IllegalArgumentException(
          "algorithm " + conf.get(Settings.ALGORITHM) + " needs a scheduler");
    }
    this.clusterOf = b.clusterOf();
    this.timer = Objects.requireNonNull(b.timer(), "timer");
    Objects.requireNonNull(b.clock(), "clock");
    LinkModel links = b.links() != null ? b.links() : LinkModel.flat(conf, clusterOf);
    LiveParameters parameters =
        new LiveParameters(
            PlanningParameters.of(links, conf.betaSeconds(), conf.get(Settings.ALGORITHM)));
    MeasuringListener measuring = new MeasuringListener(links);
    StepMode mode = StepMode.of(conf);
    FlowLeases leases = new FlowLeases(parameters, clusterOf, b.clock());
    List<CoordinatorListener> all = new ArrayList<>(b.listeners());
    all.add(measuring);
    if (conf.adaptiveWindows()) {
      all.add(
          new WindowControl(parameters, leases, b.clock(), this::tellWindow, this::windowMoved));
    }
    Listeners listeners = new Listeners(all);
    this.listeners = listeners;
    CoordinatorTimer events = asEvents(timer, asEvent);
    FlowKeeping keeping = new FlowKeeping(conf.get(Settings.GATHER_WINDOW));
    DemandBook book = new DemandBook();
    StageWaits waits = new StageWaits();
    StageLedger stages = new StageLedger();
    StepTracker steps =
        new StepTracker(
            leases,
            events,
            () -> parameters.current().betaSeconds(),
            conf.get(Settings.STEP_DEADLINE_FACTOR),
            conf.get(Settings.STEP_MIN_DEADLINE));
    StepGrants grants =
        new StepGrants(
            book,
            steps,
            leases,
            stages,
            new StepAssembler(leases, keeping, mode, conf.get(Settings.GATHER_WINDOW)),
            keeping,
            listeners,
            events,
            b.clock(),
            this::requestPlan,
            waits);
    this.roles =
        new Roles(
            conf,
            clusterOf,
            b.clock(),
            events,
            listeners,
            parameters,
            measuring,
            mode,
            book,
            stages,
            new TaskWaves(keeping),
            new GatherWindow(events, conf.get(Settings.GATHER_WINDOW)),
            new StageGate(conf.get(Settings.GATE_MARGIN).orElse(-1.0)),
            waits,
            leases,
            steps,
            grants);
    this.requests =
        new DemandRequests(
            roles, () -> mode.idle(!steps.isEmpty(), leases) && !planning(), this::requestPlan);
    StepScheduler fallback = b.fallbackSet() ? b.fallback() : Planner.fallbackOf(conf);
    this.planner =
        b.scheduler() == null
            ? null
            : new Planner(b.scheduler(), fallback, conf.get(Settings.PLANNING_BUDGET));
    this.rounds =
        new PlanningRounds(
            roles,
            planner,
            requests,
            lock,
            b.planner(),
            mode.planFitsFreePorts() ? 1 : conf.get(Settings.PLANNING_SHARE),
            b.maxRestMs());
  }

  /**
   * @return the roles
   */
  Roles roles() {
    return roles;
  }

  /**
   * @return the demands' requests
   */
  DemandRequests requests() {
    return requests;
  }

  /**
   * @return the planning rounds
   */
  PlanningRounds rounds() {
    return rounds;
  }

  /**
   * @return the cluster of a host
   */
  Function<String, String> clusterOf() {
    return clusterOf;
  }

  /**
   * Waits until a plan that ran over the planning budget has ended (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no such plan is running
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitLatePlan(long timeoutMs) throws InterruptedException {
    return planner == null || planner.awaitLateRun(timeoutMs);
  }

  /** Stops the timer and the planner's late runs. */
  void shutdown() {
    timer.shutdown();
    if (planner != null) {
      planner.close();
    }
  }

  private void requestPlan() {
    rounds.request();
  }

  private void tellWindow(WindowChange change) {
    listeners.fire(l -> l.onWindowChanged(change));
  }

  /** A link's window moved: the last plan was made on the old one. */
  private void windowMoved() {
    rounds.dropStanding();
    rounds.request();
  }

  private boolean planning() {
    return rounds.isPlanning();
  }

  /**
   * @return {@code t} whose actions run through {@code asEvent}
   */
  private static CoordinatorTimer asEvents(CoordinatorTimer t, Consumer<Runnable> asEvent) {
    return new CoordinatorTimer() {
      @Override
      public Cancellable schedule(Runnable action, long delayMs) {
        return t.schedule(() -> asEvent.accept(action), delayMs);
      }

      @Override
      public void shutdown() {
        t.shutdown();
      }
    };
  }
}
