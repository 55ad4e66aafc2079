package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The reduce tasks the driver launched (driver listener: task start) that have neither registered a
 * cross-cluster demand, nor said they have none, nor ended: while the coordinator gathers a wave of
 * registrations, it plans as soon as none of them belongs to a stage with demand. Also records each
 * launch time, from which the coordinator measures the delay from a task's launch to its
 * registration. Not thread-safe: guarded by the coordinator's lock.
 */
final class LaunchedTasks {
  /**
   * At most this many tasks that said they have no cross-cluster demand before their launch event
   * arrived are remembered (the oldest is dropped: a task whose end was missed).
   */
  static final int WITHOUT_DEMAND_MAX = 100_000;

  /** task attempt id -> its launch, for tasks launched and not registered. */
  private final Map<Long, Launch> launched = new HashMap<>();

  /** Tasks that said they have no cross-cluster demand and have not ended. */
  private final Set<Long> withoutDemand = new LinkedHashSet<>();

  /** Stages whose task launches the driver listener reported (the early end relies on them). */
  private final Set<StageRef> launchesSeen = new HashSet<>();

  /**
   * A launched task not registered yet.
   *
   * @param stage its stage attempt
   * @param atMs its launch, epoch ms (driver clock)
   */
  record Launch(StageRef stage, long atMs) {}

  /**
   * Notes a launch, unless the task's registration or its notice of no demand overtook the event
   * (then there is nothing to wait for).
   *
   * @param stage the task's stage attempt
   * @param taskAttemptId Spark's task attempt id
   * @param nowMs epoch ms
   * @param registered whether the task already registered a demand
   */
  void launched(StageRef stage, long taskAttemptId, long nowMs, boolean registered) {
    if (registered || withoutDemand.contains(taskAttemptId)) {
      return;
    }
    launchesSeen.add(stage);
    launched.put(taskAttemptId, new Launch(stage, nowMs));
  }

  /**
   * @param taskAttemptId a task that registered a demand
   * @return its launch if it was awaited (no longer), else null
   */
  Launch registered(long taskAttemptId) {
    return launched.remove(taskAttemptId);
  }

  /**
   * Notes a task's notice that a read of it has no cross-cluster blocks.
   *
   * @param taskAttemptId the task
   * @return its launch if it was awaited (no longer), else null (the notice came before the launch
   *     event, which will then be ignored)
   */
  Launch withoutDemand(long taskAttemptId) {
    Launch launch = launched.remove(taskAttemptId);
    if (launch == null
        && withoutDemand.add(taskAttemptId)
        && withoutDemand.size() > WITHOUT_DEMAND_MAX) {
      Iterator<Long> oldest = withoutDemand.iterator();
      oldest.next();
      oldest.remove();
    }
    return launch;
  }

  /**
   * @param taskAttemptId a task that ended, whatever the reason
   * @return true when it was awaited
   */
  boolean ended(long taskAttemptId) {
    withoutDemand.remove(taskAttemptId);
    return launched.remove(taskAttemptId) != null;
  }

  /**
   * @param stage a completed stage attempt: its tasks are no longer awaited
   */
  void stageDone(StageRef stage) {
    launchesSeen.remove(stage);
    launched.values().removeIf(l -> l.stage().equals(stage));
  }

  /** Forgets everything (the coordinator stopped). */
  void clear() {
    launched.clear();
    launchesSeen.clear();
    withoutDemand.clear();
  }

  /**
   * @param stagesWithDemand the stage attempts that have registered demand
   * @return true when the launches of every one of them are known (the driver listener runs) and
   *     none of their launched tasks is still awaited
   */
  boolean allRegistered(Set<StageRef> stagesWithDemand) {
    if (!launchesSeen.containsAll(stagesWithDemand)) {
      return false;
    }
    for (Launch l : launched.values()) {
      if (stagesWithDemand.contains(l.stage())) {
        return false;
      }
    }
    return true;
  }
}
