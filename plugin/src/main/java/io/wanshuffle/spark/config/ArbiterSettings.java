package io.wanshuffle.spark.config;

import java.util.List;
import java.util.Optional;

/**
 * The {@value Settings#PREFIX} settings of several applications sharing one backbone ({@link
 * Section#ARBITER}): where the arbiter's ZooKeeper ensemble is, the namespace the applications of
 * one topology share, the session timeout that frees a dead driver's share, how often a driver
 * publishes its demand and its weight in the split. Declared here, apart from {@link Settings}
 * (which lists them after its own, {@link Settings#all()}), so that each of the two files stays a
 * readable size; read them like any setting, e.g. {@code conf.get(ArbiterSettings.ZOOKEEPER)}.
 */
public final class ArbiterSettings {
  private ArbiterSettings() {}

  /** Anchor of the user guide's section on several applications, from {@code docs/}. */
  private static final String GUIDE = "plugin.md#several-applications-on-one-backbone";

  public static final ConfigEntry<String> ZOOKEEPER =
      ConfigEntry.builder("spark.wanshuffle.arbiter.zookeeper", ZooKeeperValues.ensemble())
          .section(Section.ARBITER)
          .defaultValue("")
          .doc(
              """
              The ZooKeeper ensemble through which the drivers of the applications that share a \
              topology split each link's window of flows between them (weighted max-min fair over \
              the applications with demand on the link; [plugin.md](%s)). Empty: no arbiter, \
              each application admits up to each link's whole window. ZooKeeper unreachable at \
              start or later: each link's share falls back to max(1, window / the applications \
              with demand on it last seen, this one included), with one warning, until the \
              driver reconnects; no call waits for ZooKeeper."""
                  .formatted(GUIDE))
          .build();

  public static final ConfigEntry<Optional<String>> NAMESPACE =
      ConfigEntry.builder("spark.wanshuffle.arbiter.namespace", ZooKeeperValues.znodePath())
          .section(Section.ARBITER)
          .noDefault("derived")
          .blankIsUnset()
          .doc(
              """
              The znode under which the applications that split their windows publish their \
              demands: applications share windows exactly when they name the same one. Unset: \
              `/wan-shuffle/` and the first 16 hex digits of the SHA-256 of the topology's file \
              (`topology.file` when set, else the Hadoop table of \
              `spark.hadoop.net.topology.table.file.name`), so that applications with the same \
              topology file share; with neither (a topology script or class) start-up stops \
              asking for this key. Set it when files that differ describe the same backbone.""")
          .build();

  public static final ConfigEntry<Long> SESSION_TIMEOUT =
      ConfigEntry.builder("spark.wanshuffle.arbiter.sessionTimeout", Times.atLeast(1))
          .section(Section.ARBITER)
          .defaultValue("10s")
          .doc(
              """
              The driver's ZooKeeper session timeout. A driver that dies or loses its network \
              keeps its share until ZooKeeper expires its session, this long after its last \
              heartbeat (the server bounds it to 2 to 20 of its ticks, 4 s to 40 s by default); \
              a driver that stops cleanly frees it at once.""")
          .build();

  public static final ConfigEntry<Long> PUBLISH_INTERVAL =
      ConfigEntry.builder("spark.wanshuffle.arbiter.publishInterval", Times.atLeast(1))
          .section(Section.ARBITER)
          .defaultValue("250ms")
          .doc(
              """
              Least time between two writes of the driver's demand to ZooKeeper: changes in \
              between are coalesced into the next write. A change reaches the other drivers \
              within this interval plus a notification's latency; each write costs one ZooKeeper \
              write and one notification and read per other application, so at 100 applications \
              `250ms` means at most 400 writes and 39,600 notifications per second across the \
              ensemble ([plugin.md](%s))."""
                  .formatted(GUIDE))
          .build();

  public static final ConfigEntry<Double> WEIGHT =
      ConfigEntry.builder("spark.wanshuffle.share.weight", Decimals.between(0.001, 1000))
          .section(Section.ARBITER)
          .defaultValue("1")
          .doc(
              """
              This application's weight in the split of each link's window: with demand beyond \
              their shares, applications get flows in proportion to their weights (each with \
              demand at least 1 flow when the window has as many).""")
          .build();

  /**
   * @return the declarations above, in order (registered in {@link Settings#all()})
   */
  static List<ConfigEntry<?>> entries() {
    return List.of(ZOOKEEPER, NAMESPACE, SESSION_TIMEOUT, PUBLISH_INTERVAL, WEIGHT);
  }
}
