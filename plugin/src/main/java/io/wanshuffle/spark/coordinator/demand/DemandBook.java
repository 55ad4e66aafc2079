package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The registered demands of the running stages, in registration order, indexed by id and by task
 * attempt: the first role on the coordinator's data path (demand book, then demand matrix, planner,
 * step assembler, step tracker). A demand enters with {@link #add} and leaves with {@link #forget}
 * when its task fetched everything, ended, failed, lost its executor or its stage completed; the
 * lookups below name those cases.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class DemandBook {
  /** By id; ids increase with registration, so id order is registration order. */
  private final NavigableMap<Long, Demand> demands = new TreeMap<>();

  private final Map<Long, Set<Long>> byTask = new HashMap<>();
  private long nextId = 1;

  /**
   * Registers a reduce task attempt's demand under a new id (ids increase from 1).
   *
   * @param m the registration: stage, shuffle, task, executor, receiving host, bytes per source
   * @return the new demand
   */
  public Demand add(RegisterDemand m) {
    Demand d =
        new Demand(
            nextId++,
            new StageRef(m.stageId(), m.stageAttempt()),
            m.shuffleId(),
            m.taskAttemptId(),
            m.executorId(),
            m.dstHost(),
            m.srcHosts(),
            m.bytes());
    demands.put(d.id(), d);
    byTask.computeIfAbsent(d.taskAttemptId(), t -> new LinkedHashSet<>()).add(d.id());
    return d;
  }

  /**
   * @param id a demand id
   * @return the demand, or null when unknown or forgotten
   */
  public Demand get(long id) {
    return demands.get(id);
  }

  /**
   * @return every demand, in registration order (a live view: do not change the book while
   *     iterating it)
   */
  public Collection<Demand> all() {
    return Collections.unmodifiableCollection(demands.values());
  }

  /**
   * The registered demands not in a residual traffic matrix read from this book, without scanning
   * the book: those read for it but left out and those registered after it was read. O(those
   * demands x log demands).
   *
   * @param unplannedIds the ids of the demands read for the matrix but left out of it
   * @param readUpTo the largest demand id read for it (0 when none)
   * @return those demands still in the book, in registration order
   */
  public List<Demand> notIn(long[] unplannedIds, long readUpTo) {
    List<Demand> out = new ArrayList<>();
    for (long id : unplannedIds) {
      Demand d = demands.get(id);
      if (d != null) {
        out.add(d);
      }
    }
    out.addAll(demands.tailMap(readUpTo, false).values());
    return out;
  }

  /**
   * @return demands in the book
   */
  public int size() {
    return demands.size();
  }

  /**
   * @param taskAttemptId Spark's task attempt id
   * @return how many demands of the task are in the book
   */
  public int countOfTask(long taskAttemptId) {
    Set<Long> ids = byTask.get(taskAttemptId);
    return ids == null ? 0 : ids.size();
  }

  /**
   * @param taskAttemptId Spark's task attempt id
   * @return the task's demands, in registration order (a copy)
   */
  public List<Demand> ofTask(long taskAttemptId) {
    Set<Long> ids = byTask.get(taskAttemptId);
    List<Demand> out = new ArrayList<>();
    if (ids != null) {
      for (Long id : ids) {
        out.add(demands.get(id));
      }
    }
    return out;
  }

  /**
   * @param executorId an executor
   * @return the demands of tasks that ran on it (a copy)
   */
  public List<Demand> ofExecutor(String executorId) {
    return matching(d -> d.executorId().equals(executorId));
  }

  /**
   * @param stage a stage attempt
   * @return its demands (a copy)
   */
  public List<Demand> ofStage(StageRef stage) {
    return matching(d -> d.stage().equals(stage));
  }

  /**
   * @return the stage attempts with a demand in the book
   */
  public Set<StageRef> stages() {
    Set<StageRef> out = new HashSet<>();
    for (Demand d : demands.values()) {
      out.add(d.stage());
    }
    return out;
  }

  /**
   * Removes a demand (no-op when already removed).
   *
   * @param d the demand
   */
  public void forget(Demand d) {
    demands.remove(d.id());
    Set<Long> ids = byTask.get(d.taskAttemptId());
    if (ids != null) {
      ids.remove(d.id());
      if (ids.isEmpty()) {
        byTask.remove(d.taskAttemptId());
      }
    }
  }

  private List<Demand> matching(Predicate<Demand> p) {
    List<Demand> out = new ArrayList<>();
    for (Demand d : demands.values()) {
      if (p.test(d)) {
        out.add(d);
      }
    }
    return out;
  }
}
