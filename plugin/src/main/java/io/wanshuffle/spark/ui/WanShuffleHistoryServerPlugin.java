package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.compat.ScalaCollections;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.status.AppHistoryServerPlugin;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;
import scala.collection.immutable.Seq;

/**
 * The History Server's hook (Spark's {@link AppHistoryServerPlugin}, registered by the plugin jar's
 * {@code META-INF/services} file): while an event log is replayed, a {@link
 * WanShuffleStatusListener} keeps the capture's events in the application's store; the WAN Shuffle
 * tab is added to an application's UI when the store holds a gated stage. The History Server finds
 * it when the plugin jar is on its class path ({@code SPARK_DAEMON_CLASSPATH}).
 */
public final class WanShuffleHistoryServerPlugin implements AppHistoryServerPlugin {
  @Override
  public Seq<SparkListener> createListeners(SparkConf conf, ElementTrackingStore store) {
    return ScalaCollections.toList(List.<SparkListener>of(new WanShuffleStatusListener(store)));
  }

  @Override
  public void setupUI(SparkUI ui) {
    if (WanShuffleStore.of(ui.store().store()).stageCount() > 0) {
      ui.attachTab(new WanShuffleTab(ui, ui.store().store()));
    }
  }
}
