package io.wanshuffle.spark.coordinator;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reduce tasks of the running stages that the driver has not launched yet, by the host they
 * prefer, and the cross-cluster bytes they are expected to fetch: a later wave's demand before it
 * registers.
 *
 * <p>Why: pipelined steps hand free ports to the most-loaded ports first, and a port's load is the
 * bytes its registered demands still have to move. With more reduce tasks than task slots, a
 * receiving host's next tasks register only when its running ones end, so a host with much work
 * still to come looks as loaded as its running task; its last flows then wait behind lighter
 * hosts' and the stage ends with that host receiving alone (measured: a Zipf-skewed matrix whose
 * heavy receiver idled 0.67 s at the wave boundary; 48 uniform partitions ending with one receiving
 * host for 0.55 s). Spark tells which hosts the pending tasks prefer
 * ({@code StageInfo.taskLocalityPreferences} at stage submission; a task with n preferred hosts
 * counts 1/n on each), and each task's launch host; the bytes of a pending task on host h are
 * estimated as the mean registered bytes of the stage's tasks on h so far (the stage's mean over
 * all hosts before any task on h registered), split over sending hosts as the stage's registered
 * bytes are; a launched task counts on its host until it registers or ends. Tasks without a
 * preferred host count nowhere until launched. An estimate only ranks ports
 * ({@link BottleneckFirstOrder}); it never grants bytes.
 *
 * <p>Not thread-safe: the coordinator calls it under its lock.
 */
final class PendingTasks {
  /** One stage attempt: pending tasks per host, registered tasks and bytes. */
  private static final class Stage {
    final Map<String, Double> pending = new HashMap<>();
    final Map<String, Set<Long>> tasksOn = new HashMap<>();
    final Map<String, Long> bytesTo = new HashMap<>();
    final Map<String, Long> bytesFrom = new HashMap<>();
    final Set<Long> tasks = new HashSet<>();
    /** Launched tasks that have not registered a demand yet: task attempt id -> host. */
    final Map<Long, String> awaiting = new HashMap<>();
    long bytes;
  }

  private final Map<StageRef, Stage> stages = new HashMap<>();

  /**
   * A stage attempt was submitted.
   *
   * @param stage the stage attempt
   * @param preferredHosts per task to run, its preferred hosts (empty: no preference)
   */
  void submitted(StageRef stage, List<List<String>> preferredHosts) {
    Stage s = stages.computeIfAbsent(stage, x -> new Stage());
    for (List<String> hosts : preferredHosts) {
      Set<String> distinct = new HashSet<>(hosts);
      for (String h : distinct) {
        s.pending.merge(h, 1.0 / distinct.size(), Double::sum);
      }
    }
  }

  /**
   * A task of the stage was launched on {@code host}: one task fewer pending there (or, if none
   * preferred it, spread over the hosts still pending); it counts on {@code host} until it
   * registers its demand or ends.
   *
   * @param stage the stage attempt
   * @param host the task's host
   * @param taskAttemptId the task
   */
  void launched(StageRef stage, String host, long taskAttemptId) {
    Stage s = stages.get(stage);
    if (s == null) {
      return;
    }
    if (!s.tasks.contains(taskAttemptId)) {
      s.awaiting.put(taskAttemptId, host);
    }
    if (s.pending.isEmpty()) {
      return;
    }
    double left = 1;
    Double here = s.pending.get(host);
    if (here != null) {
      double take = Math.min(here, left);
      left -= take;
      put(s.pending, host, here - take);
    }
    if (left > 1e-9) {
      double total = s.pending.values().stream().mapToDouble(Double::doubleValue).sum();
      if (total > 0) {
        double f = Math.max(0, 1 - left / total);
        s.pending.replaceAll((h, v) -> v * f);
        s.pending.values().removeIf(v -> v <= 1e-9);
      }
    }
  }

  private static void put(Map<String, Double> m, String host, double v) {
    if (v <= 1e-9) {
      m.remove(host);
    } else {
      m.put(host, v);
    }
  }

  /**
   * A task of the stage registered a demand.
   *
   * @param stage the stage attempt
   * @param taskAttemptId the task
   * @param dst its host
   * @param src source hosts
   * @param bytes bytes per source host
   */
  void registered(StageRef stage, long taskAttemptId, String dst, String[] src, long[] bytes) {
    Stage s = stages.computeIfAbsent(stage, x -> new Stage());
    s.tasks.add(taskAttemptId);
    s.awaiting.remove(taskAttemptId);
    s.tasksOn.computeIfAbsent(dst, x -> new HashSet<>()).add(taskAttemptId);
    for (int i = 0; i < src.length; i++) {
      s.bytesTo.merge(dst, bytes[i], Long::sum);
      s.bytesFrom.merge(src[i], bytes[i], Long::sum);
      s.bytes += bytes[i];
    }
  }

  /** @param taskAttemptId a task that ended: it no longer counts as about to register */
  void ended(long taskAttemptId) {
    for (Stage s : stages.values()) {
      s.awaiting.remove(taskAttemptId);
    }
  }

  /**
   * @return hosts with a launched task of a stage with registered demand that has not registered
   *     yet (its registration is imminent), with the expected bytes of all that stage's tasks
   *     still to register there
   */
  Map<String, Double> awaitedReceivers() {
    Map<String, Double> out = new HashMap<>();
    for (Stage s : stages.values()) {
      Map<String, Double> expected = expected(s);
      for (String h : s.awaiting.values()) {
        Double b = expected.get(h);
        if (b != null) {
          out.merge(h, b, Math::max);
        }
      }
    }
    return out;
  }

  /** @param stage a stage attempt that completed (or was abandoned) */
  void done(StageRef stage) {
    stages.remove(stage);
  }

  /**
   * @return expected bytes of the pending tasks of every stage with registered demand, per
   *     receiving host
   */
  Map<String, Double> receiverBytes() {
    Map<String, Double> out = new HashMap<>();
    for (Stage s : stages.values()) {
      expected(s).forEach((h, b) -> out.merge(h, b, Double::sum));
    }
    return out;
  }

  /**
   * @return expected bytes of the pending tasks of every stage with registered demand, per
   *     sending host (each stage's pending bytes split as its registered bytes are)
   */
  Map<String, Double> senderBytes() {
    Map<String, Double> out = new HashMap<>();
    for (Stage s : stages.values()) {
      double pendingBytes = expected(s).values().stream().mapToDouble(Double::doubleValue).sum();
      for (Map.Entry<String, Long> e : s.bytesFrom.entrySet()) {
        out.merge(e.getKey(), pendingBytes * e.getValue() / s.bytes, Double::sum);
      }
    }
    return out;
  }

  /** @return per receiving host, the expected bytes of the stage's pending tasks there */
  private static Map<String, Double> expected(Stage s) {
    Map<String, Double> out = new HashMap<>();
    if (s.bytes == 0) {
      return out; // nothing registered yet: no estimate
    }
    Map<String, Double> count = new HashMap<>(s.pending);
    for (String h : s.awaiting.values()) {
      count.merge(h, 1.0, Double::sum);
    }
    double stageMean = (double) s.bytes / s.tasks.size();
    for (Map.Entry<String, Double> e : count.entrySet()) {
      Set<Long> on = s.tasksOn.get(e.getKey());
      double mean = on == null ? stageMean : (double) s.bytesTo.get(e.getKey()) / on.size();
      out.put(e.getKey(), e.getValue() * mean);
    }
    return out;
  }
}
