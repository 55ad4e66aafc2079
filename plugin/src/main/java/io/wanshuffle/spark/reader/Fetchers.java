package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.compat.ScalaCollections;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.internal.config.package$;
import org.apache.spark.io.CompressionCodec$;
import org.apache.spark.network.shuffle.BlockStoreClient;
import org.apache.spark.serializer.SerializerManager;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.ShuffleBlockFetcherIterator;
import org.apache.spark.util.SystemClock;
import org.apache.spark.util.TaskCompletionListener;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * Opens {@link ShuffleBlockFetcherIterator}s exactly as Spark's {@code BlockStoreShuffleReader}
 * does (same configuration values, same batch-fetch decision), one per block subset. A fetcher
 * sends its remote requests when it is created.
 */
final class Fetchers implements BlockOpener {
  private final TaskContext context;
  private final ShuffleReadMetricsReporter metrics;
  private final boolean batchFetch;
  private final boolean streamProgress;
  private final HandoverPredictor predictor;

  /**
   * @param context the task
   * @param metrics shuffle read metrics of the task
   * @param dep the shuffle dependency (its serializer decides relocation support)
   * @param shouldBatchFetch {@code SortShuffleManager.canUseBatchFetch(start, end, context)}
   * @param streamProgress whether a predicted step's blocks are streamed so their bytes are counted
   *     as they arrive ({@code spark.wanshuffle.step.progress})
   * @param predictor the executor's estimates, fed by every step's fetch
   */
  Fetchers(
      TaskContext context,
      ShuffleReadMetricsReporter metrics,
      ShuffleDependency<?, ?, ?> dep,
      boolean shouldBatchFetch,
      boolean streamProgress,
      HandoverPredictor predictor) {
    this.context = context;
    this.predictor = predictor;
    this.metrics = metrics;
    this.streamProgress = streamProgress;
    this.batchFetch = fetchContinuousBlocksInBatch(SparkEnv.get().conf(), dep, shouldBatchFetch);
  }

  /**
   * Spark's conditions for fetching continuous blocks in one request (SPARK-9853, SPARK-34790): the
   * task reads several partitions, the serializer supports relocation, the codec supports
   * concatenation (or compression is off), the old fetch protocol and I/O encryption are off.
   */
  static boolean fetchContinuousBlocksInBatch(
      SparkConf c, ShuffleDependency<?, ?, ?> dep, boolean shouldBatchFetch) {
    package$ cfg = package$.MODULE$;
    boolean compressed = (Boolean) c.get(cfg.SHUFFLE_COMPRESS());
    boolean concat =
        !compressed
            || CompressionCodec$.MODULE$.supportsConcatenationOfSerializedStreams(
                CompressionCodec$.MODULE$.createCodec(c));
    return shouldBatchFetch
        && dep.serializer().supportsRelocationOfSerializedObjects()
        && concat
        && !(Boolean) c.get(cfg.SHUFFLE_USE_OLD_FETCH_PROTOCOL())
        && !(Boolean) c.get(cfg.IO_ENCRYPTION_ENABLED());
  }

  /**
   * @return {@code spark.reducer.maxSizeInFlight} of this executor, bytes
   */
  @Override
  public long maxBytesInFlight() {
    return Math.max(
        1,
        (Long) SparkEnv.get().conf().get(package$.MODULE$.REDUCER_MAX_SIZE_IN_FLIGHT())
            * 1024L
            * 1024L);
  }

  /**
   * @param blocks blocks by address to fetch
   * @return an iterator of (block id, stream) that cleans up when exhausted
   */
  @Override
  public Iterator<Tuple2<BlockId, InputStream>> open(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks) {
    return fetcher(blocks, SparkEnv.get().blockManager().blockStoreClient());
  }

  /**
   * A fetcher whose requests go through an {@link ArrivalTrackingClient}: {@code onArrived} runs
   * when every block of the step is on this host, {@code ahead} when the executor's {@link
   * HandoverPredictor} says the step may be reported ahead of its end; {@code progress} follows its
   * requests and bytes.
   */
  @Override
  public Iterator<Tuple2<BlockId, InputStream>> openStep(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      Runnable onArrived,
      ArrivalTrackingClient.AheadSignal ahead,
      FlowProgress progress) {
    long expected = 0;
    Map<String, Long> bytes = new HashMap<>();
    for (Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> t : blocks) {
      for (Tuple3<BlockId, Object, Object> b : ScalaCollections.asJava(t._2())) {
        expected += ArrivalTrackingClient.coverage(b._1());
        bytes.merge(t._1().host(), (Long) b._2(), Long::sum);
      }
    }
    ArrivalTrackingClient client =
        new ArrivalTrackingClient(
            SparkEnv.get().blockManager().blockStoreClient(),
            expected,
            bytes,
            onArrived,
            ahead,
            predictor,
            System::currentTimeMillis,
            streamProgress,
            progress);
    // a step the task did not finish (killed, failed) leaves the executor's connections with it
    context.addTaskCompletionListener((TaskCompletionListener) ctx -> client.close());
    return fetcher(blocks, client);
  }

  private Iterator<Tuple2<BlockId, InputStream>> fetcher(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      BlockStoreClient client) {
    SparkEnv env = SparkEnv.get();
    SparkConf c = env.conf();
    BlockManager bm = env.blockManager();
    SerializerManager sm = env.serializerManager();
    package$ cfg = package$.MODULE$;
    return new ShuffleBlockFetcherIterator(
            context,
            client,
            bm,
            env.mapOutputTracker(),
            ScalaCollections.asScala(blocks.iterator()),
            (bid, in) -> sm.wrapStream(bid, in),
            maxBytesInFlight(),
            (Integer) c.get(cfg.REDUCER_MAX_REQS_IN_FLIGHT()),
            (Integer) c.get(cfg.REDUCER_MAX_BLOCKS_IN_FLIGHT_PER_ADDRESS()),
            (Long) c.get(cfg.MAX_REMOTE_BLOCK_SIZE_FETCH_TO_MEM()),
            (Integer) c.get(cfg.SHUFFLE_MAX_ATTEMPTS_ON_NETTY_OOM()),
            (Boolean) c.get(cfg.SHUFFLE_DETECT_CORRUPT()),
            (Boolean) c.get(cfg.SHUFFLE_DETECT_CORRUPT_MEMORY()),
            (Boolean) c.get(cfg.SHUFFLE_CHECKSUM_ENABLED()),
            c.get(cfg.SHUFFLE_CHECKSUM_ALGORITHM()),
            metrics,
            batchFetch,
            new SystemClock())
        .toCompletionIterator();
  }
}
