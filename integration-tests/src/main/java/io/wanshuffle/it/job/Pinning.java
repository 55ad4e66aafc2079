package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;

/**
 * Places tasks on chosen hosts (map side on cluster A, reduce side on cluster B): partitions carry preferred
 * locations, which the scheduler honours with {@code spark.locality.wait=1h} and
 * {@code spark.shuffle.reduceLocality.enabled=false}.
 */
final class Pinning {
  private Pinning() {}

  /** @return {@code n} partitions, partition i holding the integer i and preferring {@code hosts[i % size]} */
  static JavaRDD<Integer> seeds(JavaSparkContext jsc, int n, List<String> hosts) {
    List<Tuple2<Integer, scala.collection.immutable.Seq<String>>> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(new Tuple2<>(i, CollectionConverters.asScala(List.of(hosts.get(i % hosts.size()))).toList()));
    }
    ClassTag<Integer> tag = scala.reflect.ClassTag$.MODULE$.apply(Integer.class);
    return JavaRDD.fromRDD(jsc.sc().makeRDD(CollectionConverters.asScala(items).toList(), tag), tag);
  }
}
