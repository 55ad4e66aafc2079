package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.compat.LinePage;
import org.apache.spark.ui.SparkUI;
import org.apache.spark.ui.SparkUITab;
import org.apache.spark.util.kvstore.KVStore;

/**
 * The WAN Shuffle tab ({@code /wanshuffle/}) of a live Spark UI or a History Server application:
 * the gated stages ({@link StagesPage}) and a page per stage ({@link StagePage}, {@code
 * /wanshuffle/stage/?id=<stage>.<attempt>}).
 */
public final class WanShuffleTab extends SparkUITab {
  /** URL prefix of the tab. */
  static final String PREFIX = "wanshuffle";

  /** Title of the tab. */
  static final String NAME = "WAN Shuffle";

  private final KVStore store;

  /**
   * @param ui the application's UI
   * @param store the application's status store, holding the tab's rows
   */
  public WanShuffleTab(SparkUI ui, KVStore store) {
    super(ui, PREFIX);
    this.store = store;
    attachPage(new LinePage(this, new StagesPage(this)));
    attachPage(new LinePage(this, new StagePage(this)));
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @return the application's status store
   */
  KVStore store() {
    return store;
  }
}
