package io.wanshuffle.spark.reader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.TaskContext;

/**
 * The gated readers of each running task, so that a reader about to wait for a grant can tell the
 * task's other readers to stand aside: a task that reads two shuffles (cogroup, sort-merge join)
 * consumes one at a time on its task thread, and a grant to the shuffle it is not reading would
 * hold flows (k, δ) that the shuffle it waits on needs.
 *
 * <p>Keyed by the {@link TaskContext} object (weakly, so a task that never completes leaks
 * nothing); the lists are only touched from the task's thread, the map from any.
 */
final class TaskReaders {
  private static final Map<TaskContext, List<GatedBlockIterator>> BY_TASK =
      Collections.synchronizedMap(new WeakHashMap<>());

  private TaskReaders() {}

  /**
   * @param context the task
   * @param reader a reader of the task that started reading
   */
  static void add(TaskContext context, GatedBlockIterator reader) {
    BY_TASK.computeIfAbsent(context, c -> new ArrayList<>()).add(reader);
  }

  /**
   * @param context the task that ended; forgets its readers
   */
  static void remove(TaskContext context) {
    BY_TASK.remove(context);
  }

  /**
   * @param context the task
   * @param reader the reader about to wait
   * @return the task's other readers (a copy; empty when none)
   */
  static List<GatedBlockIterator> siblings(TaskContext context, GatedBlockIterator reader) {
    List<GatedBlockIterator> all = BY_TASK.get(context);
    if (all == null || all.size() < 2) {
      return List.of();
    }
    List<GatedBlockIterator> out = new ArrayList<>(all);
    out.remove(reader);
    return out;
  }
}
