package io.wanshuffle.it.experiment;

import io.wanshuffle.it.net.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A testbed with a cluster manager on it that runs any Spark application with spark-submit and
 * measures each run from outside Spark: Spark standalone ({@link Experiment}) or YARN ({@link
 * YarnExperiment}). What {@code run-app} needs.
 */
public interface AppRunner extends AutoCloseable {
  /**
   * @return the testbed
   */
  Testbed testbed();

  /**
   * @return the testbed's link model in the {@code plan --topology} format
   */
  Path topologyConfig();

  /**
   * What any application needs to run on this cluster; an application brings its own jar.
   *
   * @param executorMemory executor memory (Spark size, e.g. {@code 640m})
   * @return a new mutable map
   * @throws IllegalArgumentException if the cluster cannot run executors of that size
   */
  Map<String, String> clusterConf(String executorMemory);

  /**
   * The settings that turn wan-shuffle on with this testbed's rates and, unless the variant is
   * rack-blind, its topology file (shipped as {@code --files}).
   *
   * @param variant a wan-shuffle algorithm (auto, oggp, ...), or one with {@value
   *     PluginSettings#RACK_BLIND}
   * @return a new mutable map
   */
  Map<String, String> wanShuffleConf(String variant);

  /**
   * Runs an application with spark-submit on the control host, waits for it and measures the
   * backbone around it; its Spark event log goes to {@code <runDir>/<NN-name>/events}, its stdout
   * to {@code <runDir>/<NN-name>/stdout.txt}, the plugin's capture to {@code
   * <runDir>/<NN-name>/capture}.
   *
   * @param name run name (folder and log names)
   * @param app the application
   * @param timeout longest run; past it the run is killed and reported as failed
   * @return the measurement (a failed application is a result, not an exception)
   * @throws java.io.UncheckedIOException if the run folder cannot be written or spark-submit cannot
   *     be started
   * @throws IllegalStateException if interrupted
   */
  Submitted submit(String name, Submission app, Duration timeout);

  /** Stops the cluster, then tears the testbed down. */
  @Override
  void close();
}
