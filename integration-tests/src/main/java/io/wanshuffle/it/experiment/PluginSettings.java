package io.wanshuffle.it.experiment;

import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * The Spark settings that turn wan-shuffle on for a run on the testbed: the plugin's shuffle
 * manager, its capture listener, the algorithm and the testbed's backbone and NIC rates (from which
 * the plugin derives k and δ by the base-speed rule of the DGGP paper), and for a topology-aware
 * variant the testbed's topology file ({@link #topology}). The plugin reaches the executors only
 * through {@code spark.jars}, as a user ships it with {@code --jars}: nothing is put on the
 * executors' own class path.
 *
 * <p>Variants: a wan-shuffle algorithm's name ({@code auto}, {@code oggp}, ...) runs it with the
 * topology file, so that the plugin plans on the testbed's links; the same name with {@value
 * #RACK_BLIND} ({@code auto-rackblind}) runs it without, on k and δ only.
 */
public final class PluginSettings {
  /** Shuffle manager class of the plugin. */
  public static final String WAN_SHUFFLE_MANAGER = "io.wanshuffle.spark.WanShuffleManager";

  /** Spark plugin of wan-shuffle: the last stage's capture event reaches the event log. */
  public static final String WAN_SHUFFLE_PLUGIN = "io.wanshuffle.spark.WanShufflePlugin";

  /** The plugin's capture listener (traffic matrix, plans, steps, flow log). */
  public static final String CAPTURE_LISTENER = "io.wanshuffle.spark.capture.CaptureListener";

  /** Suffix of a variant that runs its algorithm without the topology file. */
  public static final String RACK_BLIND = "-rackblind";

  /** Spark's key of the files shipped to the driver and executors ({@code --files}). */
  public static final String FILES = "spark.files";

  private PluginSettings() {}

  /**
   * @param variant a wan-shuffle variant, e.g. {@code auto} or {@code auto-rackblind}
   * @return its algorithm ({@code auto-rackblind} -> {@code auto})
   */
  public static String algorithm(String variant) {
    return variant.endsWith(RACK_BLIND)
        ? variant.substring(0, variant.length() - RACK_BLIND.length())
        : variant;
  }

  /**
   * @param variant a wan-shuffle variant
   * @return false for a {@value #RACK_BLIND} variant, true otherwise
   */
  public static boolean topologyAware(String variant) {
    return !variant.endsWith(RACK_BLIND);
  }

  /**
   * The settings that give the plugin the testbed's topology: both files shipped ({@value #FILES},
   * what spark-submit's {@code --files} sets) and {@link Settings#TOPOLOGY_FILE} naming the
   * configuration by its file name, whose {@code mapping.table} names the table by its file name.
   *
   * @param table the topology table
   * @param config the topology configuration (in the {@code plan --topology} format)
   * @return a new mutable map
   */
  public static Map<String, String> topology(Path table, Path config) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(FILES, table.toAbsolutePath() + "," + config.toAbsolutePath());
    c.put(Settings.TOPOLOGY_FILE.key(), config.getFileName().toString());
    return c;
  }

  /**
   * Puts {@code settings} into {@code conf}, joining the files to ship ({@value #FILES}) with those
   * {@code conf} already ships instead of replacing them.
   *
   * @param conf settings to add to
   * @param settings settings to add
   * @return {@code conf}
   */
  public static Map<String, String> putAll(Map<String, String> conf, Map<String, String> settings) {
    settings.forEach(
        (k, v) ->
            conf.merge(
                k, v, (old, add) -> k.equals(FILES) && !old.isBlank() ? old + "," + add : add));
    return conf;
  }

  /**
   * @param spec the testbed's description (its rates are the run's)
   * @param variant a wan-shuffle algorithm (auto, oggp, ...), or one with {@value #RACK_BLIND}: its
   *     algorithm is {@link Settings#ALGORITHM} (the topology file is {@link #topology}'s)
   * @return a new mutable map of the settings, in a fixed order
   */
  public static Map<String, String> of(TestbedSpec spec, String variant) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put(CaptureSettings.LISTENERS.key(), CAPTURE_LISTENER);
    c.put("spark.shuffle.manager", WAN_SHUFFLE_MANAGER);
    c.put("spark.plugins", WAN_SHUFFLE_PLUGIN);
    c.put(Settings.ALGORITHM.key(), algorithm(variant));
    c.put(Settings.BACKBONE_RATE.key(), spec.backboneBitsPerSecond() + "bit");
    c.put(Settings.NIC_RATE.key(), spec.nicBitsPerSecond() + "bit");
    return c;
  }

  /**
   * Checks the settings of a wan-shuffle run on a testbed of {@code spec} as the plugin checks them
   * at start-up, so that a command can refuse a wrong value before its testbed starts rather than
   * fail every wan-shuffle run.
   *
   * @param spec the testbed's description (its rates are the run's)
   * @param algorithm wan-shuffle algorithm name, or a variant ({@code auto-rackblind})
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
    return conf.getOrDefault(CaptureSettings.LISTENERS.key(), "").contains(CAPTURE_LISTENER);
  }
}
