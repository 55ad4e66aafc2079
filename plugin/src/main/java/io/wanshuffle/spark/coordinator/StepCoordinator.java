package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.event.CoordinatorInfo;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.network.MeasuringListener;
import io.wanshuffle.spark.coordinator.plan.BottleneckFirstOrder;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The driver-side step coordinator: the façade over the roles of the data path, which owns the lock
 * and delivers the replies and the listener events. Reduce tasks register their cross-cluster
 * demand, the coordinator plans KPBS steps over the residual demand and grants them to the
 * receiving tasks (KPBS: GGP/OGGP paper, Cohen, Jeannot, Padoy, Wagner, sec. 2; δ-port: DGGP paper,
 * Jeannot and Wagner, sec. 2).
 *
 * <p>It delegates: {@link DemandRequests} drives each demand through its life cycle on the tasks'
 * requests, {@link PlanningRounds} runs the planner's rounds, and the roles between them live in
 * one sub-package each along the data path (demand, matrix, plan, assemble, track over network and
 * event: this package's documentation; docs/architecture.md draws them).
 *
 * <p>Threading: every public method takes the lock only to record what happened and returns; it
 * never runs a scheduler. Planning runs on the planner ({@link PlanningLoop}): snapshot under the
 * lock, scheduler without it, grant under it, replies after it. Timer actions (deadlines, the
 * gather window, kept flows) run as events under the lock too. Listener callbacks run under the
 * lock. No Spark dependency beyond the configuration object, so it is unit-tested without RPC.
 */
public final class StepCoordinator {
  private final Roles r;
  private final DemandRequests requests;
  private final PlanningRounds rounds;
  private final CoordinatorWiring wiring;
  private boolean stopped;

  StepCoordinator(StepCoordinatorBuilder b) {
    this.wiring = new CoordinatorWiring(b, this, this::run);
    this.r = wiring.roles();
    this.requests = wiring.requests();
    this.rounds = wiring.rounds();
  }

  /**
   * @param conf validated configuration (k, δ, β, base speed, deadlines, planning budget)
   * @return a builder of a coordinator for {@code conf}
   */
  public static StepCoordinatorBuilder builder(WanShuffleConf conf) {
    return new StepCoordinatorBuilder(conf);
  }

  /**
   * @return the configuration this coordinator runs with
   */
  public WanShuffleConf conf() {
    return r.conf();
  }

  /**
   * Announces the start to the listeners.
   *
   * @param info what the listeners learn
   */
  public synchronized void start(CoordinatorInfo info) {
    CoordinatorInfo measured = info.withNetwork(r.measuring()::estimate);
    r.listeners().fire(l -> l.onCoordinatorStart(measured));
  }

  /**
   * Registers a reduce task attempt's cross-cluster demand.
   *
   * @param m the demand (bytes per source host)
   * @return its id and whether the task must wait for grants
   */
  public Registered register(RegisterDemand m) {
    return event(() -> stopped ? new Registered(0, false) : requests.register(m));
  }

  /**
   * Notes that a task's shuffle read has no cross-cluster blocks (the reader's one-way notice): a
   * wave being gathered no longer waits for the task, no free flow is kept for its host, and it
   * counts as a task with no cross-cluster bytes in its stage's estimate of the tasks still to
   * launch ({@link PendingTasks}). A task with other reads may still register a demand for them.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host
   */
  public void noCrossClusterDemand(int stageId, int attempt, long taskAttemptId, String host) {
    run(
        () -> {
          if (!stopped && r.conf().gated()) {
            requests.noCrossClusterDemand(new StageRef(stageId, attempt), taskAttemptId, host);
          }
        });
  }

  /**
   * Notes a submitted stage attempt and the hosts its tasks prefer (driver listener). While tasks
   * of a stage with demand are still to launch, their expected bytes on their preferred hosts count
   * in the load by which pipelined steps rank ports ({@link PendingTasks}, {@link
   * BottleneckFirstOrder}).
   *
   * @param stageId the stage
   * @param attempt the stage attempt
   * @param preferredHosts per task of the attempt, its preferred hosts (empty list: none)
   */
  public synchronized void stageSubmitted(
      int stageId, int attempt, List<List<String>> preferredHosts) {
    if (!stopped && r.conf().gated()) {
      r.waves().submitted(new StageRef(stageId, attempt), preferredHosts);
    }
  }

  /**
   * Notes a task the driver launched (driver listener: task start). While a wave is gathered, the
   * coordinator plans as soon as every launched task of the stages with demand has registered or
   * ended; the host, when known, has one pending task fewer ({@link #stageSubmitted}).
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param host the task's host; null if unknown
   */
  public synchronized void taskLaunched(int stageId, int attempt, long taskAttemptId, String host) {
    if (!stopped && r.conf().gated()) {
      boolean registered = r.book().countOfTask(taskAttemptId) > 0;
      r.waves()
          .launched(
              new StageRef(stageId, attempt),
              taskAttemptId,
              host,
              registered,
              r.clock().getAsLong());
    }
  }

  /**
   * Like {@link #taskLaunched(int, int, long, String)} with the host unknown.
   *
   * @param stageId the task's stage
   * @param attempt the stage attempt
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskLaunched(int stageId, int attempt, long taskAttemptId) {
    taskLaunched(stageId, attempt, taskAttemptId, null);
  }

  /**
   * Notes that a task ended, whatever the reason (driver listener): the gather window no longer
   * waits for it. Its demand, if any, is released by {@link #releaseTask} or its own report.
   *
   * @param taskAttemptId Spark's task attempt id
   */
  public void taskEnded(long taskAttemptId) {
    run(() -> requests.taskEnded(taskAttemptId));
  }

  /**
   * Processes a task's report of its finished step (if any) and returns its next grant: a completed
   * future when the answer is known now, else a pending one completed when a step grants the demand
   * (the long-poll; expire it with {@link #pollExpired}).
   *
   * @param m the request
   * @return the reply, now or later
   */
  public CompletableFuture<GrantReply> awaitGrant(AwaitGrant m) {
    return event(
        () ->
            stopped
                ? CompletableFuture.completedFuture(GrantReply.of(GrantReply.Status.UNGATED))
                : requests.awaitGrant(m));
  }

  /**
   * Ends a parked long-poll that saw no grant: completes it with {@link GrantReply.Status#NOT_YET}
   * unless a grant completed it first (a grant that loses this race stays pending and is returned
   * by the next poll).
   *
   * @param demandId the demand
   * @param poll the future returned by {@link #awaitGrant}
   */
  public synchronized void pollExpired(long demandId, CompletableFuture<GrantReply> poll) {
    if (poll.complete(GrantReply.of(GrantReply.Status.NOT_YET))) {
      requests.pollExpired(demandId, poll);
    }
  }

  /**
   * Drops a demand (its task ended, failed or was killed before finishing): frees its flows,
   * forgets its residual demand and re-plans.
   *
   * @param demandId the demand; unknown ids are ignored
   * @param reason for the log and the capture
   */
  public void release(long demandId, String reason) {
    run(
        () -> {
          Demand d = r.book().get(demandId);
          if (d != null) {
            requests.release(d, reason);
          }
        });
  }

  /**
   * Drops every demand of a task attempt (driver listener: task end).
   *
   * @param taskAttemptId Spark's task attempt id
   * @param reason for the log and the capture
   */
  public void releaseTask(long taskAttemptId, String reason) {
    run(() -> requests.releaseAll(r.book().ofTask(taskAttemptId), reason));
  }

  /**
   * Drops every demand of tasks that ran on a lost executor and re-plans.
   *
   * @param executorId the executor
   */
  public void executorLost(String executorId) {
    run(() -> requests.releaseAll(r.book().ofExecutor(executorId), "executor-lost"));
  }

  /**
   * A stage attempt completed: drops what is left of its demand, adopts the measured {@code auto}
   * values ({@link LiveParameters#adoptMeasured}) and publishes its final matrix.
   *
   * @param stageId Spark's stage id
   * @param attempt stage attempt number
   */
  public void stageCompleted(int stageId, int attempt) {
    WanShuffleConf conf = r.conf();
    boolean adopts = conf.betaAuto() || conf.platformAuto();
    if (adopts) {
      // the auto values are adopted from the estimate under the lock: compute it before taking it
      r.measuring().estimate();
    }
    run(
        () ->
            requests.stageCompleted(
                new StageRef(stageId, attempt),
                () -> {
                  boolean linksFree = r.leases().total() == 0 && !rounds.isPlanning();
                  if (adopts
                      && r.parameters()
                          .adoptMeasured(
                              r.measuring().estimate(), conf, wiring.clusterOf(), linksFree)) {
                    rounds.dropStanding();
                  }
                }));
  }

  /**
   * Splits every shared link's window with the other applications of the backbone ({@code
   * spark.wanshuffle.arbiter.zookeeper}): from now on this application holds at most its share of
   * each, publishes its demand with every plan, and re-plans when its shares move.
   *
   * @param share the application's share ({@code arbiter.BackboneShares#open}); closed when the
   *     coordinator stops
   */
  public void shareBackbone(io.wanshuffle.spark.arbiter.BackboneShare share) {
    run(
        () -> {
          rounds.arbitration().install(share);
          rounds.arbitration().onChange(() -> run(rounds::sharesChanged));
          rounds.sharesChanged();
        });
  }

  /**
   * @return the listener that measures the realised flows (its meter takes synthetic flows in
   *     tests)
   */
  MeasuringListener measuring() {
    return r.measuring();
  }

  /**
   * @return β later plans use, seconds: the configured β, or with {@code beta=auto} the measured
   *     one once known
   */
  public double betaSeconds() {
    return r.parameters().current().betaSeconds();
  }

  /**
   * Records a cross-cluster fetch that ran without gating (algorithm none or fallback).
   *
   * @param r the report
   */
  public void ungatedRealised(UngatedReport r) {
    run(() -> requests.ungatedRealised(r));
  }

  /**
   * Records the end of a step that was reported ahead of it (predicted hand-over): its realised
   * transfer goes to the listeners with {@code endMs}, handed on at {@code reportedMs} (both on the
   * task's clock). Unknown or already recorded steps are ignored.
   *
   * @param m the arrival
   */
  public synchronized void flowArrived(FlowArrived m) {
    r.grants().flowArrived(m);
  }

  /** Stops: every parked task is told to fetch ungated; listeners get {@code onCoordinatorStop}. */
  public synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    rounds.stop();
    r.grants().stop();
    r.waves().clear();
    r.gather().close();
    requests.stop();
    r.listeners().fire(CoordinatorListener::onCoordinatorStop);
    wiring.shutdown();
  }

  /**
   * @return flows open now (granted and not yet reported), for tests and metrics
   */
  public synchronized int openFlowCount() {
    return r.leases().total();
  }

  /**
   * @return demands registered and not yet finished or released
   */
  public synchronized int pendingDemandCount() {
    return r.book().size();
  }

  /**
   * Waits until a plan that ran over the planning budget has ended (for tests).
   *
   * @param timeoutMs longest wait, ms
   * @return true when no such plan is running
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitLatePlan(long timeoutMs) throws InterruptedException {
    return wiring.awaitLatePlan(timeoutMs);
  }

  /** Runs {@code body} as an event ({@link #event}). */
  private void run(Runnable body) {
    event(
        () -> {
          body.run();
          return null;
        });
  }

  /**
   * Runs {@code body} under the lock, then grants from the standing plan when the planner is busy
   * ({@link PlanningRounds#refill}); after the lock, completes the replies that granted and hands a
   * requested plan to the planner.
   */
  private <T> T event(Supplier<T> body) {
    List<Runnable> replies = new ArrayList<>();
    T out;
    synchronized (this) {
      out = body.get();
      rounds.refill(replies);
    }
    for (Runnable r : replies) {
      r.run();
    }
    rounds.kick();
    return out;
  }

  @Override
  public synchronized String toString() {
    return String.format(
        "StepCoordinator[%s, demands=%d, open flows=%d, steps=%s, stages=%s]",
        r.conf().get(Settings.ALGORITHM),
        r.book().size(),
        r.leases().total(),
        r.steps().runningIds(),
        r.stages());
  }
}
