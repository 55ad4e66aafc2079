package io.wanshuffle.spark;

import io.wanshuffle.spark.reader.TaskAccumulators;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleHandle;

/**
 * The shuffle handle that carries the reduce tasks' named accumulators ({@link TaskAccumulators})
 * to the tasks, around the handle {@code SortShuffleManager.registerShuffle} chose (serialized,
 * bypass-merge or base). {@link WanShuffleManager} hands Spark's writer and reader the chosen
 * handle ({@link #chosen}), so the writer choice is Spark's; its gated reader finds the
 * accumulators in this one. A handle travels inside every task of its shuffle; Spark registers an
 * accumulator with the task that deserialises it.
 *
 * @param <K> key type
 * @param <V> value type
 * @param <C> combiner type
 */
final class AccumulatingHandle<K, V, C> extends BaseShuffleHandle<K, V, C>
    implements TaskAccumulators.Carrier {
  private static final long serialVersionUID = 2L;

  private final ShuffleHandle chosen;
  private final TaskAccumulators accumulators;

  private AccumulatingHandle(
      ShuffleHandle chosen, ShuffleDependency<K, V, C> dep, TaskAccumulators accumulators) {
    super(chosen.shuffleId(), dep);
    this.chosen = chosen;
    this.accumulators = accumulators;
  }

  /**
   * @param chosen the handle {@code SortShuffleManager.registerShuffle} chose for {@code dep}
   * @param dep the shuffle's dependency
   * @param accumulators the reduce tasks' accumulators
   * @return a handle of the same shuffle and dependency that carries {@code accumulators}
   */
  static <K, V, C> ShuffleHandle wrap(
      ShuffleHandle chosen, ShuffleDependency<K, V, C> dep, TaskAccumulators accumulators) {
    return new AccumulatingHandle<>(chosen, dep, accumulators);
  }

  /**
   * @param h a handle this manager registered
   * @return the handle Spark's sort shuffle chose: {@code h} itself unless it carries accumulators
   */
  static ShuffleHandle chosen(ShuffleHandle h) {
    return h instanceof AccumulatingHandle<?, ?, ?> a ? a.chosen : h;
  }

  @Override
  public TaskAccumulators accumulators() {
    return accumulators;
  }
}
