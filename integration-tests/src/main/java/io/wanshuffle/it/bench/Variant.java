package io.wanshuffle.it.bench;

import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A variant of the end-to-end benchmark as {@code --variants} names it: {@code default} (Spark's
 * sort shuffle), or a wan-shuffle algorithm with optional suffixes, e.g. {@code auto/barrier}
 * (barrier steps), {@code oggp/arrival} (hand-over on arrival), {@code auto/predicted} (predicted
 * hand-over, the plugin's default), {@code auto/capacity} (each link admits its capacity in flows:
 * fixed windows, {@code spark.wanshuffle.window=capacity}, the plugin's default), {@code
 * auto/adaptive} (windows that move with the links' flows, {@code
 * spark.wanshuffle.window=adaptive}), {@code auto-rackblind/measured} (the testbed's rates not
 * typed in: the plugin gets the topology table alone and measures every rate, k and β), {@code
 * auto/alone} (no arbiter for this variant's applications even with {@code --arbiter zookeeper}).
 *
 * @param name the name as given
 */
record Variant(String name) {
  /** The variant that runs Spark's sort shuffle. */
  static final String DEFAULT = "default";

  /**
   * Suffix of a wan-shuffle variant that plans alone even when {@code --arbiter} is given: its
   * applications hold every link's whole window (the arbiter-less plugin beside the arbitrated one
   * in one alternated run).
   */
  static final String ALONE = "alone";

  /** Suffix of a variant whose rates are not typed in: the plugin measures them. */
  static final String MEASURED = "measured";

  /**
   * Name suffixes: step mode barrier, hand-over predicted or on arrival, fixed or adaptive windows,
   * measured rates.
   */
  static final List<String> SUFFIXES =
      List.of(
          Settings.BARRIER,
          Settings.PREDICTED,
          Settings.ARRIVAL,
          Settings.CAPACITY,
          Settings.ADAPTIVE,
          MEASURED,
          ALONE);

  /**
   * @return the same variant with fixed windows, to compare its windows against: {@code
   *     auto/adaptive} -> {@code auto}, {@code auto} -> {@code auto/capacity}; null for a variant
   *     with {@code /capacity}
   */
  String withFixedWindows() {
    if (suffixes().contains(Settings.CAPACITY)) {
      return null;
    }
    if (suffixes().contains(Settings.ADAPTIVE)) {
      return name.replace("/" + Settings.ADAPTIVE, "");
    }
    return name + "/" + Settings.CAPACITY;
  }

  /**
   * @return true for Spark's sort shuffle
   */
  boolean isDefault() {
    return name.equals(DEFAULT);
  }

  /**
   * @return the algorithm ({@code auto/barrier} -> {@code auto})
   */
  String algorithm() {
    int slash = name.indexOf('/');
    return slash < 0 ? name : name.substring(0, slash);
  }

  /**
   * @return the suffixes ({@code auto/barrier/predicted} -> [barrier, predicted])
   */
  List<String> suffixes() {
    List<String> parts = List.of(name.split("/"));
    return parts.subList(1, parts.size());
  }

  /**
   * @return the plugin settings the suffixes ask for, to put over the variant's other settings:
   *     {@code spark.wanshuffle.step.mode}, {@code spark.wanshuffle.step.handover}, {@code
   *     spark.wanshuffle.window=capacity} or {@code adaptive}, and for {@value #MEASURED} the
   *     backbone and NIC rates {@code auto} (as if not typed in); empty without suffixes
   */
  Map<String, String> stepSettings() {
    Map<String, String> c = new LinkedHashMap<>();
    if (suffixes().contains(Settings.BARRIER)) {
      c.put(Settings.STEP_MODE.key(), Settings.BARRIER);
    }
    for (String handover : List.of(Settings.PREDICTED, Settings.ARRIVAL)) {
      if (suffixes().contains(handover)) {
        c.put(Settings.STEP_HANDOVER.key(), handover);
      }
    }
    for (String window : List.of(Settings.CAPACITY, Settings.ADAPTIVE)) {
      if (suffixes().contains(window)) {
        c.put(Settings.WINDOW.key(), window);
      }
    }
    if (measured()) {
      c.put(Settings.BACKBONE_RATE.key(), Settings.AUTO);
      c.put(Settings.NIC_RATE.key(), Settings.AUTO);
    }
    return c;
  }

  /**
   * Checks the variants a command line names.
   *
   * @param names the variants' names as given
   * @param algorithms the wan-shuffle algorithms known
   * @return null when every name is {@code default} or a known algorithm (or {@code none}), {@code
   *     -rackblind} or not, with known and consistent suffixes ({@link #inconsistency()}); else
   *     what is wrong, naming the first wrong variant or the unknown ones
   */
  static String problem(List<String> names, List<String> algorithms) {
    if (names.isEmpty()) {
      return "none given; give default and/or wan-shuffle algorithms " + algorithms;
    }
    for (String n : names) {
      Variant v = new Variant(n);
      if (!SUFFIXES.containsAll(v.suffixes())) {
        return "'"
            + n
            + "': unknown suffix; the suffixes are "
            + SUFFIXES.stream().map(x -> "/" + x).toList();
      }
      if (v.inconsistency() != null) {
        return v.inconsistency();
      }
    }
    List<String> unknown =
        names.stream()
            .filter(
                n -> {
                  String alg = PluginSettings.algorithm(new Variant(n).algorithm());
                  return !n.equals(DEFAULT) && !alg.equals("none") && !algorithms.contains(alg);
                })
            .toList();
    return unknown.isEmpty()
        ? null
        : "unknown " + unknown + "; give default and/or wan-shuffle algorithms " + algorithms;
  }

  /**
   * @param spec the testbed
   * @param extraConf the plugin settings of every wan-shuffle variant ({@code --conf})
   * @return the plugin settings of this variant's runs on {@code spec}; null for {@value #DEFAULT}
   * @throws IllegalArgumentException naming the key and value the plugin refuses
   */
  WanShuffleConf settings(TestbedSpec spec, Map<String, String> extraConf) {
    return isDefault() ? null : PluginSettings.check(spec, algorithm(), extraConf, stepSettings());
  }

  /**
   * @return whether the variant's applications plan without the arbiter ({@value #ALONE})
   */
  boolean alone() {
    return suffixes().contains(ALONE);
  }

  /**
   * @return whether the variant leaves the testbed's rates out ({@value #MEASURED})
   */
  boolean measured() {
    return suffixes().contains(MEASURED);
  }

  /**
   * A variant with {@value #MEASURED} must be rack-blind: a topology-aware one ships the testbed's
   * topology file, whose links carry their rates (the plugin plans on them, docs/topology.md), so
   * nothing would be measured that the other runs are not given.
   *
   * @return null when the name is consistent, else why not
   */
  String inconsistency() {
    if (measured() && PluginSettings.topologyAware(algorithm())) {
      return "'"
          + name
          + "': "
          + MEASURED
          + " leaves the testbed's rates out, but a topology-aware variant ships the topology"
          + " file, whose links carry them; use "
          + algorithm()
          + PluginSettings.RACK_BLIND
          + "/"
          + MEASURED
          + " (the topology table alone, every rate, k and β measured)";
    }
    return null;
  }

  /**
   * @return the variant a {@value #MEASURED} variant is compared with: the same algorithm with the
   *     testbed's topology file and its true rates, and the other suffixes ({@code
   *     auto-rackblind/measured} -> {@code auto}); null for a variant without {@value #MEASURED}
   */
  String configuredReference() {
    if (!measured()) {
      return null;
    }
    StringBuilder sb = new StringBuilder(PluginSettings.algorithm(algorithm()));
    suffixes().stream().filter(x -> !x.equals(MEASURED)).forEach(x -> sb.append('/').append(x));
    return sb.toString();
  }

  /**
   * @return the name with '/' replaced, for run and file names
   */
  String fileName() {
    return name.replace('/', '-');
  }
}
