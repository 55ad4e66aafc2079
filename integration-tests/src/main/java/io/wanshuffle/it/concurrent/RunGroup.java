package io.wanshuffle.it.concurrent;

import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.links.TopologyLinks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * @param cell the cell the run is one of (e.g. {@code auto}): the report's medians over runs are
 *     per cell
 * @param lastEnd when the last application's reduce stage ended, from the first reduce stage's
 *     start among them, s; null when the times are the applications' own from a common start (the
 *     slowest is then the last end)
 */
public record RunGroup(
    String what,
    int apps,
    String arbiter,
    List<Double> seconds,
    AllAppsFlows.Peak peak,
    Double windowBound,
    String cell,
    Double lastEnd) {
  /**
   * One application's reduce stage in one run.
   *
   * @param startMs its start, epoch ms
   * @param endMs its end, epoch ms
   */
  public record Stage(long startMs, long endMs) {
    /**
     * @param run a measured run
     * @return its reduce stage
     */
    public static Stage of(RunResult run) {
      return new Stage(run.reduceStageStartMs(), run.reduceStageEndMs());
    }

    /**
     * @return its duration, s
     */
    public double seconds() {
      return (endMs - startMs) / 1000.0;
    }
  }

  /** Copies the times. */
  public RunGroup {
    seconds = List.copyOf(seconds);
  }

  /** A run that is its own cell. */
  public RunGroup(
      String what,
      int apps,
      String arbiter,
      List<Double> seconds,
      AllAppsFlows.Peak peak,
      Double windowBound) {
    this(what, apps, arbiter, seconds, peak, windowBound, what, null);
  }

  /**
   * Measures a group from its applications' captures.
   *
   * @param cell the cell the run is one of
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
      String cell,
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
          windowBound,
          cell,
          null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the captures of " + what, e);
    }
  }

  /**
   * Measures a cell's runs, one group per run: the applications' reduce stages in that run, when
   * the last one ended, and the flows of all of them in it.
   *
   * @param cell the cell (e.g. {@code trace RTT 0 ms auto}); each group is named {@code <cell> run
   *     <n>}
   * @param arbiter the arbiter, or null
   * @param stages per application, its reduce stage in each run (an application measured as one
   *     application of several runs, whose list is longer than its captures: its median duration in
   *     every group, and no last end)
   * @param captureDirs per application, its capture folder of each run (null entries for runs
   *     without one)
   * @param model the testbed's links
   * @param windowBound the window rule's bound, or null for Spark's default
   * @return the groups, in run order
   * @throws UncheckedIOException if a capture cannot be read
   */
  public static List<RunGroup> ofRuns(
      String cell,
      String arbiter,
      List<List<Stage>> stages,
      List<List<Path>> captureDirs,
      TopologyLinks model,
      Double windowBound) {
    int runs = captureDirs.get(0).size();
    boolean perRun = stages.stream().allMatch(s -> s.size() == runs);
    List<RunGroup> groups = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      int run = r;
      RunGroup g =
          measure(
              cell,
              cell + " run " + (r + 1),
              arbiter,
              stages.stream()
                  .map(
                      s ->
                          perRun
                              ? s.get(run).seconds()
                              : median(s.stream().map(Stage::seconds).toList()))
                  .toList(),
              captureDirs.stream().map(c -> c.get(run)).toList(),
              model,
              windowBound);
      Double lastEnd = null;
      if (perRun) {
        long first = stages.stream().mapToLong(s -> s.get(run).startMs()).min().orElse(0);
        long last = stages.stream().mapToLong(s -> s.get(run).endMs()).max().orElse(0);
        lastEnd = (last - first) / 1000.0;
      }
      groups.add(
          new RunGroup(g.what, g.apps, g.arbiter, g.seconds, g.peak, g.windowBound, cell, lastEnd));
    }
    return groups;
  }

  /**
   * @param values some values, not empty
   * @return their median (the mean of the middle two for an even count)
   */
  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
   * @return when the last application ended, s: {@link #lastEnd} when known, else the slowest
   *     application's time
   */
  public double lastEnded() {
    return lastEnd != null ? lastEnd : slowest();
  }

  /**
   * @return the slowest application's time, s
   */
  public double slowest() {
    return seconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  /**
   * @return the sum of the applications' times, s
   */
  public double sum() {
    return seconds.stream().mapToDouble(Double::doubleValue).sum();
  }

  /**
   * @return the peak's flows / capacity, or null without gated flows
   */
  public Double maxFlowsOverCapacityAllApps() {
    return peak == null ? null : peak.overCapacity();
  }
}
