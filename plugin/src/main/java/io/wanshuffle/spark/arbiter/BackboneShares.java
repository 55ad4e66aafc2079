package io.wanshuffle.spark.arbiter;

import io.wanshuffle.spark.config.ArbiterSettings;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import org.apache.spark.SparkConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the application's {@link BackboneShare} from its settings ({@link ArbiterSettings}):
 * {@link Alone} without {@link ArbiterSettings#ZOOKEEPER}, else a {@link ZooKeeperShare} in the
 * configured namespace or the one derived from the topology's file ({@link #namespace}).
 */
public final class BackboneShares {
  private static final Logger LOG = LoggerFactory.getLogger(BackboneShares.class);

  /** Parent of the derived namespaces. */
  static final String ROOT = "/wan-shuffle";

  private BackboneShares() {}

  /**
   * Opens the application's share on the driver. Call it once the topology's file is readable
   * (where the coordinator reads the topology: on Spark 3.5 a file shipped with {@code --files} is
   * in place at the first shuffle).
   *
   * @param sparkConf the application's configuration (to find the topology's file)
   * @param conf the checked settings
   * @param applicationId Spark's application id (a random suffix makes the node's name unique)
   * @return the share, joining the split in the background when an arbiter is configured
   * @throws ConfigValueException naming {@link ArbiterSettings#NAMESPACE} when it is unset and no
   *     topology file can be read to derive it
   * @throws IllegalStateException if ZooKeeper's client is not on the driver's class path
   */
  public static BackboneShare open(SparkConf sparkConf, WanShuffleConf conf, String applicationId) {
    String ensemble = conf.get(ArbiterSettings.ZOOKEEPER);
    if (ensemble.isEmpty()) {
      return new Alone();
    }
    String ns = conf.get(ArbiterSettings.NAMESPACE).orElseGet(() -> namespace(sparkConf));
    String name =
        applicationId.replace('/', '_') + "-" + UUID.randomUUID().toString().substring(0, 8);
    double weight = conf.get(ArbiterSettings.WEIGHT);
    long session = conf.get(ArbiterSettings.SESSION_TIMEOUT);
    ZooKeeperShare share;
    try {
      share =
          ZooKeeperShare.start(
              ensemble, ns, name, weight, session, conf.get(ArbiterSettings.PUBLISH_INTERVAL));
    } catch (NoClassDefFoundError e) {
      throw new IllegalStateException(
          ArbiterSettings.ZOOKEEPER.key()
              + " is set but ZooKeeper's client is not on the driver's class path ("
              + e.getMessage()
              + "); Spark ships it in jars/ (zookeeper-*.jar, zookeeper-jute-*.jar)",
          e);
    }
    LOG.info(
        "wan-shuffle arbiter: splitting each link's window with the applications under {} on"
            + " ZooKeeper {} as {} (weight {}, session timeout {} ms)",
        ns,
        ensemble,
        name,
        weight,
        session);
    return share;
  }

  /**
   * The namespace of applications with the same topology: {@value #ROOT}{@code /} and the first 16
   * hex digits of the SHA-256 of the topology's file ({@link ClusterTopology#sourceFile}).
   *
   * @param sparkConf the application's configuration
   * @return the namespace
   * @throws ConfigValueException naming {@link ArbiterSettings#NAMESPACE} when there is no such
   *     file or it cannot be read
   */
  static String namespace(SparkConf sparkConf) {
    Optional<Path> file = ClusterTopology.sourceFile(sparkConf);
    if (file.isEmpty()) {
      throw new ConfigValueException(
          ArbiterSettings.NAMESPACE.key(),
          "",
          "unset, and the topology has no file to derive it from (a topology script or class):"
              + " set it to the same znode path in every application that shares the backbone");
    }
    try {
      return namespace(Files.readAllBytes(file.get()));
    } catch (IOException e) {
      throw new ConfigValueException(
          ArbiterSettings.NAMESPACE.key(),
          "",
          "unset, and the topology's file "
              + file.get()
              + " cannot be read to derive it ("
              + e.getMessage()
              + ")");
    }
  }

  /**
   * @param topology the topology file's bytes
   * @return {@value #ROOT}{@code /} and the first 16 hex digits of their SHA-256
   */
  static String namespace(byte[] topology) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(topology);
      return ROOT + "/" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
