package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.CapturedEvents;
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

/**
 * The History Server's hook (Spark's {@link AppHistoryServerPlugin}, registered by the plugin jar's
 * {@code META-INF/services} file): while an event log is replayed, a {@link
 * WanShuffleStatusListener} keeps the capture's events in the application's store; the WAN Shuffle
 * tab is added to an application's UI when the store holds a gated stage, a link's window or share
 * that moved, or an executor host checked against the topology. The History Server finds it when
 * the plugin jar is on its class path ({@code SPARK_DAEMON_CLASSPATH}).
 *
 * <p>A jar built for another Spark line or Scala version ({@link LineCheck}) adds nothing: the
 * History Server logs one error naming both versions and the jar to use, and replays every
 * application without the tab. So that the check runs in a History Server of the other Scala
 * version too, {@link #createListeners} answers in both Scala shapes of the interface (a {@code
 * scala.collection.immutable.Seq}, Scala 2.13's, and a {@code scala.collection.Seq}, Scala 2.12's,
 * through {@link HistoryPluginScala212Shape}'s bridge), and its answer for a mismatch is Scala's
 * empty list, which both versions have.
 */
public final class WanShuffleHistoryServerPlugin
    implements AppHistoryServerPlugin, HistoryPluginScala212Shape {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleHistoryServerPlugin.class);

  /** The line check's message when this jar is not for the running Spark, logged once. */
  private static final Optional<String> MISMATCH = logged(LineCheck.mismatch());

  private final Optional<String> mismatch;

  /** Called by the History Server's service loader. */
  public WanShuffleHistoryServerPlugin() {
    this(MISMATCH);
  }

  /**
   * @param mismatch the line check's message when this jar is not for the running Spark
   */
  WanShuffleHistoryServerPlugin(Optional<String> mismatch) {
    this.mismatch = mismatch;
  }

  private static Optional<String> logged(Optional<String> mismatch) {
    mismatch.ifPresent(m -> LOG.error("{}; the WAN Shuffle tab is not added", m));
    return mismatch;
  }

  /**
   * @param conf the History Server's configuration
   * @param store the replayed application's status store
   * @return the tab's {@link WanShuffleStatusListener}; none for a jar of another Spark line or
   *     Scala version
   */
  @Override
  @SuppressWarnings("unchecked")
  public scala.collection.immutable.Seq<SparkListener> createListeners(
      SparkConf conf, ElementTrackingStore store) {
    if (mismatch.isPresent()) {
      // the one empty list of both Scala versions: no adapter of this jar's Scala is loaded
      return (scala.collection.immutable.Seq<SparkListener>)
          (Object) scala.collection.immutable.Nil$.MODULE$;
    }
    return ScalaCollections.toList(List.<SparkListener>of(new WanShuffleStatusListener(store)));
  }

  @Override
  public void setupUI(SparkUI ui) {
    if (mismatch.isEmpty() && shows(WanShuffleStore.of(ui.store().store()), ui)) {
      ui.attachTab(new WanShuffleTab(ui, ui.store().store()));
    }
  }

  private static boolean shows(CapturedEvents events, SparkUI ui) {
    return events.stageCount() > 0
        || !events.linkChanges().isEmpty()
        || !WanShuffleStore.hosts(ui.store().store()).isEmpty();
  }
}
