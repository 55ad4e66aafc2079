package io.wanshuffle.spark.ui;

import org.apache.spark.SparkContext;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.ui.SparkUI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Adds the WAN Shuffle tab to a running application's UI. */
public final class WanShuffleUi {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleUi.class);

  private WanShuffleUi() {}

  /**
   * On the driver: keeps the capture's events in the application's status store ({@link
   * WanShuffleStatusListener} on the status queue of the listener bus) and adds the tab to the live
   * UI. Nothing happens when the UI is off ({@code spark.ui.enabled=false}); a failure is logged
   * and leaves the application without the tab.
   *
   * @param sc the running context
   * @return true when the tab was added
   */
  public static boolean attachLive(SparkContext sc) {
    if (sc == null || sc.ui().isEmpty()) {
      return false;
    }
    try {
      SparkUI ui = sc.ui().get();
      ElementTrackingStore store = (ElementTrackingStore) sc.statusStore().store();
      sc.listenerBus().addToStatusQueue(new WanShuffleStatusListener(store));
      ui.attachTab(new WanShuffleTab(ui, store));
      return true;
    } catch (RuntimeException | LinkageError e) {
      LOG.warn(
          "wan-shuffle: the WAN Shuffle tab could not be added to the Spark UI: {}", e.toString());
      return false;
    }
  }
}
