package io.wanshuffle.spark.reader;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.annotation.concurrent.GuardedBy;

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
 * <p>Shared by every gated read of the executor, so by many threads: the samples are recorded by
 * network threads (a step's flows completed, {@link ArrivalTrackingClient}), the RPC thread that
 * answers a registration (a round trip, {@link CoordinatorConversation}), step-opener threads (a
 * hand-over loop, {@link StepOpener}) and task threads (the flow rate bound); predictions are asked
 * for on task and step-opener threads (a step's requests) and network threads (its progress). The
 * sample windows ({@link HandoverSamples}) are guarded by this object's monitor, taken in one place
 * (the only synchronized method); each change publishes an immutable {@link
 * HandoverSamples.Estimates} through a volatile field, which every prediction reads once, without a
 * lock, so a prediction sees one consistent set of {@code r}, {@code c}, {@code L} and the size
 * ratio. The hosts with a completed flow are a concurrent set (only ever added to); {@link
 * SharedConnections} guards its own state.
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

  /** The sample windows; changed only in {@code record}. */
  @GuardedBy("this")
  private final HandoverSamples samples = new HandoverSamples();

  /** What the samples give, as of the last change; read by any thread without a lock. */
  private volatile HandoverSamples.Estimates estimates = samples.estimates();

  /** Source hosts from which a flow has completed on this executor; only ever added to. */
  private final Set<String> connectedHosts = ConcurrentHashMap.newKeySet();

  private final SharedConnections connections = new SharedConnections();

  /** Applies one change to the samples and publishes the estimates it gives. */
  private synchronized void record(Consumer<HandoverSamples> change) {
    change.accept(samples);
    estimates = samples.estimates();
  }

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
  void boundFlowRate(double bytesPerSecond) {
    record(s -> s.boundFlowRate(bytesPerSecond));
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
  void coordinatorRoundTrip(long ms) {
    record(s -> s.coordinatorRoundTrip(ms));
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
  void handOverLoop(long ms) {
    record(s -> s.handOverLoop(ms));
  }

  /**
   * Records one flow's transfer after its first block.
   *
   * @param bytesAfterFirst bytes of the flow's blocks after its first one
   * @param spanMs from the first block's arrival to the last one's, ms; spans under {@value
   *     #MIN_SPAN_MS} ms or without bytes give no sample
   * @return the flow's own rate after its first block, bytes/s; 0 when it gave no sample
   */
  double flowObserved(long bytesAfterFirst, long spanMs) {
    if (bytesAfterFirst <= 0 || spanMs < MIN_SPAN_MS) {
      return 0;
    }
    record(s -> s.flowObserved(bytesAfterFirst, spanMs));
    return bytesAfterFirst * 1000.0 / spanMs;
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
  void singleBlockFlowObserved(long bytes, long requestToArrivalMs) {
    record(s -> s.singleBlockFlowObserved(bytes, requestToArrivalMs));
  }

  /**
   * Records one completed flow's size: what arrived against what Spark's map output statistics
   * announced for its blocks.
   *
   * @param arrivedBytes bytes of the flow's blocks as they arrived (exact)
   * @param announcedBytes the same blocks' sizes in the map output statistics; flows with a
   *     non-positive value on either side give no sample
   */
  void sizesObserved(long arrivedBytes, long announcedBytes) {
    record(s -> s.sizesObserved(arrivedBytes, announcedBytes));
  }

  /**
   * @param announcedBytes a flow's bytes as the map output statistics announce them
   * @return the bytes expected to arrive: {@code announcedBytes} x the size ratio of the recent
   *     completed flows, x {@value #ROUNDING_RATIO_PRIOR} until a flow completed
   */
  long estimatedBytes(long announcedBytes) {
    return estimates.estimatedBytes(announcedBytes);
  }

  /**
   * Records that a flow from {@code host} completed: the executor's connection to it is open and
   * its congestion window grown, so its next flows may be predicted.
   *
   * @param host source host of the flow
   */
  void flowCompleted(String host) {
    connectedHosts.add(host);
  }

  /**
   * @param host a source host
   * @return whether a flow from it has completed on this executor ({@link #flowCompleted})
   */
  boolean connected(String host) {
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
  void fetchLatencyObserved(long firstBlockMs, long firstBytes, double flowBytesPerSecond) {
    record(s -> s.fetchLatencyObserved(firstBlockMs, firstBytes, flowBytesPerSecond));
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
  long handOverAt(String host, long requestMs, long bytes) {
    HandoverSamples.Estimates e = estimates;
    if (!e.measured() || !connectedHosts.contains(host)) {
      return -1;
    }
    long transferMs = (long) Math.ceil(bytes * 1000.0 / e.predictionRate());
    return Math.max(requestMs, requestMs + transferMs - e.coordinatorDelayMs());
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
  long handOverAt(long requestMs, long firstMs, long firstBytes, long bytesLeft) {
    HandoverSamples.Estimates e = estimates;
    if (!e.measured()) {
      return -1;
    }
    long latency = e.predictionLatencyMs(0);
    double rate = e.predictionRate();
    long transferMs = firstMs - requestMs - latency;
    if (transferMs > 0 && firstBytes > 0) {
      rate = Math.min(rate, firstBytes * 1000.0 / transferMs);
    }
    long end = firstMs + (long) Math.ceil(bytesLeft * 1000.0 / rate);
    return Math.max(firstMs, end - e.coordinatorDelayMs() - latency);
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
  long handOverAfter(long nowMs, long bytesQueued, boolean flowing) {
    return handOverAfter(estimates, nowMs, bytesQueued, flowing);
  }

  private static long handOverAfter(
      HandoverSamples.Estimates e, long nowMs, long bytesQueued, boolean flowing) {
    if (!e.measured()) {
      return -1;
    }
    long latency = e.predictionLatencyMs(0);
    long end =
        nowMs
            + (flowing ? 0 : latency)
            + (long) Math.ceil(bytesQueued * 1000.0 / e.predictionRate());
    return Math.max(nowMs, end - e.coordinatorDelayMs() - latency);
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
  long handOverAtOwnRate(long nowMs, long bytesLeft, double ownBytesPerSecond, long ownLatencyMs) {
    HandoverSamples.Estimates e = estimates;
    if (ownBytesPerSecond <= 0 || !e.roundTripMeasured()) {
      return -1;
    }
    long latency = e.predictionLatencyMs(Math.max(0, ownLatencyMs));
    long end = nowMs + (long) Math.ceil(bytesLeft * 1000.0 / e.bounded(ownBytesPerSecond));
    return Math.max(nowMs, end - e.coordinatorDelayMs() - latency);
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
  long handOverShared(
      SharedConnections.Flow flow, long nowMs, long requestMs, long bytesLeft, boolean flowing) {
    HandoverSamples.Estimates e = estimates;
    long sharing = connections.bytesSharing(flow);
    if (sharing <= 0 || !e.measured()) {
      return -1;
    }
    long byBytes = handOverAfter(e, nowMs, sharing + bytesLeft, flowing);
    double rate = e.predictionRate();
    long latency = e.predictionLatencyMs(0);
    long othersEnd = connections.othersEndMs(flow, rate / 1000.0, latency);
    if (othersEnd < 0) {
      return byBytes;
    }
    long start = Math.max(Math.max(othersEnd, nowMs), flowing ? nowMs : requestMs + latency);
    long end = start + (long) Math.ceil(bytesLeft * 1000.0 / rate);
    return Math.min(byBytes, Math.max(nowMs, end - e.coordinatorDelayMs() - latency));
  }

  /**
   * @return the current rate estimate, bytes/s (0 before the first sample)
   */
  double bytesPerSecond() {
    return estimates.bytesPerSecond();
  }

  /**
   * @return {@code c} as predictions take it, ms ({@link #handOverLoop}); {@code Long.MAX_VALUE}
   *     before a loop or a round trip is measured
   */
  long coordinatorDelayMs() {
    return estimates.coordinatorDelayMs();
  }

  /**
   * @return {@code L}, the fetch latency estimate (lower median of the samples), ms (0 until
   *     measured)
   */
  long fetchLatencyMs() {
    return estimates.fetchLatencyMs();
  }
}
