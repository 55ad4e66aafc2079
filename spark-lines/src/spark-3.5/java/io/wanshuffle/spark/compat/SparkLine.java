package io.wanshuffle.spark.compat;

import org.apache.spark.Aggregator;
import org.apache.spark.TaskContext;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.util.collection.ExternalSorter;
import scala.Option;
import scala.math.Ordering;

/** What the core needs that differs between Spark lines, for Spark 3.5. */
public final class SparkLine {
  /** The Spark line (major.minor) this jar is built for. */
  public static final String LINE = "3.5";

  private SparkLine() {}

  /**
   * The reduce side's sorter as this line's {@code BlockStoreShuffleReader.read()} builds it (no
   * partitioner).
   *
   * @param context the task
   * @param aggregator how values combine, or none
   * @param ordering the key ordering
   * @param serializer the shuffle's serializer (spills)
   * @return a new sorter
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  public static ExternalSorter<Object, Object, Object> sorter(
      TaskContext context, Option<Aggregator> aggregator, Option ordering, Serializer serializer) {
    Option<Ordering<Object>> o = ordering;
    return new ExternalSorter(context, aggregator, Option.empty(), o, serializer);
  }
}
