package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.HostIndex;
import io.wanshuffle.spark.measure.PlannedFlow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reduce tasks of the running stages that the driver has not launched yet, by the host they
 * prefer, and the cross-cluster bytes they are expected to fetch: a later wave's demand before it
 * registers.
 *
 * <p>Why: pipelined steps hand free ports to the most-loaded ports first, and a port's load is the
 * bytes its registered demands still have to move. With more reduce tasks than task slots, a
 * receiving host's next tasks register only when its running ones end, so a host with much work
 * still to come looks as loaded as its running task; its last flows then wait behind lighter hosts'
 * and the stage ends with that host receiving alone
 * (docs/benchmarks/2026-11-22-coordinator-port-order.md). Spark tells which hosts the pending tasks
 * prefer ({@code StageInfo.taskLocalityPreferences} at stage submission; a task with n preferred
 * hosts counts 1/n on each), and each task's launch host; the bytes of a pending task on host h are
 * estimated as the mean registered bytes of the stage's tasks on h so far (the stage's mean over
 * all hosts before any task on h registered), split over sending hosts as the registered bytes of
 * the stage's tasks on h are (as the stage's before any); a launched task counts on its host until
 * it registers or ends. Tasks without a preferred host count nowhere until launched. An estimate
 * only ranks ports ({@code plan.BottleneckFirstOrder}); it never grants bytes.
 *
 * <p>For the prediction of a stage's transfer phase ({@link #forecast}), the stage's tasks without
 * a place yet (no preferred host, not launched) count too, spread over the receiving hosts as the
 * registered tasks are.
 *
 * <p>Not thread-safe: the coordinator calls it under its lock.
 */
public final class PendingTasks {
  /**
   * What the pending tasks are expected to fetch, from one pass over the stages: per receiving host
   * ({@link #receivers}), per sending host ({@link #senders}), and per host about to register a
   * task of a stage ({@link #awaited}: a host with a launched task not registered yet, or one whose
   * task has fetched all its cross-cluster bytes but not ended while tasks preferring the host are
   * still to launch; its slot frees within the task's last computation, and the next task launches
   * there). Bytes.
   */
  public static final class Estimate {
    private final Map<String, Double> receivers;
    private final Map<String, Double> awaited;
    private final Map<String, Double> sendersKnown;
    private final List<WeightedRow> rows;
    private final String[] hostNames;
    private Map<String, Double> senders;

    /**
     * @param receivers per receiving host, expected bytes
     * @param senders per sending host, expected bytes
     * @param awaited per host about to register a task, expected bytes
     */
    public Estimate(
        Map<String, Double> receivers, Map<String, Double> senders, Map<String, Double> awaited) {
      this(receivers, senders, List.of(), new String[0], awaited);
    }

    private Estimate(
        Map<String, Double> receivers,
        Map<String, Double> sendersKnown,
        List<WeightedRow> rows,
        String[] hostNames,
        Map<String, Double> awaited) {
      this.receivers = receivers;
      this.hostNames = hostNames;
      this.sendersKnown = sendersKnown;
      this.rows = rows;
      this.awaited = awaited;
      this.senders = rows.isEmpty() ? sendersKnown : null;
    }

    /**
     * @return per receiving host, expected bytes of the tasks still to launch or register
     */
    public Map<String, Double> receivers() {
      return receivers;
    }

    /**
     * The split over sending hosts is summed on first use, off the coordinator's lock: the
     * registered rows it reads are never changed once read (a registration replaces its host's
     * row).
     *
     * @return per sending host, the same bytes split as the registered bytes of each stage's tasks
     *     on their receiving host are
     */
    public synchronized Map<String, Double> senders() {
      if (senders == null) {
        double[] sum = new double[hostNames.length];
        boolean[] seen = new boolean[hostNames.length];
        for (WeightedRow w : rows) {
          int[] src = w.row().src();
          long[] bytes = w.row().bytes();
          double weight = w.weight();
          for (int e = 0; e < src.length; e++) {
            sum[src[e]] += weight * bytes[e];
            seen[src[e]] = true;
          }
        }
        Map<String, Double> out = new HashMap<>(sendersKnown);
        for (int id = 0; id < sum.length; id++) {
          if (seen[id]) {
            out.merge(hostNames[id], sum[id], Double::sum);
          }
        }
        senders = out;
      }
      return senders;
    }

    /**
     * @return per host about to register a task of a stage, the expected bytes of that stage's
     *     tasks still to register there
     */
    public Map<String, Double> awaited() {
      return awaited;
    }
  }

  /**
   * A receiving host's registered bytes by sending host, and the factor that turns them into the
   * host's expected bytes.
   */
  private record WeightedRow(double weight, Row row) {}

  /**
   * A receiving host's registered bytes by sending host, as arrays: sending host ids ({@link
   * #hostIds}) and their bytes. Never changed once built.
   */
  private record Row(int[] src, long[] bytes) {}

  /**
   * The tasks of one stage attempt still to launch or register ({@link #forecast}).
   *
   * @param tasks per receiving host, the expected number of such tasks there (fractional)
   * @param taskBytes per receiving host, the bytes one such task is expected to fetch from each
   *     sending host
   */
  record Forecast(Map<String, Double> tasks, Map<String, Map<String, Double>> taskBytes) {
    /** No task expected. */
    static final Forecast EMPTY = new Forecast(Map.of(), Map.of());

    /**
     * @param limit the most transfers to list one by one
     * @return one flow per expected task and sending host, bytes rounded: a host's whole tasks each
     *     at its per-task bytes, then one flow per sender for its fractional rest of a task (bytes
     *     x the fraction); hosts in name order, so the result does not depend on map order. When
     *     that would list more than {@code limit} flows (a stage of tens of thousands of tasks
     *     still to launch), one flow per receiving and sending host instead, carrying all its
     *     expected tasks' bytes and their number of transfers ({@link PlannedFlow#transfers}), so
     *     the forecast's size grows with the host pairs, not with the tasks
     */
    List<PlannedFlow> flows(int limit) {
      long listed = 0;
      for (Map.Entry<String, Double> e : tasks.entrySet()) {
        listed +=
            (long) Math.ceil(e.getValue() - 1e-9)
                * taskBytes.getOrDefault(e.getKey(), Map.of()).size();
      }
      boolean summed = listed > limit;
      List<PlannedFlow> out = new ArrayList<>();
      for (String h : new TreeSet<>(tasks.keySet())) {
        double c = tasks.get(h);
        Map<String, Double> per = new TreeMap<>(taskBytes.getOrDefault(h, Map.of()));
        if (summed) {
          int transfers = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(c - 1e-9)));
          for (Map.Entry<String, Double> e : per.entrySet()) {
            long b = Math.round(e.getValue() * c);
            if (b > 0) {
              out.add(new PlannedFlow(e.getKey(), h, b, transfers));
            }
          }
          continue;
        }
        int whole = (int) Math.floor(c + 1e-9);
        double rest = c - whole;
        for (int t = 0; t <= whole; t++) {
          double f = t < whole ? 1 : rest;
          for (Map.Entry<String, Double> e : per.entrySet()) {
            long b = Math.round(e.getValue() * f);
            if (b > 0) {
              out.add(new PlannedFlow(e.getKey(), h, b));
            }
          }
        }
      }
      return out;
    }
  }

  /** One stage attempt: pending tasks per host, registered tasks and bytes. */
  private static final class Stage {
    final Map<String, Double> pending = new HashMap<>();

    /** Registered tasks per receiving host. */
    final Map<String, Integer> tasksOn = new HashMap<>();

    final Map<String, Long> bytesTo = new HashMap<>();
    final Map<String, Long> bytesFrom = new HashMap<>();

    /**
     * Registered bytes per receiving host, by sending host; a row is replaced, never changed, when
     * a task registers (an {@link Estimate} reads rows off the lock).
     */
    final Map<String, Map<String, Long>> bytesFromTo = new HashMap<>();

    /** {@link #bytesFromTo}'s rows as arrays, for the estimate's split over senders. */
    final Map<String, Row> rowTo = new HashMap<>();

    final Set<Long> tasks = new HashSet<>();

    /** Tasks launched or registered, whichever was seen first. */
    final Set<Long> seen = new HashSet<>();

    /** Tasks of the attempt (StageInfo's), -1 when it was not submitted. */
    int numTasks = -1;

    /** Launched tasks that have not registered a demand yet: task attempt id -> host. */
    final Map<Long, String> awaiting = new HashMap<>();

    /**
     * Registered tasks that fetched all their cross-cluster bytes and have not ended: id -> host.
     */
    final Map<Long, String> fetched = new HashMap<>();

    long bytes;
  }

  /**
   * Pending tasks a host needs (tasks with several preferred hosts count 1/n on each) for a task of
   * its that fetched all its bytes to make the host await its next task.
   */
  static final double NEXT_TASK = 0.5;

  private final Map<StageRef, Stage> stages = new HashMap<>();

  /** Ids of the sending hosts of registered rows. */
  private final HostIndex hostIds = new HostIndex();

  /**
   * A stage attempt was submitted.
   *
   * @param stage the stage attempt
   * @param preferredHosts per task to run, its preferred hosts (empty: no preference)
   */
  void submitted(StageRef stage, List<List<String>> preferredHosts) {
    Stage s = stages.computeIfAbsent(stage, x -> new Stage());
    s.numTasks = preferredHosts.size();
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
    s.seen.add(taskAttemptId);
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
    if (s.tasks.add(taskAttemptId)) {
      s.tasksOn.merge(dst, 1, Integer::sum);
    }
    s.seen.add(taskAttemptId);
    s.awaiting.remove(taskAttemptId);
    s.bytesTo.putIfAbsent(dst, 0L);
    if (src.length == 0) {
      return;
    }
    // a new row, never the one an earlier estimate may still read off the lock
    Map<String, Long> row = new HashMap<>(s.bytesFromTo.getOrDefault(dst, Map.of()));
    for (int i = 0; i < src.length; i++) {
      s.bytesTo.merge(dst, bytes[i], Long::sum);
      s.bytesFrom.merge(src[i], bytes[i], Long::sum);
      row.merge(src[i], bytes[i], Long::sum);
      s.bytes += bytes[i];
    }
    s.bytesFromTo.put(dst, row);
    int[] ids = new int[row.size()];
    long[] b = new long[row.size()];
    int n = 0;
    for (Map.Entry<String, Long> e : row.entrySet()) {
      ids[n] = hostIds.id(e.getKey());
      b[n++] = e.getValue();
    }
    s.rowTo.put(dst, new Row(ids, b));
  }

  /**
   * A task of a submitted stage said its read has no cross-cluster bytes: it counts as a registered
   * task with 0 bytes on its host (so the stage's pending tasks there are expected to fetch less)
   * and is no longer awaited. Ignored for a stage not submitted or already done.
   *
   * @param stage the stage attempt
   * @param taskAttemptId the task
   * @param host its host
   */
  void noCrossClusterBytes(StageRef stage, long taskAttemptId, String host) {
    if (stages.containsKey(stage)) {
      registered(stage, taskAttemptId, host, new String[0], new long[0]);
    }
  }

  /**
   * A registered task has fetched all its cross-cluster bytes (its last demand finished): its host
   * runs the stage's next task preferring it as soon as this one ends.
   *
   * @param stage the stage attempt
   * @param taskAttemptId the task
   * @param host its host
   */
  void fetched(StageRef stage, long taskAttemptId, String host) {
    Stage s = stages.get(stage);
    if (s != null && s.tasks.contains(taskAttemptId)) {
      s.fetched.put(taskAttemptId, host);
    }
  }

  /**
   * @param taskAttemptId a task that ended: it no longer counts as about to register or end
   */
  void ended(long taskAttemptId) {
    for (Stage s : stages.values()) {
      s.awaiting.remove(taskAttemptId);
      s.fetched.remove(taskAttemptId);
    }
  }

  /**
   * @param stage a stage attempt that completed (or was abandoned)
   */
  void done(StageRef stage) {
    stages.remove(stage);
  }

  /**
   * @return what the tasks of every stage with registered demand that are still to launch or to
   *     register are expected to fetch, per receiving and sending host, and the hosts awaiting a
   *     launched task's registration
   */
  Estimate estimate() {
    Map<String, Double> receivers = new HashMap<>();
    Map<String, Double> senders = new HashMap<>();
    List<WeightedRow> rows = new ArrayList<>();
    Map<String, Double> awaited = new HashMap<>();
    for (Stage s : stages.values()) {
      Map<String, Double> expected = expected(s);
      double unregistered = 0;
      for (Map.Entry<String, Double> e : expected.entrySet()) {
        receivers.merge(e.getKey(), e.getValue(), Double::sum);
        // split over senders as the host's registered tasks fetch (the stage's tasks before any)
        Row from = s.rowTo.get(e.getKey());
        if (from == null) {
          unregistered += e.getValue();
        } else {
          long total = s.bytesTo.get(e.getKey());
          if (total > 0) {
            rows.add(new WeightedRow(e.getValue() / total, from));
          }
        }
      }
      if (unregistered > 0 && s.bytes > 0) {
        for (Map.Entry<String, Long> f : s.bytesFrom.entrySet()) {
          senders.merge(f.getKey(), unregistered * f.getValue() / s.bytes, Double::sum);
        }
      }
      for (String h : s.awaiting.values()) {
        Double b = expected.get(h);
        if (b != null) {
          awaited.merge(h, b, Math::max);
        }
      }
      for (String h : s.fetched.values()) {
        Double b = expected.get(h);
        if (b != null && s.pending.getOrDefault(h, 0.0) >= NEXT_TASK) {
          awaited.merge(h, b, Math::max);
        }
      }
    }
    return new Estimate(receivers, senders, rows, hostIds.hosts(), awaited);
  }

  /**
   * What the tasks of one stage attempt that are still to launch or register are expected to fetch,
   * as tasks: per receiving host the expected number of such tasks and the bytes one of them
   * fetches from each sending host.
   *
   * <p>The count on host h is the tasks preferring h still to launch, plus the tasks launched on h
   * and not registered, plus the tasks of the attempt without a place yet (StageInfo's task count
   * minus the tasks launched or registered minus the tasks still pending on a preferred host)
   * spread over the receiving hosts as the registered tasks are. One task on h fetches the mean
   * registered bytes of the stage's tasks on h (the stage's mean when none registered there), split
   * over sending hosts as h's registered bytes are (as the stage's when none). Spreading the
   * unplaced tasks by registered tasks at each host's mean gives each host the unplaced tasks x the
   * stage's mean x the host's share of the registered bytes.
   *
   * @param stage a stage attempt
   * @return the forecast; empty when the stage is unknown or registered no bytes yet
   */
  Forecast forecast(StageRef stage) {
    Stage s = stages.get(stage);
    if (s == null || s.bytes == 0) {
      return Forecast.EMPTY;
    }
    Map<String, Double> count = new HashMap<>(s.pending);
    for (String h : s.awaiting.values()) {
      count.merge(h, 1.0, Double::sum);
    }
    double placed = s.pending.values().stream().mapToDouble(Double::doubleValue).sum();
    double unplaced = s.numTasks < 0 ? 0 : Math.max(0, s.numTasks - s.seen.size() - placed);
    if (unplaced > 0) {
      for (Map.Entry<String, Integer> e : s.tasksOn.entrySet()) {
        count.merge(e.getKey(), unplaced * e.getValue() / s.tasks.size(), Double::sum);
      }
    }
    double stageMean = (double) s.bytes / s.tasks.size();
    Map<String, Map<String, Double>> perTask = new HashMap<>();
    for (String h : count.keySet()) {
      Integer on = s.tasksOn.get(h);
      double mean = on == null ? stageMean : (double) s.bytesTo.get(h) / on;
      Map<String, Long> from = s.bytesFromTo.get(h);
      Map<String, Long> split = from == null || on == null ? s.bytesFrom : from;
      double total = from == null || on == null ? s.bytes : s.bytesTo.get(h);
      Map<String, Double> bytes = new HashMap<>();
      if (total > 0) {
        for (Map.Entry<String, Long> f : split.entrySet()) {
          double b = mean * f.getValue() / total;
          if (b > 0) {
            bytes.put(f.getKey(), b);
          }
        }
      }
      perTask.put(h, bytes);
    }
    count.values().removeIf(v -> v <= 1e-9);
    perTask.keySet().retainAll(count.keySet());
    return new Forecast(count, perTask);
  }

  /**
   * @return per receiving host, the expected bytes of the stage's pending tasks there
   */
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
      Integer on = s.tasksOn.get(e.getKey());
      double mean = on == null ? stageMean : (double) s.bytesTo.get(e.getKey()) / on;
      out.put(e.getKey(), e.getValue() * mean);
    }
    return out;
  }
}
