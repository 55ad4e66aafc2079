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
 * fetcher keeps requests back (more than {@code spark.reducer.maxSizeInFlight} in the step) until the
 * task has read earlier blocks; the reader then reports the step when the task has read it, as
 * without this client.
 *
 * <p>When the step completes, each source host whose blocks arrived two or more at a time on its
 * connection gives the {@link HandoverPredictor} a rate sample: the bytes after the host's first
 * block over the time from the first block's arrival to the last one's.
 *
 * <p>Thread-safe: requests are sent from the task thread, results arrive on network threads.
 * {@link #close()} does not close Spark's shared client.
 */
final class ArrivalTrackingClient extends BlockStoreClient {
  private final BlockStoreClient delegate;
  private final long expectedBlocks;
  private final Runnable onArrived;
  private final HandoverPredictor predictor;
  private final LongSupplier clockMs;
  /** Per source host: first arrival ms, first block bytes, last arrival ms, bytes, blocks. */
  private final Map<String, long[]> arrivals = new HashMap<>();
  private long requestedBlocks;
  private int outstanding;
  private boolean failed;
  private boolean fired;

  /**
   * @param delegate Spark's block store client of the executor
   * @param expectedBlocks blocks of the step, counted with {@link #coverage(BlockId)}
   * @param onArrived runs once, on a network thread, when every block of the step arrived
   * @param predictor receives the step's rate samples when it completes
   */
  ArrivalTrackingClient(BlockStoreClient delegate, long expectedBlocks, Runnable onArrived,
      HandoverPredictor predictor) {
    this(delegate, expectedBlocks, onArrived, predictor, System::currentTimeMillis);
  }

  /** As above, with the clock that times block arrivals (ms). */
  ArrivalTrackingClient(BlockStoreClient delegate, long expectedBlocks, Runnable onArrived,
      HandoverPredictor predictor, LongSupplier clockMs) {
    this.delegate = delegate;
    this.expectedBlocks = expectedBlocks;
    this.onArrived = onArrived;
    this.predictor = predictor;
    this.clockMs = clockMs;
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
  public void fetchBlocks(String host, int port, String execId, String[] blockIds,
      BlockFetchingListener listener, DownloadFileManager downloadFileManager) {
    long covered = 0;
    for (String id : blockIds) {
      covered += coverage(id);
    }
    synchronized (this) {
      requestedBlocks += covered;
      outstanding += blockIds.length;
    }
    delegate.fetchBlocks(host, port, execId, blockIds, new BlockFetchingListener() {
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
    }, downloadFileManager);
  }

  private void arrived(String host, long bytes, boolean failure) {
    boolean fire;
    long now = clockMs.getAsLong();
    synchronized (this) {
      outstanding--;
      failed |= failure;
      if (!failure) {
        long[] a = arrivals.computeIfAbsent(host, h -> new long[] {now, bytes, now, 0, 0});
        a[2] = now;
        a[3] += bytes;
        a[4]++;
      }
      fire = !fired && !failed && outstanding == 0 && requestedBlocks >= expectedBlocks;
      fired |= fire;
    }
    if (fire) {
      onArrived.run();
      for (long[] a : arrivals.values()) {
        if (a[4] >= 2) {
          predictor.flowObserved(a[3] - a[1], a[2] - a[0]);
        }
      }
    }
  }

  @Override
  public Cause diagnoseCorruption(String host, int port, String execId, int shuffleId, long mapId,
      int reduceId, long checksum, String algorithm) {
    return delegate.diagnoseCorruption(host, port, execId, shuffleId, mapId, reduceId, checksum,
        algorithm);
  }

  @Override
  public MetricSet shuffleMetrics() {
    return delegate.shuffleMetrics();
  }

  @Override
  public void getHostLocalDirs(String host, int port, String[] execIds,
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

  /** Leaves Spark's shared client open. */
  @Override
  public void close() {
    // the delegate belongs to the executor's BlockManager
  }
}
