package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Builds a {@link StepCoordinator} ({@link StepCoordinator#builder}): the configuration, the step
 * scheduler, the listeners, the timer and clock, the planner thread, the planning fallback and the
 * cluster of each host. The timer and the clock are required.
 */
public final class StepCoordinatorBuilder {
  private final WanShuffleConf conf;
  private StepScheduler scheduler;
  private List<CoordinatorListener> listeners = List.of();
  private CoordinatorTimer timer;
  private LongSupplier clock;
  private Executor planner = Runnable::run;
  private long maxRestMs = PlanningLoop.MAX_REST_MS;
  private StepScheduler fallback;
  private boolean fallbackSet;
  private Function<String, String> clusterOf = h -> "";
  private LinkModel links;

  StepCoordinatorBuilder(WanShuffleConf conf) {
    this.conf = Objects.requireNonNull(conf, "conf");
  }

  /**
   * @param s the step scheduler; required iff {@code conf.gated()}
   * @return this builder
   */
  public StepCoordinatorBuilder scheduler(StepScheduler s) {
    this.scheduler = s;
    return this;
  }

  /**
   * Sets the step scheduler {@code spark.wanshuffle.algorithm} names (scheduler-core's registry),
   * none when the configuration is not gated ({@code none}): what the driver runs, for callers that
   * do not build a scheduler themselves.
   *
   * @return this builder
   * @throws IllegalArgumentException if the registry does not know the name
   */
  public StepCoordinatorBuilder configuredScheduler() {
    this.scheduler = conf.gated() ? Algorithms.byName(conf.get(Settings.ALGORITHM)) : null;
    return this;
  }

  /**
   * @param l observers (capture), called in order; default none
   * @return this builder
   */
  public StepCoordinatorBuilder listeners(List<CoordinatorListener> l) {
    this.listeners = List.copyOf(l);
    return this;
  }

  /**
   * @param t delayed actions: step deadlines, the gather window, kept flows
   * @return this builder
   */
  public StepCoordinatorBuilder timer(CoordinatorTimer t) {
    this.timer = t;
    return this;
  }

  /**
   * @param c the clock, epoch milliseconds
   * @return this builder
   */
  public StepCoordinatorBuilder clock(LongSupplier c) {
    this.clock = c;
    return this;
  }

  /**
   * @param p runs the planning loop (one run at a time is submitted); default: the thread that
   *     asked for a plan, after it released the lock (deterministic, for tests); production: one
   *     daemon thread, {@code plan.PlanningLoop#thread}
   * @return this builder
   */
  public StepCoordinatorBuilder planner(Executor p) {
    this.planner = Objects.requireNonNull(p, "planner");
    return this;
  }

  /**
   * @param ms longest rest of the planner between two rounds, ms (for tests; default {@link
   *     PlanningLoop#MAX_REST_MS})
   * @return this builder
   */
  StepCoordinatorBuilder maxRestMs(long ms) {
    this.maxRestMs = ms;
    return this;
  }

  /**
   * @param f the scheduler for a step whose re-plan exceeds {@code conf.planningBudgetMs()}; null =
   *     no budget; default: the one {@code spark.wanshuffle.planning.fallback} names
   * @return this builder
   */
  public StepCoordinatorBuilder fallback(StepScheduler f) {
    this.fallback = f;
    this.fallbackSet = true;
    return this;
  }

  /**
   * @param c the cluster of a host (for example the first component of its topology path), never
   *     null: k counts per direction of the backbone, cluster of the source to cluster of the
   *     destination; default: every host in one cluster
   * @return this builder
   */
  public StepCoordinatorBuilder clusters(Function<String, String> c) {
    this.clusterOf = Objects.requireNonNull(c, "clusters");
    return this;
  }

  /**
   * @param l the links flows cross and their capacities (a topology file's, {@link LinkModel#of});
   *     default: the KPBS platform of the configuration's rate keys ({@link LinkModel#flat}) over
   *     the {@link #clusters}
   * @return this builder
   */
  public StepCoordinatorBuilder links(LinkModel l) {
    this.links = Objects.requireNonNull(l, "links");
    return this;
  }

  /**
   * @return the coordinator
   * @throws IllegalArgumentException if a gated configuration comes without a scheduler
   * @throws NullPointerException if the timer or the clock is missing
   */
  public StepCoordinator build() {
    return new StepCoordinator(this);
  }

  WanShuffleConf conf() {
    return conf;
  }

  StepScheduler scheduler() {
    return scheduler;
  }

  List<CoordinatorListener> listeners() {
    return listeners;
  }

  CoordinatorTimer timer() {
    return timer;
  }

  LongSupplier clock() {
    return clock;
  }

  Executor planner() {
    return planner;
  }

  long maxRestMs() {
    return maxRestMs;
  }

  StepScheduler fallback() {
    return fallback;
  }

  boolean fallbackSet() {
    return fallbackSet;
  }

  Function<String, String> clusterOf() {
    return clusterOf;
  }

  LinkModel links() {
    return links;
  }
}
