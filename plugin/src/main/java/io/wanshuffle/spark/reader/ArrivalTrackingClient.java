package io.wanshuffle.spark.reader;

import com.codahale.metrics.MetricSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.checksum.Cause;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockId$;
import org.apache.spark.storage.ShuffleBlockBatchId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block store client of one granted step's fetcher: passes every call to Spark's client and
 * tells when the step's bytes have all reached this host, i.e. when the step's flow has ended on
 * the network, which is before the task has read the blocks. The reader then reports the step at
 * once, so the coordinator can give the ports to the next flow while the task is still busy with
 * the records of this one.
 *
 * <p>The step is complete when the requests sent cover every block of the step (a batch block
 * {@code shuffle_s_m_a_b} covers reduce ids a..b-1) and every requested block arrived. The callback
 * never runs if a block fails (the fetcher raises it as a {@code FetchFailedException}) or if the
 * fetcher keeps requests back (more than {@code spark.reducer.maxSizeInFlight} in the step) until
 * the task has read earlier blocks; the reader then reports the step when the task has read it, as
 * without this client.
 *
 * <p>It also predicts when the step's ports can be handed on ahead of its end (predicted
 * hand-over): once every source host of the step has been sent its request, {@code ahead} is told
 * the latest of the hosts' hand-over times ({@link HandoverPredictor#handOverAt(String, long,
 * long)}); a flow whose bytes arrive slower than predicted postpones it: the blocks are streamed
 * into memory ({@link StreamedBlocks}) and every streamed block, to memory or to disk, is counted
 * as it is written ({@link CountedDownloads}), and the hand-over is re-predicted from the bytes
 * left at the prediction rate, at most every {@value #PROGRESS_CHECK_MS} ms, never earlier than
 * they allow ({@link HandoverPredictor#handOverAfter}); without streaming ({@code
 * spark.wanshuffle.step.progress=false}), a host whose first block shows it slower than predicted
 * postpones it ({@link HandoverPredictor#handOverAt(long, long, long, long)}); hosts done sending
 * no longer count; a host with no completed flow on this executor yet ({@link
 * HandoverPredictor#connected(String)}), or any host before the executor measured a rate (a cold
 * start), is predicted from its flow's own recent rate (its last 100-200 ms of streamed bytes, and,
 * before the executor measured a fetch latency, its own: from its request to its first streamed
 * bytes, on a warm connection; {@link HandoverPredictor#handOverAtOwnRate}), and without streamed
 * bytes leaves the step to be reported on arrival; a host whose connection also carries another
 * step's bytes on this executor ({@link SharedConnections}: several tasks per executor, or the next
 * step of the same host pair requested while the previous one's last block is in flight) is
 * predicted after them ({@link HandoverPredictor#handOverShared}). When the step completes, each
 * host gives the predictor its samples (transfer rate from two or more blocks, or from one block
 * whose transfer time dominates; fetch latency; size ratio); a host whose flow was requested on a
 * new connection gives only its size ratio, since its first block paid the connection's set-up and
 * its bytes the slow start; without {@code ahead} nothing is predicted or measured. With the logger
 * of this class at DEBUG each completed flow's timings are logged on the executor.
 *
 * <p>Thread-safe: requests are sent from the task thread, results arrive on network threads. {@link
 * #close()} does not close Spark's shared client.
 */
final class ArrivalTrackingClient extends BlockStoreClient {
  private static final Logger LOG = LoggerFactory.getLogger(ArrivalTrackingClient.class);

  /** Least time between two re-predictions of the hand-over from a flow's progress, ms. */
  static final long PROGRESS_CHECK_MS = 20;

  /**
   * Least time a flow must have streamed before its own rate predicts its hand-over in a cold
   * start, ms.
   */
  static final long MIN_OWN_RATE_SPAN_MS = 50;

  /**
   * A flow's own rate in a cold start counts over its last one to two windows of this many ms, not
   * since its first bytes: what it delivers now, past its slow start and the pauses between its
   * blocks; the rate since the first bytes underestimates it, which postpones a cold start's
   * prediction past the flow's end.
   */
  static final long OWN_RATE_WINDOW_MS = 100;

  /** Told the epoch ms at which the step may be reported ahead of its end; may be told again. */
  interface AheadSignal {
    void at(long epochMs);
  }

  /** One source host's flow in the step. */
  private static final class Flow {
    final long expectedBytes;
    long requestMs = -1;
    long firstMs = -1;
    long firstBytes;
    long lastMs;
    long bytes;
    int blocks;

    /** Bytes arrived so far, blocks in progress included (streamed requests only). */
    long streamed;

    /** Epoch ms of its first streamed bytes, -1 before them. */
    long firstStreamedMs = -1;

    /**
     * The latest progress mark: {@link #streamed} at {@code markMs} (epoch ms, -1 before its first
     * streamed bytes), set at the first streamed chunk and then every {@value #OWN_RATE_WINDOW_MS}
     * ms; the mark before it in {@code earlierMarkMs} (-1 while there is none). Its own recent rate
     * is counted from the earlier mark.
     */
    long markMs = -1;

    long markBytes;
    long earlierMarkMs = -1;
    long earlierMarkBytes;

    /**
     * Whether a flow from its host had completed on this executor when it was requested: its
     * connection was open and its congestion window grown, so its timings are samples of the warm
     * connections it is predicted with.
     */
    boolean warm;

    /** Its place on the connection from its host, from its first request on. */
    SharedConnections.Flow shared;

    Flow(long expectedBytes) {
      this.expectedBytes = expectedBytes;
    }
  }

  private final BlockStoreClient delegate;
  private final long expectedBlocks;
  private final Runnable onArrived;
  private final AheadSignal ahead;
  private final HandoverPredictor predictor;
  private final LongSupplier clockMs;
  private final boolean streamProgress;
  private final FlowProgress progress;
  private final Map<String, Flow> flows = new HashMap<>();
  private long toldAhead = -1;
  private long lastProgressCheckMs;
  private long requestedBlocks;
  private int outstanding;
  private boolean failed;
  private boolean fired;

  /**
   * @param delegate Spark's block store client of the executor
   * @param expectedBlocks blocks of the step, counted with {@link #coverage(BlockId)}
   * @param expectedBytes bytes of the step per source host (as Spark's map statuses give them)
   * @param onArrived runs once, on a network thread, when every block of the step arrived
   * @param ahead told when the step may be reported ahead of its end; null for no prediction
   * @param predictor the executor's estimates; receives the step's samples when it completes
   * @param clockMs the clock that times requests and arrivals, epoch ms
   */
  ArrivalTrackingClient(
      BlockStoreClient delegate,
      long expectedBlocks,
      Map<String, Long> expectedBytes,
      Runnable onArrived,
      AheadSignal ahead,
      HandoverPredictor predictor,
      LongSupplier clockMs) {
    this(delegate, expectedBlocks, expectedBytes, onArrived, ahead, predictor, clockMs, true);
  }

  /**
   * @param delegate Spark's block store client of the executor
   * @param expectedBlocks blocks of the step, counted with {@link #coverage(BlockId)}
   * @param expectedBytes bytes of the step per source host (as Spark's map statuses give them)
   * @param onArrived runs once, on a network thread, when every block of the step arrived
   * @param ahead told when the step may be reported ahead of its end; null for no prediction
   * @param predictor the executor's estimates; receives the step's samples when it completes
   * @param clockMs the clock that times requests and arrivals, epoch ms
   * @param streamProgress with {@code ahead}, whether blocks Spark would fetch whole into memory
   *     are streamed into memory instead ({@link StreamedBlocks}) and blocks Spark fetches to disk
   *     counted as they are written ({@link CountedDownloads}), so the flows' bytes are counted as
   *     they arrive
   */
  ArrivalTrackingClient(
      BlockStoreClient delegate,
      long expectedBlocks,
      Map<String, Long> expectedBytes,
      Runnable onArrived,
      AheadSignal ahead,
      HandoverPredictor predictor,
      LongSupplier clockMs,
      boolean streamProgress) {
    this(
        delegate,
        expectedBlocks,
        expectedBytes,
        onArrived,
        ahead,
        predictor,
        clockMs,
        streamProgress,
        new FlowProgress());
  }

  /**
   * @param delegate Spark's block store client of the executor
   * @param expectedBlocks blocks of the step, counted with {@link #coverage(BlockId)}
   * @param expectedBytes bytes of the step per source host (as Spark's map statuses give them)
   * @param onArrived runs once, on a network thread, when every block of the step arrived
   * @param ahead told when the step may be reported ahead of its end; null for no prediction
   * @param predictor the executor's estimates; receives the step's samples when it completes
   * @param clockMs the clock that times requests and arrivals, epoch ms
   * @param streamProgress as above
   * @param progress told every request sent, every streamed chunk and every block settled (arrived
   *     or failed), for the step's stall watch
   */
  ArrivalTrackingClient(
      BlockStoreClient delegate,
      long expectedBlocks,
      Map<String, Long> expectedBytes,
      Runnable onArrived,
      AheadSignal ahead,
      HandoverPredictor predictor,
      LongSupplier clockMs,
      boolean streamProgress,
      FlowProgress progress) {
    this.progress = progress;
    this.streamProgress = streamProgress;
    this.delegate = delegate;
    this.expectedBlocks = expectedBlocks;
    this.onArrived = onArrived;
    this.ahead = ahead;
    this.predictor = predictor;
    this.clockMs = clockMs;
    expectedBytes.forEach((h, b) -> flows.put(h, new Flow(b)));
  }

  /**
   * @param id a block id
   * @return the shuffle blocks it stands for: {@code end - start} for a batch of continuous reduce
   *     ids, 1 otherwise
   */
  static long coverage(BlockId id) {
    if (id instanceof ShuffleBlockBatchId b) {
      return Math.max(1, b.endReduceId() - b.startReduceId());
    }
    return 1;
  }

  private static long coverage(String name) {
    try {
      return coverage(BlockId$.MODULE$.apply(name));
    } catch (RuntimeException e) {
      return 1;
    }
  }

  @Override
  public void fetchBlocks(
      String host,
      int port,
      String execId,
      String[] blockIds,
      BlockFetchingListener listener,
      DownloadFileManager downloadFileManager) {
    long covered = 0;
    for (String id : blockIds) {
      covered += coverage(id);
    }
    long now = clockMs.getAsLong();
    progress.requested(blockIds.length, now);
    synchronized (this) {
      requestedBlocks += covered;
      outstanding += blockIds.length;
      Flow f = flows.computeIfAbsent(host, h -> new Flow(0));
      if (f.requestMs < 0) {
        f.requestMs = now;
        f.warm = predictor.connected(host);
        f.shared =
            predictor.connections().open(host, predictor.estimatedBytes(f.expectedBytes), now);
      }
    }
    tellAhead();
    // with predicted hand-over, blocks Spark would fetch whole into memory are streamed into memory
    // instead, and every streamed block is counted as it is written, so the flow's progress is seen
    // while it is on the network
    DownloadFileManager downloads =
        ahead == null || !streamProgress
            ? downloadFileManager
            : new CountedDownloads(
                downloadFileManager == null ? new StreamedBlocks() : downloadFileManager,
                n -> streamed(host, n));
    delegate.fetchBlocks(
        host,
        port,
        execId,
        blockIds,
        new BlockFetchingListener() {
          @Override
          public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
            long size = data.size();
            listener.onBlockFetchSuccess(blockId, data);
            arrived(host, size, false);
          }

          @Override
          public void onBlockFetchFailure(String blockId, Throwable exception) {
            listener.onBlockFetchFailure(blockId, exception);
            arrived(host, 0, true);
          }

          @Override
          public String getTransferType() {
            return listener.getTransferType();
          }
        },
        downloads);
  }

  /**
   * Part of a block from {@code host} arrived: counts it, and re-predicts the step's hand-over at
   * most every {@value #PROGRESS_CHECK_MS} ms (a flow that falls behind its prediction, e.g. held
   * back by its sender's congestion control, postpones it).
   */
  private void streamed(String host, long bytes) {
    long now = clockMs.getAsLong();
    progress.advanced(now);
    synchronized (this) {
      Flow f = flows.get(host);
      if (f != null) {
        f.streamed += bytes;
        if (f.firstStreamedMs < 0) {
          f.firstStreamedMs = now;
        }
        if (f.markMs < 0 || now - f.markMs >= OWN_RATE_WINDOW_MS) {
          f.earlierMarkMs = f.markMs;
          f.earlierMarkBytes = f.markBytes;
          f.markMs = now;
          f.markBytes = f.streamed;
        }
      }
      if (now - lastProgressCheckMs < PROGRESS_CHECK_MS) {
        return;
      }
      lastProgressCheckMs = now;
    }
    tellAhead();
  }

  private void arrived(String host, long bytes, boolean failure) {
    boolean fire;
    long now = clockMs.getAsLong();
    progress.settled(now);
    synchronized (this) {
      outstanding--;
      failed |= failure;
      if (!failure) {
        Flow f = flows.computeIfAbsent(host, h -> new Flow(0));
        if (f.firstMs < 0) {
          f.firstMs = now;
          f.firstBytes = bytes;
        }
        f.lastMs = now;
        f.bytes += bytes;
        f.blocks++;
        if (f.shared != null) {
          predictor.connections().arrived(f.shared, bytes, now);
        }
      }
      fire = !fired && !failed && outstanding == 0 && requestedBlocks >= expectedBlocks;
      fired |= fire;
      if (fire || failed) {
        leaveConnections(now);
      }
    }
    if (!fire) {
      tellAhead();
      return;
    }
    onArrived.run();
    if (ahead != null) {
      for (Map.Entry<String, Flow> e : flows.entrySet()) {
        Flow f = e.getValue();
        if (f.blocks == 0) {
          continue;
        }
        predictor.flowCompleted(e.getKey());
        predictor.sizesObserved(f.bytes, f.expectedBytes);
        // a flow on a new connection pays its set-up and slow start: its timings are not those of
        // the warm connections predictions are made for
        double ownRate = 0;
        if (f.warm) {
          if (f.blocks >= 2) {
            ownRate = predictor.flowObserved(f.bytes - f.firstBytes, f.lastMs - f.firstMs);
            predictor.fetchLatencyObserved(f.firstMs - f.requestMs, f.firstBytes, ownRate);
          } else {
            predictor.singleBlockFlowObserved(f.bytes, f.firstMs - f.requestMs);
          }
        }
        if (LOG.isDebugEnabled()) {
          LOG.debug(
              "flow from {} ({} connection): {} B in {} block(s), requested at {}, first block {} B"
                  + " after {} ms, last after {} ms, own rate {} B/s; now rate {} B/s, L {} ms, c {} ms, size ratio {},"
                  + " handed on at {}",
              e.getKey(),
              f.warm ? "warm" : "new",
              f.bytes,
              f.blocks,
              f.requestMs,
              f.firstBytes,
              f.firstMs - f.requestMs,
              f.lastMs - f.requestMs,
              Math.round(ownRate),
              Math.round(predictor.bytesPerSecond()),
              predictor.fetchLatencyMs(),
              predictor.coordinatorDelayMs(),
              predictor.estimatedBytes(1_000_000) / 1e6,
              toldAhead);
        }
      }
    }
  }

  /** Takes this step's flows off their connections (the step completed, failed or was dropped). */
  private synchronized void leaveConnections(long now) {
    for (Flow f : flows.values()) {
      if (f.shared != null) {
        predictor.connections().close(f.shared, now);
      }
    }
  }

  /** Tells {@code ahead} the step's predicted hand-over when there is one and it changed. */
  private void tellAhead() {
    long at;
    synchronized (this) {
      if (ahead == null || fired || failed) {
        return;
      }
      at = handOverAt();
      if (at < 0 || at == toldAhead) {
        return;
      }
      toldAhead = at;
    }
    ahead.at(at);
  }

  /**
   * @return the latest hand-over time over the hosts still sending, epoch ms; -1 while a host of
   *     the step has not been sent its request, has no completed flow on this executor yet or the
   *     predictor has no estimate
   */
  private long handOverAt() {
    long now = clockMs.getAsLong();
    long at = -1;
    for (Map.Entry<String, Flow> e : flows.entrySet()) {
      Flow f = e.getValue();
      if (f.requestMs < 0) {
        if (f.expectedBytes == 0) {
          continue; // nothing asked from this host
        }
        return -1;
      }
      if (f.blocks > 0 && f.expectedBytes - f.bytes <= 0) {
        continue; // done sending
      }
      // the announced sizes overstate the blocks (Spark rounds them up): predict the bytes expected
      // to arrive
      long expected = predictor.estimatedBytes(f.expectedBytes);
      long left = Math.max(0, expected - Math.max(f.bytes, f.streamed));
      long t = predictor.handOverAt(e.getKey(), f.requestMs, expected);
      if (t < 0) {
        // a cold start (no rate measured, or a new connection): from the flow's own progress once
        // its bytes stream
        long ownLatency = f.warm && f.firstStreamedMs >= 0 ? f.firstStreamedMs - f.requestMs : -1;
        t = predictor.handOverAtOwnRate(now, left, ownRecentRate(f, now), ownLatency);
        if (t < 0) {
          return -1;
        }
        at = Math.max(at, t);
        continue;
      }
      // other steps' bytes from this host share the connection: they may come first
      t = Math.max(t, predictor.handOverShared(f.shared, now, f.requestMs, left, f.firstMs >= 0));
      if (f.streamed > 0) {
        // its bytes are arriving: the rest arrives at the prediction rate from now on, not before
        // (this supersedes the first block's rate below, which a flow held back for a while and
        // then back at full speed understates)
        t = Math.max(t, predictor.handOverAfter(now, left, true));
        at = Math.max(at, t);
        continue;
      }
      long cleared = predictor.connections().clearedMs(f.shared);
      if (f.firstMs >= 0 && cleared >= 0) {
        // the flow's own rate counts from its request, or from when it was left alone on its
        // connection
        t =
            Math.max(
                t,
                predictor.handOverAt(
                    Math.max(f.requestMs, cleared), f.firstMs, f.firstBytes, left));
      }
      at = Math.max(at, t);
    }
    return at;
  }

  /**
   * @return the flow's recent rate, bytes/s: its bytes streamed since its earlier progress mark,
   *     over the time since (between one and two {@value #OWN_RATE_WINDOW_MS} ms windows), or since
   *     its first streamed chunk while it has one mark (that chunk not counted); 0 before it
   *     streamed for {@value #MIN_OWN_RATE_SPAN_MS} ms
   */
  private static double ownRecentRate(Flow f, long now) {
    long fromMs = f.earlierMarkMs >= 0 ? f.earlierMarkMs : f.markMs;
    long fromBytes = f.earlierMarkMs >= 0 ? f.earlierMarkBytes : f.markBytes;
    long span = now - fromMs;
    if (f.markMs < 0 || span < MIN_OWN_RATE_SPAN_MS) {
      return 0;
    }
    return (f.streamed - fromBytes) * 1000.0 / span;
  }

  @Override
  public Cause diagnoseCorruption(
      String host,
      int port,
      String execId,
      int shuffleId,
      long mapId,
      int reduceId,
      long checksum,
      String algorithm) {
    return delegate.diagnoseCorruption(
        host, port, execId, shuffleId, mapId, reduceId, checksum, algorithm);
  }

  @Override
  public MetricSet shuffleMetrics() {
    return delegate.shuffleMetrics();
  }

  @Override
  public void getHostLocalDirs(
      String host,
      int port,
      String[] execIds,
      CompletableFuture<Map<String, String[]>> hostLocalDirsCompletable) {
    delegate.getHostLocalDirs(host, port, execIds, hostLocalDirsCompletable);
  }

  @Override
  public void setAppAttemptId(String appAttemptId) {
    delegate.setAppAttemptId(appAttemptId);
  }

  @Override
  public String getAppAttemptId() {
    return delegate.getAppAttemptId();
  }

  /**
   * Takes the step's flows off the executor's connections ({@link SharedConnections}) if it did not
   * complete; leaves Spark's shared client open (it belongs to the executor's BlockManager). Called
   * when the task ends.
   */
  @Override
  public void close() {
    leaveConnections(clockMs.getAsLong());
  }
}
