package io.wanshuffle.it.bench;

import io.wanshuffle.spark.config.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A variant of the end-to-end benchmark as {@code --variants} names it: {@code default} (Spark's
 * sort shuffle), or a wan-shuffle algorithm with optional step suffixes, e.g. {@code auto/barrier}
 * (barrier steps), {@code oggp/arrival} (hand-over on arrival), {@code auto/predicted} (predicted
 * hand-over, the plugin's default).
 *
 * @param name the name as given
 */
record Variant(String name) {
  /** The variant that runs Spark's sort shuffle. */
  static final String DEFAULT = "default";

  /** Name suffixes: step mode barrier, hand-over predicted or on arrival. */
  static final List<String> SUFFIXES =
      List.of(Settings.BARRIER, Settings.PREDICTED, Settings.ARRIVAL);

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
   * @return the plugin settings the suffixes ask for ({@code spark.wanshuffle.step.mode}, {@code
   *     spark.wanshuffle.step.handover}); empty without suffixes
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
    return c;
  }

  /**
   * @return the name with '/' replaced, for run and file names
   */
  String fileName() {
    return name.replace('/', '-');
  }
}
