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
    Rule rule = Rule.of(conf);
    double most = 1.0;
    if (rule.adaptive()) {
      for (String link : model.links().keySet()) {
        int capacity = model.capacityFlows(link);
        most = Math.max(most, (double) rule.mostFlows(link, capacity) / capacity);
      }
    }
    return most;
  }

  /**
   * The most flows one link may carry at once: its capacity in flows where its window does not
   * move, else the window rule's bound ({@link WindowControl#boundOverCapacity} times the
   * capacity).
   *
   * @param link a link name as the topology writes it ({@code backbone.out[/A]}, {@code
   *     rack.uplink[/A/rack0]}, {@code nic.down[HOST]})
   * @param capacity the link's capacity in flows, at least 1
   * @param adaptive whether the run's windows adapt ({@code spark.wanshuffle.window=adaptive} on
   *     gated steps)
   * @param racks whether the run planned with the topology file (its rack links' windows move too)
   * @return flows, at least {@code capacity}
   */
  public static int mostFlows(String link, int capacity, boolean adaptive, boolean racks) {
    boolean moves = link.startsWith("backbone.") || (racks && link.startsWith("rack."));
    if (!adaptive || !moves) {
      return capacity;
    }
    return (int) Math.round(WindowControl.boundOverCapacity(capacity) * capacity);
  }

  /**
   * The window rule of a run, as far as the flows a link may carry go.
   *
   * @param adaptive whether its windows adapt ({@code spark.wanshuffle.window=adaptive} on gated
   *     steps)
   * @param racks whether it planned with the topology file (its rack links' windows move too)
   */
  public record Rule(boolean adaptive, boolean racks) {
    /** Windows fixed at the links' capacities (and Spark's default shuffle). */
    public static final Rule FIXED = new Rule(false, false);

    /**
     * @param conf a wan-shuffle run's settings, or null for Spark's default shuffle
     * @return the rule those settings put in force
     */
    public static Rule of(WanShuffleConf conf) {
      return conf == null
          ? FIXED
          : new Rule(conf.adaptiveWindows(), conf.get(Settings.TOPOLOGY_FILE).isPresent());
    }

    /**
     * @param link a link name
     * @param capacity its capacity in flows, at least 1
     * @return the most flows it may carry at once under this rule ({@link WindowBound#mostFlows})
     */
    public int mostFlows(String link, int capacity) {
      return WindowBound.mostFlows(link, capacity, adaptive, racks);
    }
  }
}
