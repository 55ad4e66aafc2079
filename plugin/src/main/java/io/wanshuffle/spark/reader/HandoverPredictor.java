package io.wanshuffle.spark.reader;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * When a granted step's ports can be handed on before its bytes have all arrived (predicted
 * hand-over, {@code spark.wanshuffle.step.handover = predicted}; docs/plugin.md, "Predicted
 * hand-over"). One instance per executor, in its {@link ReaderContext}.
 *
 * <p>A port changes hands in two delays: the report travels to the coordinator and the next grant
 * back (one coordinator round trip, {@code c}), then the new flow's fetch opens a stream and asks
 * for its chunks before its first byte comes back (the fetch latency {@code L}, about two network
 * round trips with Spark's fetch protocol). A flow of {@code B} bytes requested at {@code t0} ends
 * at {@code t0 + L + B / r}, {@code r} its transfer rate; the next flow on its ports delivers its
 * first byte at {@code report + c + L}, so reporting at {@code t0 + B / r - c} makes the two meet
 * whatever {@code L} is ({@link #handOverAt(String, long, long)}). Once the flow's first block
 * ({@code b1} bytes) arrived at {@code t1}, {@code t1 + left / r' - c - L} with the flow's own rate
 * {@code r'} if slower ({@link #handOverAt(long, long, long, long)}) may postpone it. The
 * estimates:
 *
 * <ul>
 *   <li>{@code r}, bytes/s: the byte-weighted median rate of the last {@value #RATE_SAMPLES} rate
 *       samples, so that a large flow weighs as much as its bytes, the short bursts of small blocks
 *       little, and a minority of slow flows (a sender busy for a second or two) not at all; a
 *       lasting change moves it once it carries half of the recent bytes. A flow of two or more
 *       blocks gives (bytes after the first block) over (time from the first block's arrival to the
 *       last one's), so latency is not counted; a flow of one block whose transfer time dominates
 *       its latency gives its bytes over (arrival - request - {@code L}) ({@link
 *       #singleBlockFlowObserved}), since large blocks often make single-block flows whose rate the
 *       small blocks' bursts would overstate. For one flow, the smaller of {@code r} and the flow's
 *       own rate so far, {@code b1 / (t1 - request - L)};
 *   <li>{@code L}, ms: the lower median of the last {@value #SAMPLES} first-block latencies less
 *       the first block's transfer time, at the flow's own rate after its first block when it had
 *       two or more blocks, else at {@code r} (0 until a sample). Not the smallest sample, and not
 *       at {@code r} alone: a rate estimate a little low takes a first block's whole latency for
 *       transfer time, and the smallest sample then hands flows on about one latency too early;
 *   <li>{@code c}, ms: the smallest of the last {@value #SAMPLES} hand-over loops (a step's report
 *       to the request of the step its reply granted, less the coordinator's hold for ports, {@link
 *       #handOverLoop}); until there is one, the smallest of the last {@value #SAMPLES} round trips
 *       of a coordinator call answered at once (a registration);
 *   <li>the size ratio: bytes that arrived / bytes the map output statistics announced, over the
 *       last {@value #SAMPLES} completed flows ({@value #ROUNDING_RATIO_PRIOR} before one). Spark
 *       keeps each block's size rounded up to a power of 1.1 ({@code MapStatus.compressSize},
 *       {@code CompressedMapStatus}), so a flow's announced bytes overstate it by 0-10 %, and a
 *       prediction from them hands the ports on late by that share of the flow's transfer time;
 *       every prediction counts a flow's bytes as announced x ratio ({@link
 *       #estimatedBytes(long)}). With more than 2000 partitions ({@code HighlyCompressedMapStatus})
 *       small blocks are announced at their average size and the ratio stays near 1.
 * </ul>
 *
 * Rate and latency samples come only from flows requested on warm connections (a flow from the same
 * host had completed on this executor): a new connection's first block pays its set-up and its
 * bytes the TCP slow start, which as {@code L} would hand ports on early until warm samples
 * outnumber them. Until {@code r} and {@code c} are measured, the executor's rate does not predict
 * a flow. A flow from a source host that has not yet completed a flow to this executor (a gated
 * flow, or an ungated read's fetch, {@code WanShuffleReader}) is not predicted at it either ({@link
 * #connected(String)}): its connection is new, and the rate of warm connections overestimates it.
 * Both cold cases are predicted from the flow's own rate once its bytes stream ({@link
 * #handOverAtOwnRate}), else reported when their bytes arrive. Until {@value #MIN_LOOPS} hand-over
 * loops are measured, predictions take the smaller {@code c}, so that an executor's first, least
 * typical loops hand ports on late, not early; until a fetch latency is measured, {@code L} = 0, or
 * a cold flow's own. A flow that shares its connection with other flows of this executor from the
 * same host (several tasks per executor; {@link SharedConnections}) is predicted to end after their
 * bytes and its own ({@link #handOverShared}), and its own rate counts from when it was left alone.
 *
 * <p>Thread-safe: every method is synchronized (flows complete on network threads).
 */
final class HandoverPredictor {
  /** Rate samples {@code r} is computed over (the most recent). */
  static final int RATE_SAMPLES = 8;

  static final int SAMPLES = 32;

  /** Shortest first-to-last arrival span that yields a rate sample, ms (clock resolution). */
  static final long MIN_SPAN_MS = 5;

  /**
   * A one-block flow that took at least this many fetch latencies gives a rate sample, not a
   * latency sample.
   */
  static final int TRANSFER_DOMINATED = 3;

  /**
   * Hand-over loops before {@code c} is the smallest of them alone; with fewer, the registration
   * round trips count too. A guard for an executor's first hand-overs, whose loops are its least
   * typical: it errs late by at most a re-plan and an opening, never early.
   */
  static final int MIN_LOOPS = 3;

  /**
   * Fetch latency samples before predictions count {@code L}; with none they take 0 (later, never
   * early), or a cold flow's own latency ({@link #handOverAtOwnRate}). One: waiting for a second
   * sample reports every executor's second flow about one latency late, a loss on the bottleneck at
   * every cold executor, while a first sample too high hands only one flow on early.
   */
  static final int MIN_LATENCIES = 1;

  /**
   * The size ratio before a flow completed: the mean of size / announced size when Spark rounds a
   * block's size up to the next power of 1.1 and the size's exponent has a uniform fraction, (1 -
   * 1/1.1) / ln 1.1, so that an executor's first flows are not predicted at their rounded-up size.
   */
  static final double ROUNDING_RATIO_PRIOR = 0.9538;

  /** Rate samples as {bytes, ms}, the last {@value #RATE_SAMPLES}. */
  private final ArrayDeque<long[]> rates = new ArrayDeque<>();

  private final ArrayDeque<Long> roundTrips = new ArrayDeque<>();
  private final ArrayDeque<Long> loops = new ArrayDeque<>();

  /** Completed flows as {arrived bytes, announced bytes}, the last {@value #SAMPLES}. */
  private final ArrayDeque<long[]> sizes = new ArrayDeque<>();

  private long sizesArrived;
  private long sizesAnnounced;
  private final ArrayDeque<Long> latencies = new ArrayDeque<>();
  private final Set<String> connectedHosts = new HashSet<>();
  private final SharedConnections connections = new SharedConnections();
  private double bytesPerSecond;

  /** A granted flow's rate in the coordinator's model, bytes/s; 0: no bound. */
  private double flowRateBound;

  /**
   * Bounds the rate every prediction assumes for a flow by the rate the coordinator grants it: the
   * base speed (a δ-port host's NIC shared by up to δ granted flows), or the flow rate cap when it
   * paces flows. The executor's measured rate {@code r} comes from flows that may have had a NIC to
   * themselves; on a δ-port platform a newly granted flow may share its sender with δ - 1 others,
   * and predicting it at {@code r} would hand its ports on long before its end, so that the
   * coordinator put more than δ flows on one sender.
   *
   * @param bytesPerSecond the bound, bytes/s; 0 or less for none
   */
  synchronized void boundFlowRate(double bytesPerSecond) {
    flowRateBound = Math.max(0, bytesPerSecond);
  }

  /**
   * @return the rate predictions use: {@code r} at most the flow rate bound, bytes/s (0 before a
   *     sample)
   */
  private double predictionRate() {
    return bounded(bytesPerSecond);
  }

  /**
   * @return {@code bytesPerSecond} at most the flow rate bound ({@link #boundFlowRate}), bytes/s
   */
  private double bounded(double bytesPerSecond) {
    return flowRateBound > 0 ? Math.min(bytesPerSecond, flowRateBound) : bytesPerSecond;
  }

  /**
   * @return the flows of this executor's steps by source host, sharing its connections
   */
  SharedConnections connections() {
    return connections;
  }

  /**
   * Records one coordinator round trip of a call answered at once.
   *
   * @param ms elapsed from send to reply, ms (negative values are ignored)
   */
  synchronized void coordinatorRoundTrip(long ms) {
    add(roundTrips, ms);
  }

  /**
   * Records one whole hand-over loop: from a step's report to the request of the step its reply
   * granted (report to the driver, the coordinator's re-plan and grant, the reply, the blocks taken
   * and the fetch opened), less the time the coordinator held the report for ports ({@code
   * GrantReply.heldMs}). Once there is one, {@code c} is the smallest of the last {@value #SAMPLES}
   * of these instead of a registration's round trip, which leaves out the re-plan, the grant and
   * the opening. The held time is taken out because a receiver behind a bottleneck's flows may wait
   * at every hand-over, and its waits taken for {@code c} would hand its flows on that much early.
   * The smallest, because a plan that was busy with other reports also lengthens a loop.
   *
   * @param ms elapsed from the report to the next step's request less the coordinator's hold, ms
   *     (negative values are ignored)
   */
  synchronized void handOverLoop(long ms) {
    add(loops, ms);
  }

  /**
   * @return {@code c}, ms: the smallest recent hand-over loop once there are {@value #MIN_LOOPS},
   *     else the smallest of the loops and the registration round trips
   */
  private long coordinatorDelay() {
    return loops.size() >= MIN_LOOPS ? min(loops) : Math.min(min(loops), min(roundTrips));
  }

  /**
   * Records one flow's transfer after its first block.
   *
   * @param bytesAfterFirst bytes of the flow's blocks after its first one
   * @param spanMs from the first block's arrival to the last one's, ms; spans under {@value
   *     #MIN_SPAN_MS} ms or without bytes give no sample
   * @return the flow's own rate after its first block, bytes/s; 0 when it gave no sample
   */
  synchronized double flowObserved(long bytesAfterFirst, long spanMs) {
    if (bytesAfterFirst <= 0 || spanMs < MIN_SPAN_MS) {
      return 0;
    }
    rates.addLast(new long[] {bytesAfterFirst, spanMs});
    if (rates.size() > RATE_SAMPLES) {
      rates.removeFirst();
    }
    bytesPerSecond = byteWeightedMedianRate();
    return bytesAfterFirst * 1000.0 / spanMs;
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

  /**
   * Records a flow that brought one block. Spark fetches a (map task, reduce partition) block
   * whole, so a step of large blocks is often one block per host, and its rate can be measured only
   * from its request: once {@code L} is measured, a block that took at least {@value
   * #TRANSFER_DOMINATED} x {@code L} gives a rate sample, its bytes over its time less {@code L};
   * other blocks give a latency sample, their time less their transfer at {@code r}. The test is on
   * {@code L}, not on {@code r}: a rate overestimated twofold (small blocks' bursts) would class a
   * large block as latency-dominated and make its transfer a latency.
   *
   * @param bytes bytes of the block
   * @param requestToArrivalMs from the flow's request to the block's arrival, ms
   */
  synchronized void singleBlockFlowObserved(long bytes, long requestToArrivalMs) {
    if (bytes <= 0 || requestToArrivalMs < 0) {
      return;
    }
    long latency = latencyMs();
    if (!latencies.isEmpty() && requestToArrivalMs >= TRANSFER_DOMINATED * Math.max(1, latency)) {
      flowObserved(bytes, requestToArrivalMs - latency);
    } else {
      fetchLatencyObserved(requestToArrivalMs, bytes, 0);
    }
  }

  /**
   * Records one completed flow's size: what arrived against what Spark's map output statistics
   * announced for its blocks.
   *
   * @param arrivedBytes bytes of the flow's blocks as they arrived (exact)
   * @param announcedBytes the same blocks' sizes in the map output statistics; flows with a
   *     non-positive value on either side give no sample
   */
  synchronized void sizesObserved(long arrivedBytes, long announcedBytes) {
    if (arrivedBytes <= 0 || announcedBytes <= 0) {
      return;
    }
    sizes.addLast(new long[] {arrivedBytes, announcedBytes});
    sizesArrived += arrivedBytes;
    sizesAnnounced += announcedBytes;
    if (sizes.size() > SAMPLES) {
      long[] old = sizes.removeFirst();
      sizesArrived -= old[0];
      sizesAnnounced -= old[1];
    }
  }

  /**
   * @param announcedBytes a flow's bytes as the map output statistics announce them
   * @return the bytes expected to arrive: {@code announcedBytes} x the size ratio of the recent
   *     completed flows, x {@value #ROUNDING_RATIO_PRIOR} until a flow completed
   */
  synchronized long estimatedBytes(long announcedBytes) {
    if (sizesAnnounced <= 0) {
      return Math.round(announcedBytes * ROUNDING_RATIO_PRIOR);
    }
    return Math.round(announcedBytes * ((double) sizesArrived / sizesAnnounced));
  }

  /**
   * Records that a flow from {@code host} completed: the executor's connection to it is open and
   * its congestion window grown, so its next flows may be predicted.
   *
   * @param host source host of the flow
   */
  synchronized void flowCompleted(String host) {
    connectedHosts.add(host);
  }

  /**
   * @param host a source host
   * @return whether a flow from it has completed on this executor ({@link #flowCompleted})
   */
  synchronized boolean connected(String host) {
    return connectedHosts.contains(host);
  }

  /**
   * Records one flow's fetch latency.
   *
   * @param firstBlockMs from the flow's request to its first block's arrival, ms
   * @param firstBytes bytes of that block
   * @param flowBytesPerSecond the flow's own rate after its first block, bytes/s; 0 or less (one
   *     block) takes the executor's rate, and gives no sample before that is measured
   */
  synchronized void fetchLatencyObserved(
      long firstBlockMs, long firstBytes, double flowBytesPerSecond) {
    double rate = flowBytesPerSecond > 0 ? flowBytesPerSecond : bytesPerSecond;
    if (rate <= 0 || firstBlockMs < 0) {
      return;
    }
    add(latencies, Math.max(0, firstBlockMs - (long) (firstBytes * 1000.0 / rate)));
  }

  /**
   * The prediction at the request: the flow's bytes at the executor's rate, less one coordinator
   * round trip (the fetch latency of this flow and of the next one cancel out).
   *
   * @param host the flow's source host
   * @param requestMs when the flow's blocks were requested, epoch ms
   * @param bytes bytes of the flow
   * @return epoch ms at which the flow's ports may be handed on (at least {@code requestMs}); -1
   *     while the rate or the coordinator round trip is not measured, or when no flow from {@code
   *     host} has completed on this executor ({@link #connected})
   */
  synchronized long handOverAt(String host, long requestMs, long bytes) {
    if (bytesPerSecond <= 0 || roundTrips.isEmpty() || !connectedHosts.contains(host)) {
      return -1;
    }
    long transferMs = (long) Math.ceil(bytes * 1000.0 / predictionRate());
    return Math.max(requestMs, requestMs + transferMs - coordinatorDelay());
  }

  /**
   * The prediction once the flow's first block arrived, at the flow's own rate if it is slower.
   *
   * @param requestMs when the flow's blocks were requested, epoch ms
   * @param firstMs when its first block arrived, epoch ms
   * @param firstBytes bytes of that block
   * @param bytesLeft bytes still to arrive, &gt; 0
   * @return epoch ms at which the flow's ports may be handed on (at least {@code firstMs}); -1
   *     while the rate or the coordinator round trip is not measured
   */
  synchronized long handOverAt(long requestMs, long firstMs, long firstBytes, long bytesLeft) {
    if (bytesPerSecond <= 0 || roundTrips.isEmpty()) {
      return -1;
    }
    long c = coordinatorDelay();
    long latency = predictionLatencyMs();
    double rate = predictionRate();
    long transferMs = firstMs - requestMs - latency;
    if (transferMs > 0 && firstBytes > 0) {
      rate = Math.min(rate, firstBytes * 1000.0 / transferMs);
    }
    long end = firstMs + (long) Math.ceil(bytesLeft * 1000.0 / rate);
    return Math.max(firstMs, end - c - latency);
  }

  /**
   * The prediction for a flow sharing its connection with other flows ({@link SharedConnections}):
   * their bytes and its own arrive at the executor's rate from now on, after one fetch latency if
   * none of the flow's blocks has arrived yet (as at its request); reported one coordinator round
   * trip and one fetch latency before that end, as every flow.
   *
   * @param nowMs epoch ms
   * @param bytesQueued bytes still to arrive on the connection up to the flow's last one
   * @param flowing whether the flow's first block has arrived (its bytes are on the way)
   * @return epoch ms at which the flow's ports may be handed on (at least {@code nowMs}); -1 while
   *     the rate or the coordinator round trip is not measured
   */
  synchronized long handOverAfter(long nowMs, long bytesQueued, boolean flowing) {
    if (bytesPerSecond <= 0 || roundTrips.isEmpty()) {
      return -1;
    }
    long latency = predictionLatencyMs();
    long end =
        nowMs + (flowing ? 0 : latency) + (long) Math.ceil(bytesQueued * 1000.0 / predictionRate());
    return Math.max(nowMs, end - coordinatorDelay() - latency);
  }

  /**
   * The prediction for a flow whose bytes are arriving when the executor's own estimates do not
   * apply to it (a cold start: no rate measured yet, or no flow from its source host completed on
   * this executor, {@link #handOverAt(String, long, long)}): the bytes left arrive at the flow's
   * own recent rate (at most the flow rate bound), reported one coordinator round trip and one
   * fetch latency before that end, so that an executor's first flows need not wait for their
   * arrival to be reported. The rate is measured on the flow, never a configured rate the platform
   * may not have. Before the executor has a fetch latency sample, the flow's own latency (from its
   * request to its first streamed bytes, on a warm connection) stands for {@code L}: the next
   * flow's first byte comes that long after its request too.
   *
   * @param nowMs epoch ms
   * @param bytesLeft bytes of the flow still to arrive, &ge; 0
   * @param ownBytesPerSecond the flow's own recent rate, bytes/s
   * @param ownLatencyMs the flow's own fetch latency, ms: from its request to its first bytes on a
   *     warm connection; negative when unknown (a new connection, or no bytes streamed yet)
   * @return epoch ms at which the flow's ports may be handed on (at least {@code nowMs}); -1
   *     without an own rate (0 or less) or before the coordinator round trip is measured
   */
  synchronized long handOverAtOwnRate(
      long nowMs, long bytesLeft, double ownBytesPerSecond, long ownLatencyMs) {
    if (ownBytesPerSecond <= 0 || roundTrips.isEmpty()) {
      return -1;
    }
    long latency = predictionLatencyMs(Math.max(0, ownLatencyMs));
    long end = nowMs + (long) Math.ceil(bytesLeft * 1000.0 / bounded(ownBytesPerSecond));
    return Math.max(nowMs, end - coordinatorDelay() - latency);
  }

  /**
   * The prediction for a flow that shares its connection with other open flows of this executor
   * ({@link SharedConnections}): the earlier of two ends, each reported one coordinator round trip
   * and one fetch latency before it. By bytes ({@link #handOverAfter}): the others' unarrived bytes
   * and its own arrive at the prediction rate from now, counting a block in flight as not sent. By
   * time ({@link SharedConnections#othersEndMs}): its bytes left arrive once the others are
   * expected to have ended and, while none of its blocks has arrived, not before one fetch latency
   * after its request; this one is earlier when the step was granted on a port handed on ahead of
   * the previous flow's end, whose last block is then still on its way.
   *
   * @param flow the flow, open on its connection
   * @param nowMs epoch ms
   * @param requestMs when the flow was requested, epoch ms
   * @param bytesLeft bytes of the flow still to arrive, &ge; 0
   * @param flowing whether the flow's first block has arrived
   * @return epoch ms at which the flow's ports may be handed on (at least {@code nowMs}); -1 while
   *     the rate or the coordinator round trip is not measured, or when no other flow's bytes are
   *     open on the connection
   */
  synchronized long handOverShared(
      SharedConnections.Flow flow, long nowMs, long requestMs, long bytesLeft, boolean flowing) {
    long sharing = connections.bytesSharing(flow);
    if (sharing <= 0 || bytesPerSecond <= 0 || roundTrips.isEmpty()) {
      return -1;
    }
    long byBytes = handOverAfter(nowMs, sharing + bytesLeft, flowing);
    double rate = predictionRate();
    long latency = predictionLatencyMs();
    long othersEnd = connections.othersEndMs(flow, rate / 1000.0, latency);
    if (othersEnd < 0) {
      return byBytes;
    }
    long start = Math.max(Math.max(othersEnd, nowMs), flowing ? nowMs : requestMs + latency);
    long end = start + (long) Math.ceil(bytesLeft * 1000.0 / rate);
    return Math.min(byBytes, Math.max(nowMs, end - coordinatorDelay() - latency));
  }

  /**
   * @return the current rate estimate, bytes/s (0 before the first sample)
   */
  synchronized double bytesPerSecond() {
    return bytesPerSecond;
  }

  /**
   * @return {@code c} as predictions take it, ms ({@link #handOverLoop}); {@code Long.MAX_VALUE}
   *     before a loop or a round trip is measured
   */
  synchronized long coordinatorDelayMs() {
    return coordinatorDelay();
  }

  /**
   * @return {@code L}, the fetch latency estimate (lower median of the samples), ms (0 until
   *     measured)
   */
  synchronized long fetchLatencyMs() {
    return latencyMs();
  }

  /**
   * @return {@code L} as predictions take it: 0 until {@value #MIN_LATENCIES} sample(s), ms
   */
  private long predictionLatencyMs() {
    return predictionLatencyMs(0);
  }

  /**
   * @param unmeasuredMs what stands for {@code L} before {@value #MIN_LATENCIES} sample(s), ms
   * @return {@code L} as predictions take it, ms
   */
  private long predictionLatencyMs(long unmeasuredMs) {
    return latencies.size() >= MIN_LATENCIES ? latencyMs() : unmeasuredMs;
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
    if (window.size() > SAMPLES) {
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
