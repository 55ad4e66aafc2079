package io.wanshuffle.spark.ui;

import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.status.ElementTrackingStore;

/**
 * {@code AppHistoryServerPlugin.createListeners} as Scala 2.12's Spark declares it (returning a
 * {@code scala.collection.Seq}; Scala 2.13's returns a {@code scala.collection.immutable.Seq}).
 * {@link WanShuffleHistoryServerPlugin} implements it so that the compiler adds a bridge with this
 * return type to the Scala 2.13 jar (the Scala 2.12 jar has it as the interface's): a History
 * Server of either Scala version then reaches the plugin's line check instead of failing with an
 * {@link AbstractMethodError}.
 */
interface HistoryPluginScala212Shape {
  /**
   * @param conf the History Server's configuration
   * @param store the replayed application's status store
   * @return the listeners to replay the event log into
   */
  scala.collection.Seq<SparkListener> createListeners(SparkConf conf, ElementTrackingStore store);
}
