package io.wanshuffle.spark.topology;

import io.wanshuffle.scheduler.topology.HostMapping;
import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.scheduler.topology.TopologyException;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkFiles;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which cluster a host is in, from Hadoop's {@link DNSToSwitchMapping}: the network path of a host
 * is {@code /cluster/rack} (or {@code /cluster}); its first component names the cluster.
 *
 * <p>The mapping is scheduler-core's {@link HostMapping} (the topology model the {@code liquid}
 * scheduler uses), built by {@link HostMapping#fromHadoopConfiguration} from the {@code
 * spark.hadoop.*} keys as Spark turns them into a Hadoop configuration: {@value #TABLE_KEY} (a
 * TableMapping file, {@code host path} per line; chosen automatically when this key is set),
 * {@value #SCRIPT_KEY} (ScriptBasedMapping), or {@value #IMPL_KEY} (any {@code DNSToSwitchMapping}
 * class). This class adds only what the plugin decides: errors as {@link ConfigValueException}
 * naming the {@code spark.hadoop.} key, and the policy for unknown hosts.
 *
 * <p>Hosts the mapping does not know (Hadoop answers {@code /default-rack}) are treated as being in
 * the same cluster as every host: their blocks are fetched at once, never gated. A warning is
 * logged once per such host. This keeps a partial topology safe (no job waits on an unknown host)
 * at the price of not scheduling that host's traffic.
 *
 * <p>Thread-safe; results are cached per host for the life of the JVM.
 */
public final class ClusterTopology {
  /** Hadoop key of the TableMapping file, as set through {@code spark.hadoop.}. */
  public static final String TABLE_KEY =
      "spark.hadoop." + CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY;

  /** Hadoop key of the topology script, as set through {@code spark.hadoop.}. */
  public static final String SCRIPT_KEY =
      "spark.hadoop." + CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY;

  /** Hadoop key of the mapping class, as set through {@code spark.hadoop.}. */
  public static final String IMPL_KEY =
      "spark.hadoop." + CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY;

  private static final Logger LOG = LoggerFactory.getLogger(ClusterTopology.class);

  private final HostMapping mapping;

  /** The topology file's model (links and rates); null when the mapping comes from Hadoop keys. */
  private final Topology file;

  private final ConcurrentHashMap<String, Optional<String>> paths = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /**
   * @param mapping the host to network-path mapping
   */
  public ClusterTopology(DNSToSwitchMapping mapping) {
    this(HostMapping.of(mapping, mapping.getClass().getName()), null);
  }

  private ClusterTopology(HostMapping mapping, Topology file) {
    this.mapping = mapping;
    this.file = file;
  }

  /**
   * Builds the mapping the configuration names and checks its file.
   *
   * @param conf Spark configuration ({@code spark.hadoop.net.topology.*} keys)
   * @return the topology
   * @throws ConfigValueException naming the {@code spark.hadoop.} key: the table file is missing,
   *     unreadable or has a malformed line (file and line named), the script is not executable, or
   *     the mapping class cannot be loaded
   */
  public static ClusterTopology from(SparkConf conf) {
    Optional<String> topologyFile = Settings.TOPOLOGY_FILE.get(conf);
    if (topologyFile.isPresent()) {
      return fromFile(topologyFile.get(), conf);
    }
    Configuration hc = SparkHadoopUtil.get().newConfiguration(conf);
    String tableKey = CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY;
    String table = hc.getTrimmed(tableKey, "");
    if (!table.isEmpty()) {
      shippedCopy(table, conf).ifPresent(p -> hc.set(tableKey, p));
    }
    try {
      return new ClusterTopology(HostMapping.fromHadoopConfiguration(hc), null);
    } catch (TopologyException e) {
      String key = e.configKey() == null ? TABLE_KEY : "spark.hadoop." + e.configKey();
      String value = hc.get(key.substring("spark.hadoop.".length()), "");
      String hint =
          key.equals(TABLE_KEY) && !table.isEmpty() && !Path.of(table).isAbsolute()
              ? relativePathHint("; give a path that exists on the driver and on every executor")
              : "";
      throw new ConfigValueException(key, value, e.getMessage() + hint);
    }
  }

  /**
   * The file the topology is read from, found as {@link #from} finds it: the {@link
   * Settings#TOPOLOGY_FILE} when set, else the Hadoop table file ({@value #TABLE_KEY}); a relative
   * path that is not readable as given is the copy shipped with {@code --files}.
   *
   * @param conf the application's configuration
   * @return the file's path (it may not exist), or empty when the mapping comes from a script or a
   *     class
   */
  public static Optional<Path> sourceFile(SparkConf conf) {
    Optional<String> topologyFile = Settings.TOPOLOGY_FILE.get(conf);
    String given = topologyFile.orElseGet(() -> conf.get(TABLE_KEY, "").trim());
    if (given.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(shippedCopy(given, conf).orElse(given)));
  }

  /**
   * The topology of a file in the format of {@code ./wan-shuffle plan --topology} ({@link
   * Settings#TOPOLOGY_FILE}): its host mapping and its links.
   *
   * @param given the configured path; a relative one is read from the working directory, else from
   *     the files shipped with {@code --files}
   * @param conf the application's configuration ({@code spark.yarn.dist.files})
   * @return the topology
   * @throws ConfigValueException naming {@link Settings#TOPOLOGY_FILE} and the file and line of the
   *     problem (a line that does not parse, an unreadable table, an override naming an unknown
   *     host, rack or cluster)
   */
  private static ClusterTopology fromFile(String given, SparkConf conf) {
    String path = shippedCopy(given, conf).orElse(given);
    try {
      Topology t = Topology.load(Path.of(path));
      return new ClusterTopology(t.mapping(), t);
    } catch (TopologyException e) {
      String hint =
          !Path.of(given).isAbsolute() && !Files.isReadable(Path.of(path))
              ? relativePathHint("")
              : "";
      throw new ConfigValueException(Settings.TOPOLOGY_FILE.key(), given, e.getMessage() + hint);
    }
  }

  /**
   * The links flows cross: the topology file's when {@link Settings#TOPOLOGY_FILE} is set, else the
   * KPBS platform of the rate keys over this mapping's clusters.
   *
   * @param conf the plugin's configuration
   * @return the link model
   * @throws ConfigValueException naming {@link Settings#TOPOLOGY_FILE} when the file's links lack a
   *     rate or its rates share no sizeable divisor
   */
  public LinkModel links(WanShuffleConf conf) {
    if (file == null) {
      return LinkModel.flat(conf, h -> clusterOf(h).orElse(""));
    }
    try {
      return LinkModel.of(file, Settings.TOPOLOGY_FILE.key());
    } catch (TopologyException e) {
      throw new ConfigValueException(
          Settings.TOPOLOGY_FILE.key(), file.config().file().toString(), e.getMessage());
    }
  }

  /**
   * @param advice what to do, appended after where the path was looked for
   * @return the hint of an error about a relative path: where it was looked for (the working
   *     directory, then the files shipped with {@code --files})
   */
  static String relativePathHint(String advice) {
    return " (a relative path is read from the working directory, here "
        + Path.of("").toAbsolutePath()
        + ", else from the files shipped with --files / spark.files"
        + (advice.isEmpty() ? "" : advice + ", or ship the file")
        + ")";
  }

  /**
   * The copy of a topology table or file shipped with {@code --files}, for a relative path that is
   * not readable from the working directory. Executors run in the folder Spark downloads such files
   * to (before their first task: the plugin reads the topology at an executor's first shuffle
   * read), but a driver in client deploy mode does not: on a standalone or Kubernetes cluster Spark
   * puts its copy in the driver's {@link SparkFiles} folder; on YARN ({@code
   * spark.yarn.dist.files}) only the containers get a copy, and the client-mode driver reads the
   * file the submission named. So {@code --files conf/topology.table} with the key set to {@code
   * topology.table} works on both.
   *
   * @param table the configured path
   * @param conf the application's configuration ({@code spark.yarn.dist.files})
   * @return the absolute path of the shipped copy (or on YARN of the original), if the path is
   *     relative, not readable as given, and the copy exists
   */
  static Optional<String> shippedCopy(String table, SparkConf conf) {
    Path given = Path.of(table);
    if (given.isAbsolute() || Files.isReadable(given)) {
      return Optional.empty();
    }
    if (SparkEnv.get() != null) {
      Path shipped = Path.of(SparkFiles.get(given.toString()));
      if (Files.isReadable(shipped)) {
        return Optional.of(shipped.toString());
      }
    }
    return yarnOriginal(table, conf.get("spark.yarn.dist.files", ""));
  }

  /**
   * The local original of a file YARN distributes to the containers under the name {@code name}.
   *
   * @param name the configured relative path
   * @param distFiles {@code spark.yarn.dist.files}: comma-separated paths or URIs, each with an
   *     optional {@code #alias} (the name in the container's folder; else the file's name)
   * @return the absolute path of the first entry whose alias or file name is {@code name} and that
   *     is a readable local file, else empty
   */
  static Optional<String> yarnOriginal(String name, String distFiles) {
    for (String entry : distFiles.split(",")) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      URI uri;
      try {
        uri = new URI(e);
      } catch (URISyntaxException x) {
        continue;
      }
      String path = uri.getPath();
      if (path == null || !(uri.getScheme() == null || uri.getScheme().equals("file"))) {
        continue;
      }
      Path local = Path.of(path);
      String alias =
          uri.getFragment() != null
              ? uri.getFragment()
              : local.getFileName() == null ? "" : local.getFileName().toString();
      if (alias.equals(name) && Files.isReadable(local)) {
        return Optional.of(local.toAbsolutePath().toString());
      }
    }
    return Optional.empty();
  }

  /**
   * @return where the mapping comes from, for messages, e.g. {@code topology table racks.table}
   */
  public String source() {
    return mapping.source();
  }

  /**
   * @return false when no topology key is set ({@value #TABLE_KEY}, {@value #SCRIPT_KEY} or {@value
   *     #IMPL_KEY}): every host is then unknown and no fetch is gated
   */
  public boolean isConfigured() {
    return mapping.isConfigured();
  }

  /**
   * @param host a host name or address as Spark's block manager reports it
   * @return its network path, e.g. {@code /clusterA/rack1}, or empty when the mapping does not know
   *     the host
   */
  public Optional<String> pathOf(String host) {
    return paths.computeIfAbsent(host, mapping::pathOf);
  }

  /**
   * @param host a host
   * @return the first component of its network path ({@code clusterA} for {@code /clusterA/rack1}),
   *     or empty when unknown
   */
  public Optional<String> clusterOf(String host) {
    return pathOf(host).map(HostMapping::clusterOf);
  }

  /**
   * Checks that every host given a NIC rate of its own ({@code spark.wanshuffle.nic.rates}) is in
   * the topology: a rate for a host the mapping does not know never applies (such a host is never
   * gated), so it is a typo or a missing table line.
   *
   * @param conf the plugin's configuration
   * @throws ConfigValueException naming {@code spark.wanshuffle.nic.rates} and the first such host
   */
  public void checkNicRateHosts(WanShuffleConf conf) {
    for (String host : conf.get(Settings.NIC_RATES).keySet()) {
      if (pathOf(host).isEmpty()) {
        throw new ConfigValueException(
            Settings.NIC_RATES.key(),
            conf.text(Settings.NIC_RATES),
            "host "
                + host
                + " is not in the topology ("
                + mapping.source()
                + "), so its rate would never apply; list it in the topology or correct its name");
      }
    }
  }

  /**
   * @param a a host
   * @param b another host
   * @return false only when both hosts are known and in different clusters; an unknown host is
   *     same-cluster with everyone (warned once per host)
   */
  public boolean sameCluster(String a, String b) {
    Optional<String> ca = clusterOf(a);
    Optional<String> cb = clusterOf(b);
    if (ca.isEmpty() || cb.isEmpty()) {
      warnUnknown(ca.isEmpty() ? a : b);
      return true;
    }
    return ca.get().equals(cb.get());
  }

  private void warnUnknown(String host) {
    if (warned.add(host)) {
      LOG.warn(
          "wan-shuffle: host {} is not in the topology (net.topology.*); its shuffle "
              + "blocks are treated as same-cluster and fetched without gating",
          host);
    }
  }
}
