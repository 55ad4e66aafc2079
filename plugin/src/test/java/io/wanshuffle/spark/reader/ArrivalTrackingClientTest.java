package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    final List<DownloadFileManager> downloads = new ArrayList<>();

    @Override
    public void fetchBlocks(
        String host,
        int port,
        String execId,
        String[] blockIds,
        BlockFetchingListener listener,
        DownloadFileManager downloadFileManager) {
      ids.add(blockIds);
      listeners.add(listener);
      downloads.add(downloadFileManager);
    }

    @Override
    public void close() {}
  }

  /**
   * A step of {@code bytes} from a1 predicted with {@link #measured}: Spark's client holding the
   * requests, the clock, the hand-over times told and how often the step completed.
   */
  private static final class OneHostStep {
    final HeldRequests spark = new HeldRequests();
    final long[] now = {0};
    final List<Long> told = new ArrayList<>();
    final AtomicInteger fired = new AtomicInteger();
    final ArrivalTrackingClient client;

    OneHostStep(long blocks, long bytes) {
      client =
          new ArrivalTrackingClient(
              spark,
              blocks,
              Map.of("a1", bytes),
              fired::incrementAndGet,
              told::add,
              measured("a1"),
              () -> now[0]);
    }
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
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            3,
            Map.of(),
            fired::incrementAndGet,
            null,
            new HandoverPredictor(),
            System::currentTimeMillis);
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
  void theStepsProgressCountsItsRequestsInFlightAndWhenTheirBytesLastAdvanced() {
    HeldRequests spark = new HeldRequests();
    long[] now = {1_000};
    FlowProgress progress = new FlowProgress();
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            2,
            Map.of("a1", 8L),
            () -> {},
            null,
            new HandoverPredictor(),
            () -> now[0],
            true,
            progress);
    Received fetcher = new Received();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, fetcher, null);
    now[0] = 6_000;
    assertEquals(5_000, progress.quietMs(now[0]), "quiet since the requests went out");
    spark.listeners.get(0).onBlockFetchSuccess(b0, DATA);
    now[0] = 7_000;
    assertEquals(1_000, progress.quietMs(now[0]), "a block arrived at 6 s");
    spark.listeners.get(0).onBlockFetchFailure(b1, new java.io.IOException("connection reset"));
    now[0] = 60_000;
    assertEquals(0, progress.quietMs(now[0]), "nothing in flight: never quiet");
  }

  @Test
  void aFailedBlockNeverSignalsArrival() {
    HeldRequests spark = new HeldRequests();
    AtomicInteger fired = new AtomicInteger();
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            2,
            Map.of(),
            fired::incrementAndGet,
            null,
            new HandoverPredictor(),
            System::currentTimeMillis);
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
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            3,
            Map.of(),
            fired::incrementAndGet,
            null,
            new HandoverPredictor(),
            System::currentTimeMillis);
    String batch = new ShuffleBlockBatchId(1, 0, 4, 7).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {batch}, new Received(), null);
    spark.listeners.get(0).onBlockFetchSuccess(batch, DATA);
    assertEquals(1, fired.get(), "one batch request covering the step's three blocks");
  }

  /**
   * The rate sample leaves out the fetch latency: only the bytes after each host's first block,
   * over the time from that block's arrival to the host's last one; a host with one block gives no
   * rate sample while its latency dominates its transfer (1000 B here: 20 ms of 200 at the rate).
   * Each host's first block gives a latency sample once the rate is known.
   */
  @Test
  void aCompletedStepGivesOneRateSampleFromEachHostsSecondBlockOn() {
    HeldRequests spark = new HeldRequests();
    long[] now = {1_000};
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.flowCompleted("a1"); // warm connections
    predictor.flowCompleted("a2");
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            3,
            Map.of("a1", 10_000L, "a2", 1_000L),
            () -> {},
            at -> {},
            predictor,
            () -> now[0]);
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    String b2 = new ShuffleBlockId(1, 2, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, new Received(), null);
    c.fetchBlocks("a2", 7337, "e2", new String[] {b2}, new Received(), null);
    now[0] = 1_160; // 80 ms of fetch latency, then the first 4000 bytes at 50000 B/s
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(4_000));
    now[0] = 1_200;
    spark.listeners.get(1).onBlockFetchSuccess(b2, buffer(1_000));
    assertEquals(0, predictor.bytesPerSecond(), "no sample before the step completes");
    now[0] = 1_280; // 6000 bytes in 120 ms after the first block: 50000 bytes/s
    spark.listeners.get(0).onBlockFetchSuccess(b1, buffer(6_000));
    assertEquals(50_000, predictor.bytesPerSecond(), 1e-6);
    predictor.coordinatorRoundTrip(10);
    // latency samples: a1 160 - 80 = 80 ms, a2 200 - 20 = 180 ms; the smaller counts
    assertEquals(80, predictor.fetchLatencyMs());
    // a flow requested at 0 whose first 4000 B came at 160 with 6000 B left ends at 280
    assertEquals(280 - 10 - 80, predictor.handOverAt(0, 160, 4_000, 6_000));
  }

  /**
   * A step whose host sends one large block (Spark fetches a block whole): the flow's bytes over
   * its time less the fetch latency make a rate sample, so a rate measured on small blocks does not
   * predict the large ones.
   */
  @Test
  void aLargeSingleBlockFlowGivesARateSample() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.flowCompleted("a1");
    predictor.flowObserved(400_000, 20); // small blocks' burst: 20 000 B/ms
    predictor.fetchLatencyObserved(100, 400_000, 20_000_000); // L = 80 ms
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 20_000_000L), () -> {}, at -> {}, predictor, () -> now[0]);
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    now[0] = 2_080; // 80 ms of latency, then 20 MB at 10 000 B/ms
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(20_000_000));
    assertEquals(10e6, predictor.bytesPerSecond(), 1e-6, "10 MB/s, not 20");
    assertEquals(
        80, predictor.fetchLatencyMs(), "no latency sample from a transfer-dominated block");
  }

  /**
   * A flow requested on a new connection (no flow from its host completed on this executor) gives
   * no rate and no latency sample: its first block paid the connection's set-up and its bytes the
   * slow start (at 40 ms RTT the first blocks came ~300 ms late, which as the fetch latency handed
   * ports on that much too early). It still marks the host connected, and the host's next flow
   * gives samples.
   */
  @Test
  void aFlowOnANewConnectionGivesNoRateOrLatencySample() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = new HandoverPredictor();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    ArrivalTrackingClient cold =
        new ArrivalTrackingClient(
            spark, 2, Map.of("a1", 10_000L), () -> {}, at -> {}, predictor, () -> now[0]);
    cold.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, new Received(), null);
    now[0] = 300; // set-up and slow start: 4000 B after 300 ms, then 6000 B in 200 ms
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(4_000));
    now[0] = 500;
    spark.listeners.get(0).onBlockFetchSuccess(b1, buffer(6_000));
    assertTrue(predictor.connected("a1"));
    assertEquals(0, predictor.bytesPerSecond(), "no rate sample from the new connection");
    assertEquals(0, predictor.fetchLatencyMs(), "no latency sample from the new connection");

    ArrivalTrackingClient warm =
        new ArrivalTrackingClient(
            spark, 2, Map.of("a1", 10_000L), () -> {}, at -> {}, predictor, () -> now[0]);
    warm.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, new Received(), null);
    now[0] = 530; // 30 ms, then 4000 B and 6000 B at 200 000 B/s
    spark.listeners.get(1).onBlockFetchSuccess(b0, buffer(4_000));
    now[0] = 560;
    spark.listeners.get(1).onBlockFetchSuccess(b1, buffer(6_000));
    assertEquals(200_000, predictor.bytesPerSecond(), 1e-6);
    assertEquals(
        30 - 20,
        predictor.fetchLatencyMs(),
        "first block 30 ms after the request, 20 ms of it transfer");
  }

  /**
   * A predictor that measured 1000 B/ms and a 20 ms coordinator round trip, with completed flows
   * from {@code connectedHosts}.
   */
  private static HandoverPredictor measured(String... connectedHosts) {
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.flowObserved(1_000_000, 1_000); // 1000 B/ms
    predictor.sizesObserved(
        1_000_000, 1_000_000); // that flow's blocks carried their announced bytes
    predictor.coordinatorRoundTrip(20);
    for (String h : connectedHosts) {
      predictor.flowCompleted(h);
    }
    return predictor;
  }

  /**
   * The hand-over is predicted once every host of the step has its request, as the latest of the
   * hosts' predictions; a host whose first block shows it slower postpones it; a completed step is
   * not predicted.
   */
  @Test
  void handOverIsPredictedAtTheRequestsAndPostponedByASlowHost() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = measured("a1", "a2");
    List<Long> told = new ArrayList<>();
    AtomicInteger fired = new AtomicInteger();
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            5,
            Map.of("a1", 300_000L, "a2", 500_000L),
            fired::incrementAndGet,
            told::add,
            predictor,
            () -> now[0]);
    String[] a1 = {
      new ShuffleBlockId(1, 0, 5).name(),
      new ShuffleBlockId(1, 1, 5).name(),
      new ShuffleBlockId(1, 2, 5).name()
    };
    String[] a2 = {new ShuffleBlockId(1, 3, 5).name(), new ShuffleBlockId(1, 4, 5).name()};
    c.fetchBlocks("a1", 7337, "e1", a1, new Received(), null);
    assertEquals(List.of(), told, "a2 has not been asked yet");
    c.fetchBlocks("a2", 7337, "e2", a2, new Received(), null);
    // a1: 300 ms of bytes, a2: 500 ms; one coordinator round trip (20 ms) earlier
    assertEquals(List.of(480L), told);
    now[0] = 100;
    spark.listeners.get(0).onBlockFetchSuccess(a1[0], buffer(100_000));
    assertEquals(List.of(480L), told, "a1 on time: nothing changes");
    now[0] = 400; // a2's first 250 000 B took 400 ms: 625 B/ms, 250 000 B left end at 800
    spark.listeners.get(1).onBlockFetchSuccess(a2[0], buffer(250_000));
    assertEquals(List.of(480L, 780L), told, "postponed by the slow host");
    now[0] = 450;
    spark.listeners.get(0).onBlockFetchSuccess(a1[1], buffer(100_000));
    spark.listeners.get(0).onBlockFetchSuccess(a1[2], buffer(100_000));
    assertEquals(List.of(480L, 780L), told);
    now[0] = 800;
    spark.listeners.get(1).onBlockFetchSuccess(a2[1], buffer(250_000));
    assertEquals(1, fired.get());
    assertEquals(2, told.size(), "the completed step is reported on arrival");
  }

  /**
   * With predicted hand-over, Spark is made to stream the blocks (into memory) and the flow's bytes
   * are counted as they arrive: a flow that falls behind its prediction in the middle of its one
   * block (its sender's congestion control held it back) postpones the hand-over to when its bytes
   * left can arrive. The task gets the block's bytes unchanged. Without prediction Spark fetches as
   * it would.
   */
  @Test
  void aFlowFallingBehindWhileItsBlockStreamsPostponesTheHandOver() throws Exception {
    OneHostStep step = new OneHostStep(2, 1_000_000L);
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    List<ManagedBuffer> got = new ArrayList<>();
    step.client.fetchBlocks(
        "a1",
        7337,
        "e1",
        new String[] {b0, b1},
        new BlockFetchingListener() {
          @Override
          public void onBlockFetchSuccess(String blockId, ManagedBuffer data) {
            got.add(data);
          }

          @Override
          public void onBlockFetchFailure(String blockId, Throwable exception) {}
        },
        null);
    assertEquals(
        List.of(1_000L - 20),
        step.told,
        "1 000 000 B at 1000 B/ms, one coordinator round trip earlier");
    // Spark's stream callbacks: one in-memory download per block, written piece by piece as bytes
    // arrive
    org.apache.spark.network.shuffle.DownloadFileWritableChannel ch0 =
        step.spark.downloads.get(0).createTempFile(null).openForWriting();
    org.apache.spark.network.shuffle.DownloadFileWritableChannel ch1 =
        step.spark.downloads.get(0).createTempFile(null).openForWriting();
    byte[] block = new byte[500_000];
    new java.util.Random(7).nextBytes(block);
    step.now[0] = 100;
    ch0.write(java.nio.ByteBuffer.wrap(block, 0, 100_000));
    assertEquals(List.of(980L), step.told, "on time: 900 000 B left at 100 ms end at 1000");
    step.now[0] = 600; // held back: only 150 000 B more in 500 ms
    ch0.write(java.nio.ByteBuffer.wrap(block, 100_000, 150_000));
    assertEquals(List.of(980L, 600L + 750 - 20), step.told, "750 000 B left at 600 ms end at 1350");
    step.now[0] = 610;
    ch0.write(java.nio.ByteBuffer.wrap(block, 250_000, 10_000));
    assertEquals(
        2,
        step.told.size(),
        "re-predicted at most every " + ArrivalTrackingClient.PROGRESS_CHECK_MS + " ms");
    step.now[0] = 850; // back at full speed: the first block ends at 850
    ch0.write(java.nio.ByteBuffer.wrap(block, 260_000, 240_000));
    step.spark.listeners.get(0).onBlockFetchSuccess(b0, ch0.closeAndRead());
    assertEquals(
        List.of(980L, 1330L),
        step.told,
        "500 000 B left at 850 end at 1350; not at the first block's own"
            + " rate (588 B/ms, which would say 1680)");
    step.now[0] = 1_350;
    ch1.write(java.nio.ByteBuffer.wrap(block));
    step.spark.listeners.get(0).onBlockFetchSuccess(b1, ch1.closeAndRead());
    assertEquals(1, step.fired.get());
    assertEquals(2, got.size());
    assertEquals(
        java.nio.ByteBuffer.wrap(block), got.get(0).nioByteBuffer(), "the block's bytes, in order");

    ArrivalTrackingClient unpredicted =
        new ArrivalTrackingClient(
            step.spark, 1, Map.of("a1", 10L), () -> {}, null, measured("a1"), () -> step.now[0]);
    unpredicted.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    assertEquals(
        null,
        step.spark.downloads.get(1),
        "without prediction Spark fetches the block as it chooses");
    ArrivalTrackingClient noProgress =
        new ArrivalTrackingClient(
            step.spark,
            1,
            Map.of("a1", 10L),
            () -> {},
            t -> {},
            measured("a1"),
            () -> step.now[0],
            false);
    noProgress.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    assertEquals(
        null,
        step.spark.downloads.get(2),
        "spark.wanshuffle.step.progress=false: as Spark chooses");
  }

  /**
   * Blocks Spark fetches to disk (a request above {@code
   * spark.network.maxRemoteBlockSizeFetchToMem}) keep Spark's files and are counted as they are
   * written: a flow falling behind postpones the hand-over as for blocks streamed into memory.
   */
  @Test
  void aFlowOfBlocksSparkFetchesToDiskIsCountedAsTheyAreWritten(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    OneHostStep step = new OneHostStep(1, 1_000_000L);
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    SparkTempFiles toDisk = new SparkTempFiles(dir);
    step.client.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), toDisk);
    assertEquals(List.of(1_000L - 20), step.told);
    org.apache.spark.network.shuffle.DownloadFileWritableChannel ch =
        step.spark.downloads.get(0).createTempFile(SparkTempFiles.CONF).openForWriting();
    assertEquals(1, toDisk.created.size(), "Spark's file");
    step.now[0] = 600; // held back: 250 000 B in 600 ms
    ch.write(java.nio.ByteBuffer.allocate(250_000));
    assertEquals(List.of(980L, 600L + 750 - 20), step.told, "750 000 B left at 600 ms end at 1350");
    step.now[0] = 1_350;
    ch.write(java.nio.ByteBuffer.allocate(750_000));
    step.spark.listeners.get(0).onBlockFetchSuccess(b0, ch.closeAndRead());
    assertEquals(1, step.fired.get());
    assertEquals(1_000_000, toDisk.created.get(0).length());

    ArrivalTrackingClient noProgress =
        new ArrivalTrackingClient(
            step.spark,
            1,
            Map.of("a1", 10L),
            () -> {},
            t -> {},
            measured("a1"),
            () -> step.now[0],
            false);
    noProgress.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), toDisk);
    assertEquals(
        toDisk,
        step.spark.downloads.get(1),
        "spark.wanshuffle.step.progress=false: Spark's own manager");
  }

  /**
   * A host that has not completed a flow to this executor (a new connection) is not predicted: the
   * step is reported on arrival; once that flow completed, the host's next step is predicted.
   */
  @Test
  void aHostOnANewConnectionIsNotPredictedUntilItsFirstFlowCompleted() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = measured("a1");
    List<Long> told = new ArrayList<>();
    AtomicInteger fired = new AtomicInteger();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    String b1 = new ShuffleBlockId(1, 1, 5).name();
    ArrivalTrackingClient first =
        new ArrivalTrackingClient(
            spark,
            2,
            Map.of("a1", 100_000L, "a2", 200_000L),
            fired::incrementAndGet,
            told::add,
            predictor,
            () -> now[0]);
    first.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    first.fetchBlocks("a2", 7337, "e2", new String[] {b1}, new Received(), null);
    assertEquals(List.of(), told, "a2's connection is new");
    now[0] = 150;
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(100_000));
    assertEquals(List.of(), told, "a2 still sends on its new connection");
    now[0] = 400;
    spark.listeners.get(1).onBlockFetchSuccess(b1, buffer(200_000));
    assertEquals(1, fired.get());
    assertTrue(predictor.connected("a2"));

    ArrivalTrackingClient next =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a2", 300_000L), () -> {}, told::add, predictor, () -> now[0]);
    next.fetchBlocks("a2", 7337, "e2", new String[] {b0}, new Received(), null);
    assertEquals(List.of(400L + 300 - 20), told, "a2's next flow is predicted");
  }

  /**
   * A cold start (the executor has measured no rate yet, or the host's connection is new): the flow
   * is predicted from its own recent rate (its last one to two {@value
   * ArrivalTrackingClient#OWN_RATE_WINDOW_MS} ms windows of streamed bytes, the first chunk not
   * counted) once it streamed for {@value ArrivalTrackingClient#MIN_OWN_RATE_SPAN_MS} ms, at most
   * the granted flow rate; a slower stretch postpones it. Reported on arrival before that.
   */
  @Test
  void aColdFlowIsPredictedFromItsOwnStreamedRate() throws Exception {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.coordinatorRoundTrip(20);
    predictor.flowCompleted("a1"); // an ungated read's connection: warm, but no rate measured
    List<Long> told = new ArrayList<>();
    AtomicInteger fired = new AtomicInteger();
    // announced so that the rounding prior expects 1 000 000 B (no flow completed to measure the
    // ratio)
    long announced = Math.round(1_000_000 / HandoverPredictor.ROUNDING_RATIO_PRIOR);
    assertEquals(1_000_000, predictor.estimatedBytes(announced));
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark,
            1,
            Map.of("a1", announced),
            fired::incrementAndGet,
            told::add,
            predictor,
            () -> now[0]);
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    c.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    assertEquals(List.of(), told, "no rate to predict with at the request");
    org.apache.spark.network.shuffle.DownloadFileWritableChannel ch =
        spark.downloads.get(0).createTempFile(null).openForWriting();
    now[0] = 100; // first bytes after the fetch latency
    ch.write(java.nio.ByteBuffer.allocate(100_000));
    now[0] = 130;
    ch.write(java.nio.ByteBuffer.allocate(60_000));
    assertEquals(List.of(), told, "30 ms of streaming: too short for an own rate");
    now[0] = 200; // 200 000 B since the first chunk in 100 ms: 2000 B/ms
    ch.write(java.nio.ByteBuffer.allocate(140_000));
    assertEquals(
        List.of(200L + 350 - 20 - 100),
        told,
        "700 000 B left at 2000 B/ms end at 550, its own fetch latency 100 ms");
    now[0] = 300; // slower: 100 000 B in its last 100 ms
    ch.write(java.nio.ByteBuffer.allocate(100_000));
    assertEquals(
        List.of(430L, 300L + 600 - 20 - 100), told, "600 000 B left at 1000 B/ms end at 900");
    now[0] = 350; // faster again: 200 000 B in its last 150 ms
    ch.write(java.nio.ByteBuffer.allocate(100_000));
    assertEquals(
        List.of(430L, 780L, 350L + 375 - 20 - 100), told, "500 000 B left at 1333 B/ms end at 725");
    now[0] = 700;
    ch.write(java.nio.ByteBuffer.allocate(500_000));
    spark.listeners.get(0).onBlockFetchSuccess(b0, ch.closeAndRead());
    assertEquals(1, fired.get());

    predictor.boundFlowRate(1_000_000); // the coordinator grants 1000 B/ms per flow
    HandoverPredictor cold = new HandoverPredictor();
    cold.coordinatorRoundTrip(20);
    cold.boundFlowRate(1_000_000);
    assertEquals(
        200 + 700 - 20,
        cold.handOverAtOwnRate(200, 700_000, 2_000_000, -1),
        "an own rate above the granted one counts at the granted one");
    assertEquals(-1, cold.handOverAtOwnRate(200, 700_000, 0, -1), "no own rate");
    assertEquals(
        -1,
        new HandoverPredictor().handOverAtOwnRate(200, 700_000, 2_000_000, -1),
        "no coordinator round trip yet");
  }

  /**
   * A cold flow on a new connection (no flow from its host completed on this executor) takes no own
   * latency: its first bytes paid the connection's set-up, which the next flow will not.
   */
  @Test
  void aColdFlowOnANewConnectionTakesNoOwnLatency() throws Exception {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.coordinatorRoundTrip(20);
    List<Long> told = new ArrayList<>();
    long announced = Math.round(1_000_000 / HandoverPredictor.ROUNDING_RATIO_PRIOR);
    ArrivalTrackingClient c =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", announced), () -> {}, told::add, predictor, () -> now[0]);
    c.fetchBlocks(
        "a1", 7337, "e1", new String[] {new ShuffleBlockId(1, 0, 5).name()}, new Received(), null);
    org.apache.spark.network.shuffle.DownloadFileWritableChannel ch =
        spark.downloads.get(0).createTempFile(null).openForWriting();
    now[0] = 300; // first bytes after the connection's set-up
    ch.write(java.nio.ByteBuffer.allocate(100_000));
    now[0] = 400;
    ch.write(java.nio.ByteBuffer.allocate(200_000));
    assertEquals(List.of(400L + 350 - 20), told, "700 000 B left at 2000 B/ms end at 750; L = 0");
  }

  /**
   * Two tasks of one executor fetch from the same host at once: they share the connection, so the
   * second task's flow is predicted after both flows' bytes, and, once the first's bytes arrived,
   * at its own rate counted from then. Without this it was predicted as if alone (at 4 + 300 - 20 =
   * 284 ms), 300 ms before its bytes could end.
   */
  @Test
  void aFlowSharingItsConnectionWithAnotherTasksFlowIsPredictedAfterBoth() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = measured("a1");
    List<Long> toldA = new ArrayList<>();
    List<Long> toldB = new ArrayList<>();
    AtomicInteger firedB = new AtomicInteger();
    String a0 = new ShuffleBlockId(1, 0, 5).name();
    String b0 = new ShuffleBlockId(1, 0, 6).name();
    String b1 = new ShuffleBlockId(1, 1, 6).name();
    ArrivalTrackingClient taskA =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 300_000L), () -> {}, toldA::add, predictor, () -> now[0]);
    ArrivalTrackingClient taskB =
        new ArrivalTrackingClient(
            spark,
            2,
            Map.of("a1", 300_000L),
            firedB::incrementAndGet,
            toldB::add,
            predictor,
            () -> now[0]);
    taskA.fetchBlocks("a1", 7337, "e1", new String[] {a0}, new Received(), null);
    assertEquals(List.of(280L), toldA, "alone on the connection");
    now[0] = 4;
    taskB.fetchBlocks("a1", 7337, "e1", new String[] {b0, b1}, new Received(), null);
    // task A's bytes expected by 300, then B's 300 000 B by 600: reported one round trip before
    assertEquals(List.of(600L - 20), toldB, "behind task A's 300 000 B");
    now[0] = 300;
    spark.listeners.get(0).onBlockFetchSuccess(a0, buffer(300_000));
    now[0] = 400;
    spark.listeners.get(1).onBlockFetchSuccess(b0, buffer(100_000));
    // 100 000 B in the 100 ms since task A's bytes cleared: 200 000 B left end at 600, as expected
    assertEquals(List.of(580L), toldB);
    now[0] = 600;
    spark.listeners.get(1).onBlockFetchSuccess(b1, buffer(200_000));
    assertEquals(1, firedB.get());
    assertEquals(0, predictor.connections().open(), "completed steps leave the connection");
  }

  /**
   * A step granted on a port handed on ahead of its end is requested while the previous step's last
   * block from the same host is still on its way: that block arrives within the fetch latency, so
   * the new flow is predicted from the previous one's expected end, not after all of its bytes
   * again (which handed such steps on about one block late, 190-310 ms at 40 ms RTT).
   */
  @Test
  void aFlowBehindABlockInFlightIsPredictedFromThatBlocksExpectedEnd() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = measured("a1"); // 1000 B/ms, c = 20 ms
    predictor.fetchLatencyObserved(80, 0, 0); // L = 80 ms
    List<Long> toldA = new ArrayList<>();
    List<Long> toldB = new ArrayList<>();
    ArrivalTrackingClient a =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 100_000L), () -> {}, toldA::add, predictor, () -> now[0]);
    a.fetchBlocks(
        "a1", 7337, "e1", new String[] {new ShuffleBlockId(1, 0, 5).name()}, new Received(), null);
    assertEquals(
        List.of(100L - 20), toldA, "alone: its 100 000 B end at 80 + 100, reported c + L before");
    now[0] = 100; // the next step of the same host pair, granted on that hand-over
    ArrivalTrackingClient b =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 100_000L), () -> {}, toldB::add, predictor, () -> now[0]);
    b.fetchBlocks(
        "a1", 7337, "e1", new String[] {new ShuffleBlockId(1, 1, 5).name()}, new Received(), null);
    // A's block is expected by 180; B's bytes then by 280: reported at 280 - 20 - 80, not at 280
    // (A's whole
    // block counted again after B's request and latency)
    assertEquals(List.of(180L), toldB);
  }

  /** A step dropped before its bytes arrived (its task ended) leaves its connection on close. */
  @Test
  void aClosedStepNoLongerHoldsTheFlowsBehindIt() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = measured("a1");
    List<Long> told = new ArrayList<>();
    ArrivalTrackingClient dropped =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 300_000L), () -> {}, x -> {}, predictor, () -> now[0]);
    dropped.fetchBlocks(
        "a1", 7337, "e1", new String[] {new ShuffleBlockId(1, 0, 5).name()}, new Received(), null);
    dropped.close();
    assertEquals(0, predictor.connections().open());
    now[0] = 10;
    ArrivalTrackingClient next =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 100_000L), () -> {}, told::add, predictor, () -> now[0]);
    next.fetchBlocks(
        "a1", 7337, "e1", new String[] {new ShuffleBlockId(1, 1, 5).name()}, new Received(), null);
    assertEquals(List.of(10L + 100 - 20), told, "nothing ahead of it");
  }

  private static ManagedBuffer buffer(int bytes) {
    return new NioManagedBuffer(java.nio.ByteBuffer.allocate(bytes));
  }

  /**
   * The map output statistics overstate the first step's flow (announced 110 000 B, 100 000 B
   * arrived): the next step's flow of 220 000 announced bytes is predicted at 200 000 B, so its
   * ports are handed on when those bytes can have arrived, not 20 ms later.
   */
  @Test
  void aFlowIsPredictedAtTheBytesTheAnnouncedSizesTurnedOutToCarry() {
    HeldRequests spark = new HeldRequests();
    long[] now = {0};
    HandoverPredictor predictor = new HandoverPredictor();
    predictor.flowObserved(1_000_000, 1_000); // 1000 B/ms
    predictor.coordinatorRoundTrip(20);
    predictor.flowCompleted("a1");
    List<Long> told = new ArrayList<>();
    String b0 = new ShuffleBlockId(1, 0, 5).name();
    ArrivalTrackingClient first =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 110_000L), () -> {}, told::add, predictor, () -> now[0]);
    first.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    assertEquals(
        List.of(105L - 20),
        told,
        "before any flow completed: the announced bytes at the rounding prior,"
            + " 110 000 x 0.9538 = 104 918 B");
    now[0] = 100;
    spark.listeners.get(0).onBlockFetchSuccess(b0, buffer(100_000));
    assertEquals(100_000, predictor.estimatedBytes(110_000));

    ArrivalTrackingClient next =
        new ArrivalTrackingClient(
            spark, 1, Map.of("a1", 220_000L), () -> {}, told::add, predictor, () -> now[0]);
    next.fetchBlocks("a1", 7337, "e1", new String[] {b0}, new Received(), null);
    assertEquals(
        List.of(85L, 100L + 200 - 20), told, "200 000 B at 1000 B/ms, one round trip earlier");
  }
}
