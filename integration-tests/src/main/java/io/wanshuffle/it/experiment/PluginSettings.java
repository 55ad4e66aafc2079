package io.wanshuffle.it.experiment;

import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * The Spark settings that turn wan-shuffle on for a run on the testbed: the plugin's shuffle
 * manager, its capture listener, the algorithm and the testbed's backbone and NIC rates (from which
 * the plugin derives k and δ by the base-speed rule of the DGGP paper). The plugin reaches the
 * executors only through {@code spark.jars}, as a user ships it with {@code --jars}: nothing is put
 * on the executors' own class path.
 */
public final class PluginSettings {
  /** Shuffle manager class of the plugin. */
  public static final String WAN_SHUFFLE_MANAGER = "io.wanshuffle.spark.WanShuffleManager";

  /** The plugin's capture listener (traffic matrix, plans, steps, flow log). */
  public static final String CAPTURE_LISTENER = "io.wanshuffle.spark.capture.CaptureListener";

  /** The plugin's capture folder key. */
  public static final String CAPTURE_DIR = "spark.wanshuffle.capture.dir";

  private static final String LISTENERS = "spark.wanshuffle.listeners";

  private PluginSettings() {}

  /**
   * @param spec the testbed's description (its rates are the run's)
   * @param algorithm {@code spark.wanshuffle.algorithm} (auto, oggp, ...)
   * @return a new mutable map of the settings, in a fixed order
   */
  public static Map<String, String> of(TestbedSpec spec, String algorithm) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(LISTENERS, CAPTURE_LISTENER);
    c.put("spark.shuffle.manager", WAN_SHUFFLE_MANAGER);
    c.put("spark.wanshuffle.algorithm", algorithm);
    c.put("spark.wanshuffle.backbone.rate", spec.backboneBitsPerSecond() + "bit");
    c.put("spark.wanshuffle.nic.rate", spec.nicBitsPerSecond() + "bit");
    return c;
  }

  /**
   * Checks the settings of a wan-shuffle run on a testbed of {@code spec} as the plugin checks them
   * at start-up, so that a command can refuse a wrong value before its testbed starts rather than
   * fail every wan-shuffle run.
   *
   * @param spec the testbed's description (its rates are the run's)
   * @param algorithm wan-shuffle algorithm name
   * @param extra the user's settings, in the order they override each other (e.g. {@code --conf},
   *     then {@code --plugin-conf})
   * @return the plugin's reading of them
   * @throws IllegalArgumentException ({@code ConfigValueException}) naming the key and value the
   *     plugin refuses
   */
  @SafeVarargs
  public static WanShuffleConf check(
      TestbedSpec spec, String algorithm, Map<String, String>... extra) {
    SparkConf c = new SparkConf(false);
    of(spec, algorithm).forEach(c::set);
    for (Map<String, String> e : extra) {
      e.forEach(c::set);
    }
    return WanShuffleConf.from(c);
  }

  /**
   * @param conf a run's Spark settings
   * @return whether they list the plugin's capture listener (the run then gets a capture folder)
   */
  static boolean capturing(Map<String, String> conf) {
    return conf.getOrDefault(LISTENERS, "").contains(CAPTURE_LISTENER);
  }
}
