package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.buffer.NioManagedBuffer;
import org.apache.spark.network.shuffle.BlockFetchingListener;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.storage.ShuffleBlockBatchId;
import org.apache.spark.storage.ShuffleBlockId;
import org.junit.jupiter.api.Test;

class ArrivalTrackingClientTest {
  /** A Spark client that keeps each request's listener; the test answers them. */
  private static final class HeldRequests extends BlockStoreClient {
    final List<String[]> ids = new ArrayList<>();
    final List<BlockFetchingListener> listeners = new ArrayList<>();

    @Override
    public void fetchBlocks(String host, int port, String execId, String[] blockIds,
        BlockFetchingListener listener, DownloadFileManager downloadFileManager) {
      ids.add(blockIds);
      listeners.add(listener);
    }

    @Override
    public void close() {}
  }

  private static final ManagedBuffer DATA = new NioManagedBuffer(java.nio.ByteBuffer.allocate(4));

  /** Counts what Spark's fetcher would receive. */
  private static final class Received implements BlockFetchingListener {
    final List<String> ok = new ArrayList<>();
    final List<String> failed = new ArrayList<>();

    @Override
    public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
      ok.add(blockId);
    }

    @Override
    public void onBlockFetchFailure(String blockId, Throwable exception) {
      failed.add(blockId);
    }
  }

  @Test
  void firesOnceWhenEveryBlockOfTheStepArrivedAcrossRequests() {
    HeldRequests spark = new HeldRequests();
    AtomicInteger fired = new AtomicInteger();
    ArrivalTrackingClient c = new ArrivalTrackingClient(spark, 3, fired::incrementAndGet,
        new HandoverPredictor());
    Received fetcher = new Received();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    String b2 = new ShuffleBlockId(1, 2, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, fetcher, null);
    spark.listeners.get(0).onBlockFetchSuccess(b0, DATA);
    spark.listeners.get(0).onBlockFetchSuccess(b1, DATA);
    assertEquals(0, fired.get(), "a request held back (3rd block) is still to come");
    c.fetchBlocks("a1", 7337, "e1", new String[] {b2}, fetcher, null);
    assertEquals(0, fired.get());
    spark.listeners.get(1).onBlockFetchSuccess(b2, DATA);
    assertEquals(1, fired.get());
    assertEquals(List.of(b0, b1, b2), fetcher.ok, "every result reaches Spark's fetcher");
  }

  @Test
  void aFailedBlockNeverSignalsArrival() {
    HeldRequests spark = new HeldRequests();
    AtomicInteger fired = new AtomicInteger();
    ArrivalTrackingClient c = new ArrivalTrackingClient(spark, 2, fired::incrementAndGet,
        new HandoverPredictor());
    Received fetcher = new Received();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, fetcher, null);
    spark.listeners.get(0).onBlockFetchFailure(b0, new java.io.IOException("connection reset"));
    spark.listeners.get(0).onBlockFetchSuccess(b1, DATA);
    assertEquals(0, fired.get());
    assertEquals(List.of(b0), fetcher.failed, "the failure reaches Spark's fetcher");
  }

  @Test
  void aBatchBlockCoversItsReduceRange() {
    assertEquals(3, ArrivalTrackingClient.coverage(new ShuffleBlockBatchId(1, 0, 4, 7)));
    assertEquals(1, ArrivalTrackingClient.coverage(new ShuffleBlockId(1, 0, 4)));
    HeldRequests spark = new HeldRequests();
    AtomicInteger fired = new AtomicInteger();
    ArrivalTrackingClient c = new ArrivalTrackingClient(spark, 3, fired::incrementAndGet,
        new HandoverPredictor());
    String batch = new ShuffleBlockBatchId(1, 0, 4, 7).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {batch}, new Received(), null);
    spark.listeners.get(0).onBlockFetchSuccess(batch, DATA);
    assertEquals(1, fired.get(), "one batch request covering the step's three blocks");
  }

  /**
   * The rate sample leaves out the fetch latency: only the bytes after each host's first block,
   * over the time from that block's arrival to the host's last one; a host with one block gives no
   * sample.
   */
  @Test
  void aCompletedStepGivesOneRateSampleFromEachHostsSecondBlockOn() {
    HeldRequests spark = new HeldRequests();
    long[] now = {1_000};
    HandoverPredictor predictor = new HandoverPredictor();
    ArrivalTrackingClient c = new ArrivalTrackingClient(spark, 3, () -> { }, predictor,
        () -> now[0]);
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    String b2 = new ShuffleBlockId(1, 2, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, new Received(), null);
    c.fetchBlocks("a2", 7337, "e2", new String[] {b2}, new Received(), null);
    now[0] = 1_160; // two round trips of fetch latency, then the first 4 bytes
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(4_000));
    now[0] = 1_200;
    spark.listeners.get(1).onBlockFetchSuccess(b2, buffer(1_000));
    assertEquals(0, predictor.bytesPerSecond(), "no sample before the step completes");
    now[0] = 1_400; // 6000 bytes in 240 ms after the first block: 25000 bytes/s
    spark.listeners.get(0).onBlockFetchSuccess(b1, buffer(6_000));
    assertEquals(25_000, predictor.bytesPerSecond(), 1e-6);
  }

  private static ManagedBuffer buffer(int bytes) {
    return new NioManagedBuffer(java.nio.ByteBuffer.allocate(bytes));
  }
}
