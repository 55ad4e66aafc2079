package io.wanshuffle.spark.topology;

import io.wanshuffle.spark.config.ConfigValueException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.net.TableMapping;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which cluster a host is in, from Hadoop's {@link DNSToSwitchMapping}: the network path of a host
 * is {@code /cluster/rack} (or {@code /cluster}); its first component names the cluster.
 *
 * <p>The mapping is configured as Hadoop configures it, through {@code spark.hadoop.*} keys:
 * {@value #TABLE_KEY} (a {@link TableMapping} file, {@code host path} per line; chosen
 * automatically when this key is set), {@value #SCRIPT_KEY} ({@link ScriptBasedMapping}), or
 * {@value #IMPL_KEY} (any {@code DNSToSwitchMapping} class).
 *
 * <p>Hosts the mapping does not know (Hadoop answers {@code /default-rack}) are treated as being
 * in the same cluster as every host: their blocks are fetched at once, never gated. A warning is
 * logged once per such host. This keeps a partial topology safe (no job waits on an unknown host)
 * at the price of not scheduling that host's traffic.
 *
 * <p>Convergence note: scheduler-core's {@code io.wanshuffle.scheduler.topology} model (liquid
 * schedules: links, racks, backbone) will take these paths as its input; until then the plugin
 * needs only the cluster of a host, so this adapter uses Hadoop's classes directly.
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

  private final DNSToSwitchMapping mapping;
  private final ConcurrentHashMap<String, Optional<String>> paths = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /**
   * @param mapping the host to network-path mapping
   */
  public ClusterTopology(DNSToSwitchMapping mapping) {
    this.mapping = mapping;
  }

  /**
   * Builds the mapping the configuration names and checks that its file exists.
   *
   * @param conf Spark configuration ({@code spark.hadoop.net.topology.*} keys)
   * @return the topology
   * @throws ConfigValueException if the table or script file is missing or unreadable, or the
   *     mapping class cannot be loaded
   */
  public static ClusterTopology from(SparkConf conf) {
    Configuration hc = SparkHadoopUtil.get().newConfiguration(conf);
    String table = hc.getTrimmed(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY);
    String script = hc.getTrimmed(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY);
    if (table != null && !table.isEmpty() && !Files.isReadable(Path.of(table))) {
      throw new ConfigValueException(TABLE_KEY, table, "topology table file is not readable");
    }
    if (table != null && !table.isEmpty()) {
      checkTable(table);
    }
    if (script != null && !script.isEmpty() && !Files.isExecutable(Path.of(script))) {
      throw new ConfigValueException(SCRIPT_KEY, script, "topology script is not executable");
    }
    // core-default.xml names ScriptBasedMapping, so only an explicit setting overrides the table
    Class<? extends DNSToSwitchMapping> impl =
        table != null && !table.isEmpty() ? TableMapping.class : ScriptBasedMapping.class;
    try {
      if (conf.contains(IMPL_KEY)) {
        impl = hc.getClass(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
            impl, DNSToSwitchMapping.class);
      }
    } catch (RuntimeException e) {
      throw new ConfigValueException(IMPL_KEY,
          hc.get(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY),
          "cannot load a DNSToSwitchMapping class: " + e.getMessage());
    }
    return new ClusterTopology(ReflectionUtils.newInstance(impl, hc));
  }

  /**
   * Hadoop's TableMapping skips malformed lines with a log warning; a skipped host would silently
   * become "unknown" (never gated), so malformed lines are rejected here, naming file and line.
   */
  private static void checkTable(String table) {
    List<String> lines;
    try {
      lines = Files.readAllLines(Path.of(table));
    } catch (java.io.IOException | RuntimeException e) {
      throw new ConfigValueException(TABLE_KEY, table, "cannot read the topology table: " + e);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\\s+");
      if (cols.length != 2 || !cols[1].startsWith("/") || cols[1].length() < 2) {
        throw new ConfigValueException(TABLE_KEY, table, "line " + (i + 1) + ": expected "
            + "'host /cluster/rack' (two columns, the path starting with /), got '" + line + "'");
      }
    }
  }

  /**
   * @param host a host name or address as Spark's block manager reports it
   * @return its network path, e.g. {@code /clusterA/rack1}, or empty when the mapping does not
   *     know the host
   */
  public Optional<String> pathOf(String host) {
    return paths.computeIfAbsent(host, h -> {
      List<String> r = mapping.resolve(List.of(h));
      if (r == null || r.isEmpty() || r.get(0) == null
          || NetworkTopology.DEFAULT_RACK.equals(r.get(0)) || !r.get(0).startsWith("/")) {
        return Optional.empty();
      }
      return Optional.of(r.get(0));
    });
  }

  /**
   * @param host a host
   * @return the first component of its network path ({@code clusterA} for
   *     {@code /clusterA/rack1}), or empty when unknown
   */
  public Optional<String> clusterOf(String host) {
    return pathOf(host).map(p -> {
      int end = p.indexOf('/', 1);
      return end < 0 ? p.substring(1) : p.substring(1, end);
    });
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
      LOG.warn("wan-shuffle: host {} is not in the topology (net.topology.*); its shuffle "
          + "blocks are treated as same-cluster and fetched without gating", host);
    }
  }
}
