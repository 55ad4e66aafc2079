package io.wanshuffle.it.concurrent;

import io.wanshuffle.it.links.TopologyLinks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The applications that ran together in one run of a variant: how many, with which arbiter, each
 * one's time, and the flows of all of them on the busiest link against what the plugin's window
 * rule allows.
 *
 * @param what the run, as the report names it (e.g. {@code auto run 1})
 * @param apps how many applications ran at once
 * @param arbiter the arbiter the wan-shuffle runs used ({@code zookeeper}), or null
 * @param seconds per application, in copy order, its time (s; what is timed is the report's)
 * @param peak the link with the most flows of all the applications against its capacity, or null
 *     without gated flows (Spark's default)
 * @param windowBound the most a link's window may reach over its capacity under the plugin's window
 *     rule in force for the run ({@code WanShuffleConf.maxWindowOverCapacity}), or null for Spark's
 *     default
 */
public record RunGroup(
    String what,
    int apps,
    String arbiter,
    List<Double> seconds,
    AllAppsFlows.Peak peak,
    Double windowBound) {
  /** Copies the times. */
  public RunGroup {
    seconds = List.copyOf(seconds);
  }

  /**
   * Measures a group from its applications' captures.
   *
   * @param what the run, as the report names it
   * @param arbiter the arbiter, or null
   * @param seconds per application, its time (s)
   * @param captureDirs per application, its capture folder (null for a run without one)
   * @param model the testbed's links
   * @param windowBound the window rule's bound, or null for Spark's default
   * @return the group, {@link #peak} read from every application's flow log ({@link AllAppsFlows})
   * @throws UncheckedIOException if a capture cannot be read
   */
  public static RunGroup measure(
      String what,
      String arbiter,
      List<Double> seconds,
      List<Path> captureDirs,
      TopologyLinks model,
      Double windowBound) {
    try {
      return new RunGroup(
          what,
          seconds.size(),
          arbiter,
          seconds,
          AllAppsFlows.peak(captureDirs, model).orElse(null),
          windowBound);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the captures of " + what, e);
    }
  }

  /**
   * @return the console line: the most flows of all the applications on a link against its capacity
   *     and the window rule's bound
   */
  public String line() {
    return "  all "
        + apps
        + " applications: most flows / capacity "
        + (peak == null ? "-" : peak + String.format(Locale.ROOT, " (%.2f)", peak.overCapacity()))
        + (windowBound == null ? "" : ", window bound " + windowBound);
  }

  /**
   * @return the peak's flows / capacity, or null without gated flows
   */
  public Double maxFlowsOverCapacityAllApps() {
    return peak == null ? null : peak.overCapacity();
  }
}
