package io.wanshuffle.spark;

import io.wanshuffle.spark.compat.LineCheck;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.CoordinatorService;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import io.wanshuffle.spark.reader.TaskAccumulators;
import io.wanshuffle.spark.reader.WanShuffleReader;
import io.wanshuffle.spark.topology.HostCoverageListener;
import io.wanshuffle.spark.ui.WanShuffleUi;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkContext$;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * wan-shuffle's shuffle manager ({@code
 * spark.shuffle.manager=io.wanshuffle.spark.WanShuffleManager}).
 *
 * <p>Map side: Spark's sort shuffle, unchanged. Reduce side: a {@link WanShuffleReader} that
 * fetches same-cluster blocks at once and cross-cluster blocks inside steps granted by the driver's
 * step coordinator (KPBS steps: at most k flows over the backbone, δ(h) per host). Push-based
 * (merged) shuffles are read by Spark's own reader.
 *
 * <p>Start-up validates every {@code spark.wanshuffle.*} key and fails fast with a {@link
 * io.wanshuffle.spark.config.ConfigValueException} naming the key and value; the topology files are
 * loaded and checked at first use ({@link ShuffleNetwork}: on the driver at start-up where Spark
 * allows, on an executor at its first shuffle read), once files shipped with {@code --files} are in
 * place. On the driver the coordinator is a Spark RPC endpoint (no port of its own).
 */
public class WanShuffleManager extends SortShuffleManager {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleManager.class);

  private final SparkConf sparkConf;
  private final boolean isDriver;
  private final WanShuffleConf conf;

  /** The topology, its links and the executor's reader context, loaded at first use. */
  private final ShuffleNetwork network;

  private volatile CoordinatorService driver;
  private volatile CoordinatorChannel channel;

  /** The reduce tasks' named accumulators, registered on the driver with the first shuffle. */
  private volatile TaskAccumulators accumulators;

  /** Whether the WAN Shuffle tab and the executor hosts' check were added (driver). */
  private final java.util.concurrent.atomic.AtomicBoolean attached =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** Told of the application's end after the coordinator (driver; {@link WanShufflePlugin}). */
  private final WanShufflePlugin.EndWatch endWatch = new WanShufflePlugin.EndWatch();

  /** Whether {@link #endWatch} was added to the listener bus. */
  private final java.util.concurrent.atomic.AtomicBoolean watching =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The driver's check of the executor hosts against the topology, once attached. */
  private volatile HostCoverageListener hosts;

  /**
   * Called by Spark (it looks for {@code (SparkConf, boolean)} first).
   *
   * @param sparkConf the configuration
   * @param isDriver true in the driver (and in local mode)
   * @throws io.wanshuffle.spark.config.ConfigValueException on a wrong {@code spark.wanshuffle.*}
   *     value, or on the driver where Spark has set its environment (Spark 4) a wrong topology
   * @throws IllegalStateException if the jar is built for another Spark line or Scala version
   *     ({@link LineCheck})
   */
  public WanShuffleManager(SparkConf sparkConf, boolean isDriver) {
    super(LineCheck.checked(sparkConf));
    this.sparkConf = sparkConf;
    this.isDriver = isDriver;
    this.conf = WanShuffleConf.from(sparkConf);
    this.network = new ShuffleNetwork(sparkConf, conf, isDriver);
    if (isDriver && SparkEnv.get() != null) {
      driverSide();
    }
  }

  private CoordinatorService driverSide() {
    CoordinatorService d = driver;
    if (d == null) {
      synchronized (this) {
        d = driver;
        if (d == null) {
          // k per direction of the full-duplex backbone (an unknown host: cluster "")
          ShuffleNetwork.Loaded n = network.get();
          d =
              new CoordinatorService(
                  sparkConf,
                  conf,
                  SparkEnv.get().rpcEnv(),
                  h -> n.topology().clusterOf(h).orElse(""),
                  n.links());
          driver = d;
        }
      }
    }
    return d;
  }

  private CoordinatorChannel channel() {
    CoordinatorChannel c = channel;
    if (c == null) {
      synchronized (this) {
        c = channel;
        if (c == null) {
          SparkEnv env = SparkEnv.get();
          c = new CoordinatorChannel(env.conf(), env.rpcEnv(), conf);
          channel = c;
        }
      }
    }
    return c;
  }

  private synchronized TaskAccumulators accumulators(SparkContext sc) {
    if (accumulators == null) {
      accumulators = TaskAccumulators.register(sc);
    }
    return accumulators;
  }

  @Override
  public <K, V, C> ShuffleHandle registerShuffle(int shuffleId, ShuffleDependency<K, V, C> dep) {
    ShuffleHandle h = super.registerShuffle(shuffleId, dep);
    if (isDriver) {
      Option<SparkContext> sc = SparkContext$.MODULE$.getActive();
      if (sc.isDefined()) {
        driverSide().attach(sc.get());
        if (watching.compareAndSet(false, true)) {
          // after the coordinator's listener, in the same queue: told of the end after it
          sc.get().addSparkListener(endWatch);
          warnIfEventsMayMissTheLog();
        }
        if (attached.compareAndSet(false, true)) {
          WanShuffleUi.attachLive(sc.get());
          hosts = HostCoverageListener.attach(sc.get(), network.get().topology(), conf);
        }
        strictTopology();
        return AccumulatingHandle.wrap(h, dep, accumulators(sc.get()));
      }
    }
    return h;
  }

  /** Spark's sort shuffle writer, chosen by the handle Spark chose ({@link AccumulatingHandle}). */
  @Override
  public <K, V> ShuffleWriter<K, V> getWriter(
      ShuffleHandle handle, long mapId, TaskContext context, ShuffleWriteMetricsReporter metrics) {
    return super.getWriter(AccumulatingHandle.chosen(handle), mapId, context, metrics);
  }

  /**
   * @throws IllegalStateException naming the executor host the topology does not map, when {@code
   *     spark.wanshuffle.topology.strict} stopped the application
   */
  private void strictTopology() {
    HostCoverageListener h = hosts;
    if (h != null && h.violation().isPresent()) {
      throw new IllegalStateException("wan-shuffle: " + h.violation().get());
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, C> ShuffleReader<K, C> getReader(
      ShuffleHandle handle,
      int startMapIndex,
      int endMapIndex,
      int startPartition,
      int endPartition,
      TaskContext context,
      ShuffleReadMetricsReporter metrics) {
    BaseShuffleHandle<K, ?, C> h = (BaseShuffleHandle<K, ?, C>) handle;
    if (h.dependency().isShuffleMergeFinalizedMarked()) {
      return super.getReader(
          AccumulatingHandle.chosen(handle),
          startMapIndex,
          endMapIndex,
          startPartition,
          endPartition,
          context,
          metrics);
    }
    Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks =
        SparkEnv.get()
            .mapOutputTracker()
            .getMapSizesByExecutorId(
                handle.shuffleId(), startMapIndex, endMapIndex, startPartition, endPartition);
    boolean batch = SortShuffleManager.canUseBatchFetch(startPartition, endPartition, context);
    ShuffleNetwork.Loaded n = network.get();
    return new WanShuffleReader<>(
        h, blocks, context, metrics, batch, conf, n.topology(), n.links(), channel(), n.readers());
  }

  /**
   * Waits until the coordinator has handled every listener event posted before the application's
   * end (driver; {@link WanShufflePlugin}'s shutdown, before Spark stops its listener bus).
   *
   * @param ms longest wait, ms
   * @return true once the end is handled, or at once when this manager registered no shuffle
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitDriverEvents(long ms) throws InterruptedException {
    return !watching.get() || endWatch.await(ms);
  }

  /**
   * Logs once, when the capture posts events and the event log is on, that the last gated stage's
   * event may miss the event log: without {@link WanShufflePlugin} in {@code spark.plugins} (or
   * {@code spark.plugins.defaultList}), or on a Spark line that stops its listener bus before the
   * plugins (3.5).
   */
  private void warnIfEventsMayMissTheLog() {
    if (!io.wanshuffle.spark.config.CaptureSettings.CAPTURE_EVENTS.get(sparkConf)
        || !sparkConf.getBoolean("spark.eventLog.enabled", false)) {
      return;
    }
    String plugin = WanShufflePlugin.class.getName();
    if (io.wanshuffle.spark.compat.SparkLine.LINE.startsWith("3.")) {
      LOG.info(
          "wan-shuffle: Spark {} stops its listener bus before the plugins, so the capture event"
              + " of a stage that completes as the application stops may miss the event log; its"
              + " capture file has it",
          io.wanshuffle.spark.compat.SparkLine.LINE);
    } else if (!java.util.Arrays.asList(
            (sparkConf.get("spark.plugins", "")
                    + ","
                    + sparkConf.get("spark.plugins.defaultList", ""))
                .split("\\s*,\\s*"))
        .contains(plugin)) {
      LOG.warn(
          "wan-shuffle: spark.plugins does not name {}: the capture event of a stage that"
              + " completes as the application stops (the last one) may miss the event log",
          plugin);
    }
  }

  @Override
  public void stop() {
    CoordinatorService d = driver;
    if (d != null) {
      try {
        d.stop();
      } catch (RuntimeException e) {
        LOG.warn("wan-shuffle coordinator did not stop cleanly", e);
      }
    }
    network.close();
    super.stop();
  }
}
