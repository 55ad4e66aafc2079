package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Places tasks on chosen hosts, for example map tasks on cluster A and reduce tasks on cluster B,
 * so a shuffle crosses the backbone: partitions carry preferred locations, {@link
 * #configure(SparkConf)} makes the scheduler wait for them ({@code spark.locality.wait=1h}) and
 * turns off Spark's own reduce-side locality preference ({@code
 * spark.shuffle.reduceLocality.enabled=false}), which would otherwise pull reduce tasks towards the
 * biggest map outputs.
 */
public final class Placement {
  private Placement() {}

  /**
   * Sets the scheduler keys that make preferred locations binding.
   *
   * @param conf driver configuration, changed in place
   * @return {@code conf}
   */
  public static SparkConf configure(SparkConf conf) {
    return conf.set("spark.locality.wait", "1h")
        .set("spark.shuffle.reduceLocality.enabled", "false");
  }

  /**
   * An RDD of {@code n} partitions holding the single integer {@code i} in partition {@code i},
   * partition {@code i} preferring {@code hosts.get(i % hosts.size())}: a seed for generating
   * map-side data on chosen hosts.
   *
   * @param jsc the driver
   * @param n number of partitions (at least 1)
   * @param hosts executor hosts (node addresses), not empty
   * @return the seed RDD
   */
  public static JavaRDD<Integer> seeds(JavaSparkContext jsc, int n, List<String> hosts) {
    if (n < 1 || hosts.isEmpty()) {
      throw new IllegalArgumentException("need n >= 1 and at least one host");
    }
    return preferring(jsc, n, i -> List.of(hosts.get(i % hosts.size())));
  }

  /**
   * @return partitions 0..n-1, partition i holding i and preferring {@code hostsOf.apply(i)}
   */
  private static JavaRDD<Integer> preferring(
      JavaSparkContext jsc, int n, java.util.function.IntFunction<List<String>> hostsOf) {
    List<Tuple2<Integer, scala.collection.immutable.Seq<String>>> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(new Tuple2<>(i, CollectionConverters.asScala(hostsOf.apply(i)).toList()));
    }
    ClassTag<Integer> tag = ClassTag$.MODULE$.apply(Integer.class);
    return JavaRDD.fromRDD(
        jsc.sc().makeRDD(CollectionConverters.asScala(items).toList(), tag), tag);
  }

  /**
   * The same records as {@code rdd}, partition by partition, but each partition computed on {@code
   * hosts.get(i % hosts.size())}: put after a shuffle, this places the reduce tasks (the shuffle is
   * read inside the pinned task).
   *
   * @param jsc the driver
   * @param rdd any RDD, typically a shuffled one
   * @param hosts executor hosts, not empty
   * @param <T> record type
   * @return an RDD with the same partitions and records, pinned to {@code hosts}
   */
  public static <T> JavaRDD<T> onHosts(JavaSparkContext jsc, JavaRDD<T> rdd, List<String> hosts) {
    return seeds(jsc, rdd.getNumPartitions(), hosts).zipPartitions(rdd, (pin, it) -> it);
  }

  /**
   * The same records as {@code rdd}, every partition preferring all of {@code hosts}: the scheduler
   * may run a partition (and a speculative copy of it, which Spark never places on the host of the
   * running attempt) on any of them, and nowhere else.
   *
   * @param jsc the driver
   * @param rdd any RDD, typically a shuffled one
   * @param hosts executor hosts, not empty
   * @param <T> record type
   * @return an RDD with the same partitions and records, placed on {@code hosts}
   */
  public static <T> JavaRDD<T> onAnyOf(JavaSparkContext jsc, JavaRDD<T> rdd, List<String> hosts) {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("need at least one host");
    }
    return preferring(jsc, rdd.getNumPartitions(), i -> hosts).zipPartitions(rdd, (pin, it) -> it);
  }
}
