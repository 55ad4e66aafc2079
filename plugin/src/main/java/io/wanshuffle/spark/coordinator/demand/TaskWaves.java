package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.measure.PlannedFlow;
import io.wanshuffle.spark.measure.TransferPrediction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The reduce tasks of the running stages seen from the driver before and around their registration:
 * the tasks still to launch and what they are expected to fetch ({@link PendingTasks}), the tasks
 * launched and not registered yet ({@link LaunchedTasks}, which end a gather window early), and the
 * delay from a task's launch to its registration, from which {@link FlowKeeping} bounds how long a
 * flow is kept for a task about to register. Fed by the driver's SparkListener (stage submitted,
 * task launched and ended) and by the tasks' registrations and notices of no demand.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class TaskWaves {
  private final PendingTasks pending = new PendingTasks();
  private final LaunchedTasks launched = new LaunchedTasks();
  private final FlowKeeping keeping;

  /**
   * @param keeping the receivers free flows are kept for
   */
  public TaskWaves(FlowKeeping keeping) {
    this.keeping = keeping;
  }

  /**
   * A stage attempt was submitted.
   *
   * @param stage the stage attempt
   * @param preferredHosts per task, its preferred hosts (empty: none)
   */
  public void submitted(StageRef stage, List<List<String>> preferredHosts) {
    pending.submitted(stage, preferredHosts);
  }

  /**
   * A task was launched.
   *
   * @param stage its stage attempt
   * @param taskAttemptId the task
   * @param host its host, null when unknown
   * @param registered whether the task already registered a demand
   * @param nowMs epoch ms
   */
  public void launched(
      StageRef stage, long taskAttemptId, String host, boolean registered, long nowMs) {
    if (host != null) {
      pending.launched(stage, host, taskAttemptId);
      // kept while the host's previous task ended: its next task now has a bound to register
      keeping.taskLaunched(host, nowMs);
    }
    launched.launched(stage, taskAttemptId, nowMs, registered);
  }

  /**
   * A task registered a demand: it is no longer awaited, no flow is kept for its host any more, and
   * its first registration measures its launch-to-registration delay.
   *
   * @param d the demand
   * @param firstOfTask whether it is the task's only demand in the book
   * @param nowMs epoch ms
   */
  public void registered(Demand d, boolean firstOfTask, long nowMs) {
    pending.registered(d.stage(), d.taskAttemptId(), d.dst(), d.src(), d.registered());
    keeping.release(d.dst());
    LaunchedTasks.Launch launch = launched.registered(d.taskAttemptId());
    if (launch != null && firstOfTask) {
      keeping.noteRegistrationDelay(nowMs - launch.atMs());
    }
  }

  /**
   * A task said a read of it has no cross-cluster blocks.
   *
   * @param stage its stage attempt
   * @param taskAttemptId the task
   * @param host its host
   * @param hasDemand whether the task has a demand in the book (from another read)
   * @param nowMs epoch ms
   * @return true when a flow was kept for the host (it is free again)
   */
  public boolean noDemand(
      StageRef stage, long taskAttemptId, String host, boolean hasDemand, long nowMs) {
    pending.noCrossClusterBytes(stage, taskAttemptId, host);
    boolean released = keeping.release(host);
    LaunchedTasks.Launch launch = launched.withoutDemand(taskAttemptId);
    if (launch != null && !hasDemand) {
      keeping.noteRegistrationDelay(nowMs - launch.atMs());
    }
    return released;
  }

  /**
   * @param stage a stage attempt
   * @param taskAttemptId a task whose last demand fetched everything
   * @param host its host
   */
  public void fetched(StageRef stage, long taskAttemptId, String host) {
    pending.fetched(stage, taskAttemptId, host);
  }

  /**
   * @param taskAttemptId a task that ended, whatever the reason
   * @return true when it was launched and not registered (a gathered wave waited for it)
   */
  public boolean ended(long taskAttemptId) {
    pending.ended(taskAttemptId);
    return launched.ended(taskAttemptId);
  }

  /**
   * @param stage a completed stage attempt
   */
  public void stageDone(StageRef stage) {
    pending.done(stage);
    launched.stageDone(stage);
  }

  /** Forgets the launched tasks (the coordinator stops). */
  public void clear() {
    launched.clear();
  }

  /**
   * @return what the tasks still to launch or register are expected to fetch
   */
  public PendingTasks.Estimate estimate() {
    return pending.estimate();
  }

  /**
   * A stage attempt's whole cross-cluster traffic as expected now: the flows of its registered
   * demands plus those of its tasks still to launch or register ({@link PendingTasks#forecast}).
   *
   * @param stage the stage attempt
   * @param demands its demands in the book
   * @return one flow per demand and sending host (its registered bytes), then one per expected task
   *     and sending host
   */
  public List<PlannedFlow> stageTraffic(StageRef stage, List<Demand> demands) {
    List<PlannedFlow> out = new ArrayList<>();
    for (Demand d : demands) {
      for (int i = 0; i < d.src().length; i++) {
        if (d.registered()[i] > 0) {
          out.add(new PlannedFlow(d.src()[i], d.dst(), d.registered()[i]));
        }
      }
    }
    out.addAll(
        pending.forecast(stage).flows(Math.max(0, TransferPrediction.MAX_SIMULATED - out.size())));
    return out;
  }

  /**
   * @param stagesWithDemand the stage attempts with registered demand
   * @return true when every launched task of those stages registered or ended (and the driver
   *     listener reported their launches)
   */
  public boolean waveRegistered(Set<StageRef> stagesWithDemand) {
    return launched.allRegistered(stagesWithDemand);
  }
}
