package io.wanshuffle.spark;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.reader.ReaderContext;
import io.wanshuffle.spark.topology.ClusterTopology;
import io.wanshuffle.spark.topology.LinkModel;
import org.apache.spark.SparkConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the shuffle manager reads from the topology, loaded once, at first use: the topology, the
 * links flows cross and the executor's reader context (whose start base speed is the links').
 *
 * <p>Loading waits for first use because a relative topology path names a file shipped with {@code
 * --files}, and Spark 3.5 creates the shuffle manager before that file is in place: an executor's
 * before its first task fetches the application's files, the driver's before the SparkContext adds
 * them to its {@code SparkFiles} folder. An executor loads at its first shuffle read, the driver
 * when its coordinator starts (at construction where Spark has set its environment, Spark 4; else
 * at the first shuffle). A topology that does not load fails that read, or that shuffle, with the
 * {@link io.wanshuffle.spark.config.ConfigValueException} naming the key and the file, and is tried
 * again at the next use.
 *
 * <p>Thread-safe.
 */
final class ShuffleNetwork {
  private static final Logger LOG = LoggerFactory.getLogger(ShuffleNetwork.class);

  /**
   * The loaded parts.
   *
   * @param topology which cluster and rack each host is in
   * @param links the links flows cross and their capacities
   * @param readers the executor's reader threads, predictor and task registry
   */
  record Loaded(ClusterTopology topology, LinkModel links, ReaderContext readers) {}

  private final SparkConf sparkConf;
  private final WanShuffleConf conf;
  private final boolean isDriver;
  private volatile Loaded loaded;
  private boolean closed;

  /**
   * @param sparkConf the application's configuration (topology keys, shipped files)
   * @param conf the plugin's validated configuration
   * @param isDriver true in the driver (logs there that no topology is configured)
   */
  ShuffleNetwork(SparkConf sparkConf, WanShuffleConf conf, boolean isDriver) {
    this.sparkConf = sparkConf;
    this.conf = conf;
    this.isDriver = isDriver;
  }

  /**
   * @return the loaded parts, loading them at the first call
   * @throws io.wanshuffle.spark.config.ConfigValueException naming the key and the file when the
   *     topology does not load (a missing or malformed table or file, a NIC rate for a host the
   *     topology does not know)
   * @throws IllegalStateException after {@link #close()}
   */
  Loaded get() {
    Loaded l = loaded;
    if (l != null) {
      return l;
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("wan-shuffle: the shuffle manager is stopped");
      }
      if (loaded == null) {
        loaded = load();
      }
      return loaded;
    }
  }

  private Loaded load() {
    ClusterTopology topology = ClusterTopology.from(sparkConf);
    topology.checkNicRateHosts(conf);
    LinkModel links = topology.links(conf);
    if (isDriver && !topology.isConfigured()) {
      LOG.warn(
          "wan-shuffle: no topology is configured (set {}, {} or {}): every host is outside the"
              + " topology, so no fetch is gated and shuffles run as with Spark's sort shuffle",
          ClusterTopology.TABLE_KEY,
          ClusterTopology.SCRIPT_KEY,
          ClusterTopology.IMPL_KEY);
    }
    return new Loaded(topology, links, new ReaderContext(links.baseSpeed()));
  }

  /** Closes the reader context, if loaded; later calls of {@link #get()} fail. */
  synchronized void close() {
    closed = true;
    if (loaded != null) {
      loaded.readers().close();
      loaded = null;
    }
  }
}
