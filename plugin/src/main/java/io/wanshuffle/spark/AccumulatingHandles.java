package io.wanshuffle.spark;

import io.wanshuffle.spark.reader.TaskAccumulators;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.sort.BypassMergeSortShuffleHandle;
import org.apache.spark.shuffle.sort.SerializedShuffleHandle;

/**
 * Shuffle handles that carry the reduce tasks' named accumulators ({@link TaskAccumulators}) to the
 * tasks: one subclass of each handle {@code SortShuffleManager} chooses (serialized, bypass-merge,
 * base), so that its writer choice is unchanged and the reader finds the accumulators in the
 * handle. A handle travels inside every task of its shuffle; Spark registers an accumulator with
 * the task that deserialises it.
 */
final class AccumulatingHandles {
  private AccumulatingHandles() {}

  /**
   * @param h the handle {@code SortShuffleManager.registerShuffle} chose
   * @param a the accumulators
   * @return a handle of the same kind, shuffle and dependency that carries {@code a}; {@code h}
   *     itself for any other kind of handle
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static ShuffleHandle wrap(ShuffleHandle h, TaskAccumulators a) {
    if (h instanceof SerializedShuffleHandle s) {
      return new Serialized(s.shuffleId(), s.dependency(), a);
    }
    if (h instanceof BypassMergeSortShuffleHandle b) {
      return new Bypass(b.shuffleId(), b.dependency(), a);
    }
    if (h.getClass() == BaseShuffleHandle.class) {
      BaseShuffleHandle b = (BaseShuffleHandle) h;
      return new Base(b.shuffleId(), b.dependency(), a);
    }
    return h;
  }

  /** A {@link SerializedShuffleHandle} with the accumulators. */
  static final class Serialized<K, V> extends SerializedShuffleHandle<K, V>
      implements TaskAccumulators.Carrier {
    private static final long serialVersionUID = 1L;
    private final TaskAccumulators accumulators;

    Serialized(int shuffleId, ShuffleDependency<K, V, V> dep, TaskAccumulators a) {
      super(shuffleId, dep);
      this.accumulators = a;
    }

    @Override
    public TaskAccumulators accumulators() {
      return accumulators;
    }
  }

  /** A {@link BypassMergeSortShuffleHandle} with the accumulators. */
  static final class Bypass<K, V> extends BypassMergeSortShuffleHandle<K, V>
      implements TaskAccumulators.Carrier {
    private static final long serialVersionUID = 1L;
    private final TaskAccumulators accumulators;

    Bypass(int shuffleId, ShuffleDependency<K, V, V> dep, TaskAccumulators a) {
      super(shuffleId, dep);
      this.accumulators = a;
    }

    @Override
    public TaskAccumulators accumulators() {
      return accumulators;
    }
  }

  /** A {@link BaseShuffleHandle} with the accumulators. */
  static final class Base<K, V, C> extends BaseShuffleHandle<K, V, C>
      implements TaskAccumulators.Carrier {
    private static final long serialVersionUID = 1L;
    private final TaskAccumulators accumulators;

    Base(int shuffleId, ShuffleDependency<K, V, C> dep, TaskAccumulators a) {
      super(shuffleId, dep);
      this.accumulators = a;
    }

    @Override
    public TaskAccumulators accumulators() {
      return accumulators;
    }
  }
}
