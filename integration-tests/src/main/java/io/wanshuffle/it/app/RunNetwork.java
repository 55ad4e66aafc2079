package io.wanshuffle.it.app;

import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.spark.capture.NetworkFigures;
import io.wanshuffle.spark.capture.StageCapture;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run's cross-site transfer phase, measured and as the plugin predicted it, with the network
 * the plugin measured ({@link NetworkFigures} of its captured stages). Null where not known.
 *
 * @param transferPhaseSeconds the shuffle-reading stages' cross-site transfer phases summed,
 *     seconds: from the capture (each stage's first cross-site fetch request to its last cross-site
 *     byte) when the plugin ran; for a run without a capture (Spark's default) from the backbone's
 *     counters ({@link #fromBackbone}); null on the loopback testbed without a capture
 * @param predictedScheduledSeconds the captured stages' predictions as scheduled, summed, seconds
 * @param predictedDefaultSeconds the captured stages' predictions as Spark's default (η_o), summed,
 *     seconds
 * @param betaSeconds β as the plugin last measured it, seconds
 * @param measuredRates per link name the rate the plugin last measured, bytes/s
 */
public record RunNetwork(
    Double transferPhaseSeconds,
    Double predictedScheduledSeconds,
    Double predictedDefaultSeconds,
    Double betaSeconds,
    Map<String, Double> measuredRates) {

  /** Nothing known. */
  public static final RunNetwork NONE = new RunNetwork(null, null, null, null, Map.of());

  /**
   * Least share of the backbone's rate a sampling interval must carry (either way) to count as
   * transferring shuffle data, rather than the control traffic (heartbeats, RPC) that always
   * crosses.
   */
  static final double ACTIVE_SHARE = 0.02;

  /** Copies the rates, by link name. */
  public RunNetwork {
    measuredRates =
        Collections.unmodifiableMap(
            new TreeMap<>(measuredRates == null ? Map.of() : measuredRates));
  }

  /**
   * @param stages a run's captured stages (any applications)
   * @return their figures summed (transfer phase, predictions) and the last measurement (by stage
   *     end); {@link #NONE} when no stage recorded any
   */
  public static RunNetwork fromCaptures(List<StageCapture> stages) {
    Double phase = null;
    Double scheduled = null;
    Double dflt = null;
    StageCapture last = null;
    for (StageCapture c : stages) {
      NetworkFigures n = c.network();
      phase = add(phase, n.transferPhaseSeconds());
      scheduled = add(scheduled, n.predictedScheduledSeconds());
      dflt = add(dflt, n.predictedDefaultSeconds());
      if (n.measuredFlows() > 0
          && (last == null
              || Comparator.comparingLong(StageCapture::endMs).compare(c, last) >= 0)) {
        last = c;
      }
    }
    Double beta = null;
    Map<String, Double> rates = Map.of();
    if (last != null) {
      double b = last.network().measuredBetaSeconds();
      beta = Double.isNaN(b) ? null : b;
      rates = last.network().measuredRates();
    }
    return new RunNetwork(phase, scheduled, dflt, beta, rates);
  }

  private static Double add(Double sum, double v) {
    if (Double.isNaN(v)) {
      return sum;
    }
    return sum == null ? v : sum + v;
  }

  /**
   * The transfer phase of a run without a capture, from the backbone's counters: in each window (a
   * shuffle-reading stage), from the start of the first to the end of the last sampling interval in
   * which the backbone carried, either way, more than {@value #ACTIVE_SHARE} of its rate; summed
   * over the windows.
   *
   * @param backbone the backbone's counters over the run
   * @param windows the shuffle-reading stages' intervals, {from, to} epoch ms
   * @return the transfer phase, seconds; null when no interval carried that much
   */
  public static Double fromBackbone(BackboneTrace backbone, List<long[]> windows) {
    List<BackboneTrace.Sample> s = backbone.samples();
    double threshold = ACTIVE_SHARE * backbone.rateBitsPerSecond() / 8.0;
    double total = 0;
    boolean any = false;
    for (long[] w : windows) {
      long first = -1;
      long last = -1;
      for (int i = 1; i < s.size(); i++) {
        BackboneTrace.Sample a = s.get(i - 1);
        BackboneTrace.Sample b = s.get(i);
        if (b.epochMillis() <= w[0]
            || a.epochMillis() >= w[1]
            || b.epochMillis() <= a.epochMillis()) {
          continue;
        }
        long bytes = Math.max(b.aToBBytes() - a.aToBBytes(), b.bToABytes() - a.bToABytes());
        if (bytes / ((b.epochMillis() - a.epochMillis()) / 1000.0) > threshold) {
          first = first < 0 ? a.epochMillis() : first;
          last = b.epochMillis();
        }
      }
      if (first >= 0) {
        total += (last - first) / 1000.0;
        any = true;
      }
    }
    return any ? total : null;
  }
}
