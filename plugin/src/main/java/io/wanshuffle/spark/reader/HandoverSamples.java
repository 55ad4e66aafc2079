package io.wanshuffle.spark.reader;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The sample windows behind an executor's {@link HandoverPredictor}: transfer rates, coordinator
 * round trips and hand-over loops, fetch latencies and size ratios, each over its most recent
 * samples, and the {@link Estimates} they give ({@code r}, {@code c}, {@code L}, the size ratio;
 * the predictor's class Javadoc defines each).
 *
 * <p>Not thread-safe: the predictor changes it under its own lock and publishes {@link
 * #estimates()} after each change.
 */
final class HandoverSamples {
  /** Samples in each window but the rates'. */
  private static final int WINDOW = HandoverPredictor.SAMPLES;

  /**
   * What predictions use, as of one moment: immutable, so a prediction reads one consistent set.
   *
   * @param bytesPerSecond {@code r}, bytes/s (0 before a rate sample)
   * @param flowRateBound a granted flow's rate in the coordinator's model, bytes/s (0: no bound)
   * @param roundTripMeasured whether a coordinator round trip was measured
   * @param coordinatorDelayMs {@code c}, ms ({@code Long.MAX_VALUE} before a loop or round trip)
   * @param fetchLatencyMs {@code L}, the lower median of the latency samples, ms (0 before one)
   * @param latencySamples latency samples in the window
   * @param sizesArrived bytes that arrived over the size window's completed flows
   * @param sizesAnnounced bytes the map output statistics announced for the same flows
   */
  record Estimates(
      double bytesPerSecond,
      double flowRateBound,
      boolean roundTripMeasured,
      long coordinatorDelayMs,
      long fetchLatencyMs,
      int latencySamples,
      long sizesArrived,
      long sizesAnnounced) {
    /**
     * @return whether the executor's own rate and the coordinator round trip are measured
     */
    boolean measured() {
      return bytesPerSecond > 0 && roundTripMeasured;
    }

    /**
     * @return {@code r} at most the flow rate bound, bytes/s (0 before a sample)
     */
    double predictionRate() {
      return bounded(bytesPerSecond);
    }

    /**
     * @param rate a rate, bytes/s
     * @return {@code rate} at most the flow rate bound, bytes/s
     */
    double bounded(double rate) {
      return flowRateBound > 0 ? Math.min(rate, flowRateBound) : rate;
    }

    /**
     * @param unmeasuredMs what stands for {@code L} before {@value HandoverPredictor#MIN_LATENCIES}
     *     sample(s), ms
     * @return {@code L} as predictions take it, ms
     */
    long predictionLatencyMs(long unmeasuredMs) {
      return latencySamples >= HandoverPredictor.MIN_LATENCIES ? fetchLatencyMs : unmeasuredMs;
    }

    /**
     * @param announcedBytes a flow's bytes as the map output statistics announce them
     * @return the bytes expected to arrive (the size ratio applied)
     */
    long estimatedBytes(long announcedBytes) {
      if (sizesAnnounced <= 0) {
        return Math.round(announcedBytes * HandoverPredictor.ROUNDING_RATIO_PRIOR);
      }
      return Math.round(announcedBytes * ((double) sizesArrived / sizesAnnounced));
    }
  }

  /** Rate samples as {bytes, ms}, the last {@value HandoverPredictor#RATE_SAMPLES}. */
  private final ArrayDeque<long[]> rates = new ArrayDeque<>();

  private final ArrayDeque<Long> roundTrips = new ArrayDeque<>();
  private final ArrayDeque<Long> loops = new ArrayDeque<>();

  /** Completed flows as {arrived bytes, announced bytes}, the last {@value #WINDOW}. */
  private final ArrayDeque<long[]> sizes = new ArrayDeque<>();

  private long sizesArrived;
  private long sizesAnnounced;
  private final ArrayDeque<Long> latencies = new ArrayDeque<>();
  private double bytesPerSecond;
  private double flowRateBound;

  /**
   * @return the estimates of the samples now
   */
  Estimates estimates() {
    return new Estimates(
        bytesPerSecond,
        flowRateBound,
        !roundTrips.isEmpty(),
        coordinatorDelay(),
        latencyMs(),
        latencies.size(),
        sizesArrived,
        sizesAnnounced);
  }

  /** See {@link HandoverPredictor#boundFlowRate}. */
  void boundFlowRate(double rate) {
    flowRateBound = Math.max(0, rate);
  }

  /** See {@link HandoverPredictor#coordinatorRoundTrip}. */
  void coordinatorRoundTrip(long ms) {
    add(roundTrips, ms);
  }

  /** See {@link HandoverPredictor#handOverLoop}. */
  void handOverLoop(long ms) {
    add(loops, ms);
  }

  /** See {@link HandoverPredictor#flowObserved}. */
  void flowObserved(long bytesAfterFirst, long spanMs) {
    if (bytesAfterFirst <= 0 || spanMs < HandoverPredictor.MIN_SPAN_MS) {
      return;
    }
    rates.addLast(new long[] {bytesAfterFirst, spanMs});
    if (rates.size() > HandoverPredictor.RATE_SAMPLES) {
      rates.removeFirst();
    }
    bytesPerSecond = byteWeightedMedianRate();
  }

  /**
   * @return the byte-weighted median of the rate samples' rates, bytes/s: the rate at which the
   *     samples sorted by rate first reach half of their bytes
   */
  private double byteWeightedMedianRate() {
    long[][] sorted = rates.toArray(new long[0][]);
    Arrays.sort(sorted, (a, b) -> Double.compare((double) a[0] / a[1], (double) b[0] / b[1]));
    long total = 0;
    for (long[] r : sorted) {
      total += r[0];
    }
    long seen = 0;
    for (long[] r : sorted) {
      seen += r[0];
      if (2 * seen >= total) {
        return r[0] * 1000.0 / r[1];
      }
    }
    return 0;
  }

  /** See {@link HandoverPredictor#singleBlockFlowObserved}. */
  void singleBlockFlowObserved(long bytes, long requestToArrivalMs) {
    if (bytes <= 0 || requestToArrivalMs < 0) {
      return;
    }
    long latency = latencyMs();
    if (!latencies.isEmpty()
        && requestToArrivalMs >= HandoverPredictor.TRANSFER_DOMINATED * Math.max(1, latency)) {
      flowObserved(bytes, requestToArrivalMs - latency);
    } else {
      fetchLatencyObserved(requestToArrivalMs, bytes, 0);
    }
  }

  /** See {@link HandoverPredictor#sizesObserved}. */
  void sizesObserved(long arrivedBytes, long announcedBytes) {
    if (arrivedBytes <= 0 || announcedBytes <= 0) {
      return;
    }
    sizes.addLast(new long[] {arrivedBytes, announcedBytes});
    sizesArrived += arrivedBytes;
    sizesAnnounced += announcedBytes;
    if (sizes.size() > WINDOW) {
      long[] old = sizes.removeFirst();
      sizesArrived -= old[0];
      sizesAnnounced -= old[1];
    }
  }

  /** See {@link HandoverPredictor#fetchLatencyObserved}. */
  void fetchLatencyObserved(long firstBlockMs, long firstBytes, double flowBytesPerSecond) {
    double rate = flowBytesPerSecond > 0 ? flowBytesPerSecond : bytesPerSecond;
    if (rate <= 0 || firstBlockMs < 0) {
      return;
    }
    add(latencies, Math.max(0, firstBlockMs - (long) (firstBytes * 1000.0 / rate)));
  }

  /**
   * @return {@code c}, ms: the smallest recent hand-over loop once there are {@value
   *     HandoverPredictor#MIN_LOOPS}, else the smallest of the loops and the registration round
   *     trips
   */
  private long coordinatorDelay() {
    return loops.size() >= HandoverPredictor.MIN_LOOPS
        ? min(loops)
        : Math.min(min(loops), min(roundTrips));
  }

  private long latencyMs() {
    if (latencies.isEmpty()) {
      return 0;
    }
    long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    return sorted[(sorted.length - 1) / 2];
  }

  private static void add(ArrayDeque<Long> window, long ms) {
    if (ms < 0) {
      return;
    }
    window.addLast(ms);
    if (window.size() > WINDOW) {
      window.removeFirst();
    }
  }

  private static long min(ArrayDeque<Long> window) {
    long m = Long.MAX_VALUE;
    for (long v : window) {
      m = Math.min(m, v);
    }
    return m;
  }
}
