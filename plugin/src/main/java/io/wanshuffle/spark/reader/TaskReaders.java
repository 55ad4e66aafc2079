package io.wanshuffle.spark.reader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.TaskContext;

/**
 * The gated readers of each running task of one executor, so that a reader about to wait for a
 * grant can tell the task's other readers to stand aside: a task that reads two shuffles (cogroup,
 * sort-merge join) consumes one at a time on its task thread, and a grant to the shuffle it is not
 * reading would hold flows (k, δ) that the shuffle it waits on needs.
 *
 * <p>Keyed by the {@link TaskContext} object, weakly, so a task that never completes leaks nothing.
 * A task's list is only touched from that task's thread; the map from any thread. Owned by the
 * executor's {@link ReaderContext}.
 */
final class TaskReaders {
  /** A reader that can be told to stand aside. */
  interface Reader {
    /**
     * Called on the task thread by another reader of the same task that is about to wait for a
     * grant.
     */
    void standAside();
  }

  private final Map<TaskContext, List<Reader>> byTask =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * @param context the task
   * @param reader a reader of the task that started reading
   */
  void add(TaskContext context, Reader reader) {
    byTask.computeIfAbsent(context, c -> new ArrayList<>()).add(reader);
  }

  /**
   * @param context the task that ended; forgets its readers
   */
  void remove(TaskContext context) {
    byTask.remove(context);
  }

  /**
   * @param context the task
   * @param reader the reader about to wait
   * @return the task's other readers (a copy; empty when none)
   */
  List<Reader> siblings(TaskContext context, Reader reader) {
    List<Reader> all = byTask.get(context);
    if (all == null || all.size() < 2) {
      return List.of();
    }
    List<Reader> out = new ArrayList<>(all);
    out.remove(reader);
    return out;
  }

  /**
   * @return tasks with a registered reader
   */
  int tasks() {
    return byTask.size();
  }

  /** Forgets every task's readers (the executor stops). */
  void clear() {
    byTask.clear();
  }
}
