package io.wanshuffle.it.links;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.network.WindowControl;

/**
 * The most a link's window may reach over its capacity in a run, under the window rule its settings
 * put in force: what the most flows a link carried over its capacity is checked against.
 */
public final class WindowBound {
  private WindowBound() {}

  /**
   * @param conf a wan-shuffle run's settings
   * @param model the testbed's links and their capacities in flows
   * @return 1.0 when windows do not move ({@code spark.wanshuffle.window=capacity}, barrier steps,
   *     gating off); else the largest {@link WindowControl#boundOverCapacity} over the links whose
   *     windows move: the backbone sides, and with the topology file the rack links too (NICs keep
   *     their δ)
   */
  public static double of(WanShuffleConf conf, TopologyLinks model) {
    if (!conf.adaptiveWindows()) {
      return 1.0;
    }
    boolean racks = conf.get(Settings.TOPOLOGY_FILE).isPresent();
    double most = 1.0;
    for (String link : model.links().keySet()) {
      boolean backbone = link.startsWith("backbone.");
      boolean rack = link.startsWith("rack.");
      if (backbone || (racks && rack)) {
        most = Math.max(most, WindowControl.boundOverCapacity(model.capacityFlows(link)));
      }
    }
    return most;
  }
}
