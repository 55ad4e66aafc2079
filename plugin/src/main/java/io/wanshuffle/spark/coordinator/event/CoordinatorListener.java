package io.wanshuffle.spark.coordinator.event;

/**
 * Observer of the driver-side step coordinator: the hook the capture (files, SparkListener events,
 * metrics) is built on.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Every callback runs while the coordinator holds its lock, in causal order (a demand is
 *       registered before it is planned, a step is granted before its transfers are realised, a
 *       stage is done after its last step). Plan and grant callbacks come from the coordinator's
 *       planner thread, the others from the thread that reported the event (RPC, SparkListener,
 *       timer); the scheduler itself never runs under the lock. Callbacks must return quickly and
 *       must not call back into the coordinator; hand heavy work (file writing) to another thread.
 *   <li>An exception thrown by a callback is logged and swallowed: a listener can never break or
 *       stall a shuffle.
 *   <li>Amounts are bytes, times are epoch milliseconds ({@link System#currentTimeMillis()} of the
 *       driver), hosts are the host names Spark's block managers report.
 *   <li>Only cross-cluster traffic reaches the coordinator; same-cluster blocks are fetched at once
 *       and never reported.
 * </ul>
 *
 * All methods have empty defaults, so an implementation overrides only what it needs.
 */
public interface CoordinatorListener {

  /**
   * The coordinator started (driver start-up, before any demand).
   *
   * @param info algorithm, platform parameters and the Spark context (may be null in unit tests)
   */
  default void onCoordinatorStart(CoordinatorInfo info) {}

  /**
   * A reduce task attempt registered its cross-cluster demand.
   *
   * @param event the demand: task, stage, destination host and bytes per source host
   */
  default void onDemandRegistered(DemandEvent event) {}

  /**
   * A step plan was computed over the residual demand (at a step boundary). Only the plan's first
   * step is granted; the rest is re-planned at the next boundary.
   *
   * @param event the residual matrix, the platform and the schedule
   */
  default void onPlanComputed(PlanEvent event) {}

  /**
   * A stage's cross-site transfer phase was predicted, once per stage attempt, when it was first
   * planned: on its whole traffic (its registered demand and what its tasks still to launch or
   * register are expected to fetch), as scheduled and as Spark's default, with the network measured
   * so far ({@link io.wanshuffle.spark.measure.TransferPrediction#ofStage}). Fired whether or not
   * stages are gated on it ({@link #onStageGated} follows when they are).
   *
   * @param stage the stage attempt
   * @param scheduledSeconds its transfer phase predicted as scheduled, seconds (NaN: unknown)
   * @param defaultSeconds its transfer phase predicted as Spark's default, seconds (NaN: unknown)
   */
  default void onStagePredicted(StageRef stage, double scheduledSeconds, double defaultSeconds) {}

  /**
   * A stage's cross-site reads were decided on when it was first planned ({@code
   * spark.wanshuffle.gate.margin}): gated, or fetched at once as Spark does.
   *
   * @param stage the stage attempt
   * @param gated true when its reads wait for grants
   * @param scheduledSeconds its transfer phase predicted as scheduled, seconds (NaN: unknown)
   * @param defaultSeconds its transfer phase predicted as Spark's default, seconds (NaN: unknown)
   * @param reason the decision's reason, e.g. {@code ungated: predicted 3.100 s scheduled against
   *     3.000 s as Spark's default (not more than 5 % faster)}
   */
  default void onStageGated(
      StageRef stage,
      boolean gated,
      double scheduledSeconds,
      double defaultSeconds,
      String reason) {}

  /**
   * A step was granted to its receiving tasks.
   *
   * @param event the step: its host pairs and byte budgets, grant time and deadline
   */
  default void onStepGranted(StepEvent event) {}

  /**
   * One task finished the part of a step granted to it (or, for algorithm {@code none}, its whole
   * cross-cluster fetch), with the bytes it fetched per source host.
   *
   * @param record the realised transfers of that task in that step
   */
  default void onTransferRealised(TransferRecord record) {}

  /**
   * A step is over: every receiver reported, or its deadline passed ({@code deadlinePassed}).
   * Receivers that had not reported by the deadline keep their flow leases until they do, so the k
   * and δ limits still hold.
   *
   * @param event the step as granted
   * @param endMs when the step ended, epoch ms
   * @param deadlinePassed true when the step was closed by its deadline
   */
  default void onStepDone(StepEvent event, long endMs, boolean deadlinePassed) {}

  /**
   * A registered demand was released before it was fully granted and realised.
   *
   * @param demandId the demand
   * @param taskAttemptId its task attempt
   * @param unrealisedBytes bytes that were registered but not fetched under a grant
   * @param reason why: {@code task-end}, {@code executor-lost}, {@code stage-done}
   */
  default void onDemandReleased(
      long demandId, long taskAttemptId, long unrealisedBytes, String reason) {}

  /**
   * A stage attempt completed (driver SparkListener): its cross-cluster traffic matrix is final.
   *
   * @param summary the stage's registered and realised matrices and step counts
   */
  default void onStageDone(StageSummary summary) {}

  /**
   * A link's window or rate in force moved (adaptive windows, {@code
   * coordinator.network.WindowRule}).
   *
   * @param change the link, its window before and after, its rate in force and why
   */
  default void onWindowChanged(WindowChange change) {}

  /**
   * This application's share of a shared link's window moved: another application's demand on the
   * link changed, the link's window moved under a split, or the arbiter was lost or found again
   * ({@code io.wanshuffle.spark.arbiter}). Never told without an arbiter, nor while every share is
   * its link's whole window.
   *
   * @param change the link, its capacity and window, the share before and after (flows), the other
   *     applications with demand on it, and when (epoch ms)
   */
  default void onShareChanged(ShareChange change) {}

  /** The coordinator stopped (application end). Flush and close files here. */
  default void onCoordinatorStop() {}
}
