package io.wanshuffle.spark.reader;

import com.codahale.metrics.MetricSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
 * <p>Thread-safe: requests are sent from the task thread, results arrive on network threads.
 * {@link #close()} does not close Spark's shared client.
 */
final class ArrivalTrackingClient extends BlockStoreClient {
  private final BlockStoreClient delegate;
  private final long expectedBlocks;
  private final Runnable onArrived;
  private long requestedBlocks;
  private int outstanding;
  private boolean failed;
  private boolean fired;

  /**
   * @param delegate Spark's block store client of the executor
   * @param expectedBlocks blocks of the step, counted with {@link #coverage(BlockId)}
   * @param onArrived runs once, on a network thread, when every block of the step arrived
   */
  ArrivalTrackingClient(BlockStoreClient delegate, long expectedBlocks, Runnable onArrived) {
    this.delegate = delegate;
    this.expectedBlocks = expectedBlocks;
    this.onArrived = onArrived;
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
        listener.onBlockFetchSuccess(blockId, data);
        arrived(false);
      }

      @Override
      public void onBlockFetchFailure(String blockId, Throwable exception) {
        listener.onBlockFetchFailure(blockId, exception);
        arrived(true);
      }

      @Override
      public String getTransferType() {
        return listener.getTransferType();
      }
    }, downloadFileManager);
  }

  private void arrived(boolean failure) {
    boolean fire;
    synchronized (this) {
      outstanding--;
      failed |= failure;
      fire = !fired && !failed && outstanding == 0 && requestedBlocks >= expectedBlocks;
      fired |= fire;
    }
    if (fire) {
      onArrived.run();
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
