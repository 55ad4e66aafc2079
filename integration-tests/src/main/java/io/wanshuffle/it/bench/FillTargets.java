package io.wanshuffle.it.bench;

import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.experiment.PluginSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The targets a benchmark of the bottleneck fill is held to, checked cell by cell (one testbed
 * shape, machine load, pattern and RTT), each on the medians over the cell's runs, for every
 * wan-shuffle variant that runs the plugin as configured by default (an algorithm with the topology
 * file and no suffix):
 *
 * <ul>
 *   <li>at most {@value #MAX_SLOWER_PERCENT} % slower than Spark's default, in every cell, the
 *       loaded ones too;
 *   <li>on a quiet machine: the bottleneck link at least {@value #MIN_PHASE_UTILISATION_PERCENT} %
 *       used over its transfer phase ({@link TransferPhase}), TCP retransmissions at most {@value
 *       #MAX_RETRANS_PERCENT} %, at least {@value #MIN_FASTER_PERCENT} % faster than the default on
 *       {@link #FASTER_AT_40} at 40 ms and on {@link #FASTER_AT_0} at RTT 0, and at RTT 0 at most
 *       {@value #MAX_LIMIT_RATIO} x the generalised physical limit;
 *   <li>a variant with the testbed's rates not typed in ({@code /measured}) within {@value
 *       #MEASURED_WITHIN_PERCENT} % of the same algorithm with the topology file and its rates
 *       ({@link Variant#configuredReference()}), on a quiet machine.
 * </ul>
 *
 * A figure that was not measured (a reference variant that did not run, counters on the loopback
 * testbed) is a check "not measured", neither met nor missed; so is every check of a cell that ran
 * on the unshaped loopback testbed, whose times say nothing about a WAN.
 */
final class FillTargets {
  private FillTargets() {}

  /** Most a wan-shuffle median may exceed the default's, %. */
  static final double MAX_SLOWER_PERCENT = 2;

  /** Least utilisation of the bottleneck link over its transfer phase, %. */
  static final double MIN_PHASE_UTILISATION_PERCENT = 92;

  /** Most TCP segments retransmitted, % of those sent. */
  static final double MAX_RETRANS_PERCENT = 1;

  /** Least gain against the default where one is asked for, %. */
  static final double MIN_FASTER_PERCENT = 10;

  /** Most reduce stage / generalised physical limit at RTT 0. */
  static final double MAX_LIMIT_RATIO = 1.10;

  /** Most difference between a {@code /measured} variant and its configured reference, %. */
  static final double MEASURED_WITHIN_PERCENT = 3;

  /** Patterns that must gain {@value #MIN_FASTER_PERCENT} % at 40 ms. */
  static final Set<String> FASTER_AT_40 = Set.of("zipf", "fair-poor-grid", "trace");

  /** Patterns that must gain {@value #MIN_FASTER_PERCENT} % at RTT 0. */
  static final Set<String> FASTER_AT_0 = Set.of("zipf", "fair-poor-grid");

  /** Whether a check's figure met its target. */
  enum Outcome {
    MET("met"),
    NOT_MET("**not met**"),
    NOT_MEASURED("not measured");

    final String words;

    Outcome(String words) {
      this.words = words;
    }
  }

  /**
   * One target checked on one cell.
   *
   * @param cell the cell checked
   * @param target the target in words, e.g. {@code at most 2 % slower than default}
   * @param figure what was measured, e.g. {@code +1.3 %}; "-" when not measured
   * @param outcome met, not met, or not measured
   */
  record Check(FillCell cell, String target, String figure, Outcome outcome) {}

  /**
   * @param cells the benchmark's cells
   * @return every check, cells in their order
   */
  static List<Check> check(List<FillCell> cells) {
    Map<String, Double> medians = new LinkedHashMap<>();
    for (FillCell f : cells) {
      medians.put(key(f.cell(), f.cell().variant()), median(f.cell()));
    }
    List<Check> out = new ArrayList<>();
    for (FillCell f : cells) {
      List<Check> own = check(f, medians);
      boolean shaped = f.cell().runs().stream().allMatch(r -> r.backboneBytes() >= 0);
      own.forEach(
          k ->
              out.add(
                  shaped
                      ? k
                      : new Check(
                          f, k.target(), k.figure() + " (not shaped)", Outcome.NOT_MEASURED)));
    }
    return out;
  }

  /** The checks of one cell against the others' medians (by {@link #key}). */
  private static List<Check> check(FillCell f, Map<String, Double> medians) {
    List<Check> out = new ArrayList<>();
    E2eReport.Cell c = f.cell();
    Variant v = new Variant(c.variant());
    if (v.isDefault()) {
      return out;
    }
    double med = median(c);
    if (v.measured()) {
      if (f.load() == 0) {
        Double ref = medians.get(key(c, v.configuredReference()));
        out.add(
            ref == null
                ? new Check(f, measuredTarget(v), "-", Outcome.NOT_MEASURED)
                : versus(
                    f,
                    measuredTarget(v),
                    med,
                    ref,
                    -MEASURED_WITHIN_PERCENT,
                    MEASURED_WITHIN_PERCENT));
      }
      return out;
    }
    if (!v.suffixes().isEmpty() || !PluginSettings.topologyAware(v.algorithm())) {
      return out;
    }
    Double dflt = medians.get(key(c, Variant.DEFAULT));
    String slower = fmt("at most %.0f %% slower than default", MAX_SLOWER_PERCENT);
    out.add(
        dflt == null
            ? new Check(f, slower, "-", Outcome.NOT_MEASURED)
            : versus(f, slower, med, dflt, Double.NEGATIVE_INFINITY, MAX_SLOWER_PERCENT));
    if (f.load() > 0) {
      return out;
    }
    Double u = f.medianPhaseUtilisation();
    out.add(
        atLeast(
            f,
            fmt(
                "bottleneck used >= %.0f %% over its transfer phase",
                MIN_PHASE_UTILISATION_PERCENT),
            u == null ? null : 100 * u,
            MIN_PHASE_UTILISATION_PERCENT,
            "%.0f %%",
            " " + f.bottleneck()));
    double retrans =
        E2eReport.median(
            c.runs().stream().mapToDouble(Comparison.Figures::retransPercent).toArray());
    out.add(
        atMost(
            f,
            fmt("TCP retransmissions <= %.0f %%", MAX_RETRANS_PERCENT),
            retrans < 0 ? null : retrans,
            MAX_RETRANS_PERCENT,
            "%.2f %%"));
    if ((c.rtt() == 40 && FASTER_AT_40.contains(c.pattern()))
        || (c.rtt() == 0 && FASTER_AT_0.contains(c.pattern()))) {
      String faster = fmt("at least %.0f %% faster than default", MIN_FASTER_PERCENT);
      out.add(
          dflt == null
              ? new Check(f, faster, "-", Outcome.NOT_MEASURED)
              : versus(f, faster, med, dflt, Double.NEGATIVE_INFINITY, -MIN_FASTER_PERCENT));
    }
    if (c.rtt() == 0) {
      out.add(
          atMost(
              f,
              fmt("<= %.2f x the generalised physical limit", MAX_LIMIT_RATIO),
              limitRatio(c),
              MAX_LIMIT_RATIO,
              "%.2f x"));
    }
    return out;
  }

  /**
   * @return the cell's median reduce stage over its generalised physical limit (the median over the
   *     runs of each run's ratio), or null when the links were not measured
   */
  static Double limitRatio(E2eReport.Cell c) {
    List<Double> r = new ArrayList<>();
    for (int i = 0; i < c.links().size() && i < c.runs().size(); i++) {
      double limit = c.links().get(i).limit().seconds();
      if (limit > 0) {
        r.add(c.runs().get(i).reduceSeconds() / limit);
      }
    }
    return r.isEmpty()
        ? null
        : E2eReport.median(r.stream().mapToDouble(Double::doubleValue).toArray());
  }

  private static String measuredTarget(Variant v) {
    return fmt("within %.0f %% of ", MEASURED_WITHIN_PERCENT)
        + v.configuredReference()
        + " (the testbed's rates typed in)";
  }

  /** A check of (med - ref) / ref in %, met within [lo, hi]. */
  private static Check versus(
      FillCell f, String target, double med, double ref, double lo, double hi) {
    double pct = 100 * (med - ref) / ref;
    boolean met = pct >= lo && pct <= hi;
    return new Check(f, target, fmt("%+.1f %%", pct), met ? Outcome.MET : Outcome.NOT_MET);
  }

  private static Check atLeast(
      FillCell f, String target, Double v, double min, String format, String what) {
    if (v == null) {
      return new Check(f, target, "-", Outcome.NOT_MEASURED);
    }
    return new Check(f, target, fmt(format, v) + what, v >= min ? Outcome.MET : Outcome.NOT_MET);
  }

  private static Check atMost(FillCell f, String target, Double v, double max, String format) {
    if (v == null) {
      return new Check(f, target, "-", Outcome.NOT_MEASURED);
    }
    return new Check(f, target, fmt(format, v), v <= max ? Outcome.MET : Outcome.NOT_MET);
  }

  private static String key(E2eReport.Cell c, String variant) {
    return c.where() + "/" + variant;
  }

  private static double median(E2eReport.Cell c) {
    return E2eReport.median(
        c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray());
  }

  private static String fmt(String format, double v) {
    return String.format(Locale.ROOT, format, v);
  }
}
