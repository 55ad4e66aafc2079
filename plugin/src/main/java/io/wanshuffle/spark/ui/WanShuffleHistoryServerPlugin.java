package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.compat.LineCheck;
import io.wanshuffle.spark.compat.ScalaCollections;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.status.AppHistoryServerPlugin;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.immutable.Seq;

/**
 * The History Server's hook (Spark's {@link AppHistoryServerPlugin}, registered by the plugin jar's
 * {@code META-INF/services} file): while an event log is replayed, a {@link
 * WanShuffleStatusListener} keeps the capture's events in the application's store; the WAN Shuffle
 * tab is added to an application's UI when the store holds a gated stage or an executor host
 * checked against the topology. The History Server finds it when the plugin jar is on its class
 * path ({@code SPARK_DAEMON_CLASSPATH}).
 *
 * <p>A jar built for another Spark line ({@link LineCheck}) adds nothing: the History Server logs
 * one error naming both versions and the jar to use, and replays every application without the tab.
 */
public final class WanShuffleHistoryServerPlugin implements AppHistoryServerPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleHistoryServerPlugin.class);

  /** The line check's message when this jar is not for the running Spark, logged once. */
  private static final Optional<String> MISMATCH = logged(LineCheck.mismatch());

  private static Optional<String> logged(Optional<String> mismatch) {
    mismatch.ifPresent(m -> LOG.error("{}; the WAN Shuffle tab is not added", m));
    return mismatch;
  }

  @Override
  public Seq<SparkListener> createListeners(SparkConf conf, ElementTrackingStore store) {
    if (MISMATCH.isPresent()) {
      return ScalaCollections.toList(List.of());
    }
    return ScalaCollections.toList(List.<SparkListener>of(new WanShuffleStatusListener(store)));
  }

  @Override
  public void setupUI(SparkUI ui) {
    if (MISMATCH.isEmpty()
        && (WanShuffleStore.of(ui.store().store()).stageCount() > 0
            || !WanShuffleStore.hosts(ui.store().store()).isEmpty())) {
      ui.attachTab(new WanShuffleTab(ui, ui.store().store()));
    }
  }
}
