package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.io.TextFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.net.TableMapping;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Host name to network path {@code /cluster/rack}, through Hadoop's {@link DNSToSwitchMapping}: a
 * {@link TableMapping} file (two whitespace-separated columns per line, host and path; {@code #}
 * comments; the same file Hadoop and Spark operators maintain under {@code
 * net.topology.table.file.name}) or a {@link ScriptBasedMapping} script ({@code
 * net.topology.script.file.name}).
 *
 * <p>A table is first searched for the host's name as given, without DNS ({@link
 * NameFirstTableMapping}); a name it does not list is turned into its IP address by DNS and looked
 * up again, as Hadoop does ({@code CachedDNSToSwitchMapping}), so a table may list hosts by name or
 * by address. A script is given addresses where names resolve, as in Hadoop. Hadoop's TableMapping
 * skips malformed lines with a warning; this class checks the table first and rejects them, naming
 * file and line. Paths must have exactly two levels, cluster and rack.
 *
 * <p>Public surface (for the Spark plugin, which takes the same mapping from {@code
 * spark.hadoop.net.topology.*} keys): {@link #fromHadoopConfiguration} builds the mapping from a
 * Hadoop {@link Configuration}, {@link #pathOf} answers one host leniently (empty when unknown),
 * {@link #clusterOf} names the cluster of a path. Thread-safe as the underlying Hadoop mapping is
 * ({@link TableMapping} and {@link ScriptBasedMapping} cache their answers).
 */
public final class HostMapping {
  private final DNSToSwitchMapping mapping;
  private final String source;

  /** host -> network path as listed in the mapping table this was built from; null otherwise. */
  private final java.util.Map<String, String> table;

  /** False for a mapping built from a Hadoop configuration without any topology key. */
  private final boolean configured;

  HostMapping(DNSToSwitchMapping mapping, String source) {
    this(mapping, source, null, true);
  }

  private HostMapping(
      DNSToSwitchMapping mapping,
      String source,
      java.util.Map<String, String> table,
      boolean configured) {
    this.mapping = mapping;
    this.source = source;
    this.table = table;
    this.configured = configured;
  }

  /**
   * @return the network paths listed in the mapping table this was built from ({@link
   *     #of(TopologyConfig)} with {@code mapping.table}), host -> path; empty for a script or
   *     another mapping
   */
  public java.util.Optional<java.util.Map<String, String>> tablePaths() {
    return java.util.Optional.ofNullable(table);
  }

  /**
   * Wraps an already configured mapping.
   *
   * @param mapping any Hadoop host to network-path mapping
   * @param source what it is, for messages (e.g. "topology table /etc/t.table")
   * @return the host mapping
   */
  public static HostMapping of(DNSToSwitchMapping mapping, String source) {
    return new HostMapping(mapping, source);
  }

  /**
   * Builds the mapping Hadoop would build from its own keys: {@code net.topology.table.file.name}
   * (a {@link TableMapping} file, chosen when this key is set), {@code
   * net.topology.script.file.name} ({@link ScriptBasedMapping}, the default of Hadoop's
   * core-default.xml), or {@code net.topology.node.switch.mapping.impl} (any {@link
   * DNSToSwitchMapping} class; it overrides the table when it is set anywhere other than Hadoop's
   * {@code *-default.xml}). The table is checked first (every line blank, a {@code #} comment, or
   * {@code host /cluster[/rack]}; one or two path levels are accepted here, the first naming the
   * cluster), because Hadoop's TableMapping would skip a malformed line and leave the host unknown.
   * With none of the keys, every host is unknown.
   *
   * @param conf a Hadoop configuration (e.g. Spark's {@code SparkHadoopUtil.newConfiguration})
   * @return the mapping
   * @throws TopologyException with {@link TopologyException#configKey()} set: the table is not
   *     readable, has a malformed line (file and line named) or maps no host, the script key is set
   *     but blank or names something that is not an executable file, or the mapping class cannot be
   *     loaded
   */
  public static HostMapping fromHadoopConfiguration(Configuration conf) {
    String tableKey = CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY;
    String scriptKey = CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY;
    String implKey = CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY;
    String table = conf.getTrimmed(tableKey, "");
    String script = conf.getTrimmed(scriptKey, "");
    String source = "no topology (every host unknown)";
    if (!table.isEmpty()) {
      Path t = Path.of(table);
      if (!Files.isReadable(t)) {
        throw new TopologyException(tableKey, table + ": topology table file is not readable");
      }
      java.util.Map<String, String> listed;
      try {
        listed = checkTable(t, false);
      } catch (TopologyException e) {
        throw new TopologyException(tableKey, e.getMessage());
      }
      if (listed.isEmpty()) {
        throw new TopologyException(
            tableKey, table + ": topology table maps no host (empty or comments only)");
      }
      source = "topology table " + table;
    }
    if (script.isEmpty() && conf.get(scriptKey) != null) {
      throw new TopologyException(
          scriptKey,
          "'"
              + conf.get(scriptKey)
              + "': empty; name a topology script or"
              + " leave the key unset");
    }
    if (!script.isEmpty()) {
      if (!Files.isRegularFile(Path.of(script)) || !Files.isExecutable(Path.of(script))) {
        throw new TopologyException(
            scriptKey, script + ": topology script is not an executable file");
      }
      if (table.isEmpty()) {
        source = "topology script " + script;
      }
    }
    Class<? extends DNSToSwitchMapping> impl =
        table.isEmpty() ? ScriptBasedMapping.class : NameFirstTableMapping.class;
    boolean implSet = setExplicitly(conf, implKey);
    if (implSet) {
      try {
        impl = conf.getClass(implKey, impl, DNSToSwitchMapping.class);
      } catch (RuntimeException e) {
        throw new TopologyException(
            implKey,
            conf.get(implKey) + ": cannot load a DNSToSwitchMapping class: " + e.getMessage());
      }
      source = impl.getName();
    }
    return new HostMapping(
        ReflectionUtils.newInstance(impl, conf),
        source,
        null,
        !table.isEmpty() || !script.isEmpty() || implSet);
  }

  /**
   * @return true when {@code key} comes from somewhere other than Hadoop's *-default.xml
   */
  private static boolean setExplicitly(Configuration conf, String key) {
    if (conf.get(key) == null) {
      return false;
    }
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return true;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param host a host name or address
   * @return its network path (e.g. {@code /clusterA/rack1}), or empty when the mapping does not
   *     know the host (Hadoop's default rack, no answer, or a path not starting with {@code /}) or
   *     fails on it
   */
  public Optional<String> pathOf(String host) {
    List<String> r;
    try {
      r = mapping.resolve(new ArrayList<>(List.of(host)));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (r == null
        || r.size() != 1
        || r.get(0) == null
        || org.apache.hadoop.net.NetworkTopology.DEFAULT_RACK.equals(r.get(0))
        || !r.get(0).startsWith("/")
        || r.get(0).length() < 2) {
      return Optional.empty();
    }
    return Optional.of(r.get(0));
  }

  /**
   * @param path a network path such as {@code /clusterA/rack1} or {@code /clusterA}
   * @return its first component, the cluster ({@code clusterA})
   * @throws IllegalArgumentException if the path does not start with {@code /} and a name
   */
  public static String clusterOf(String path) {
    if (path == null || !path.startsWith("/") || path.length() < 2 || path.charAt(1) == '/') {
      throw new IllegalArgumentException("network path '" + path + "' has no cluster component");
    }
    int end = path.indexOf('/', 1);
    return end < 0 ? path.substring(1) : path.substring(1, end);
  }

  /**
   * @param config the topology configuration naming the table or the script
   * @return the mapping
   * @throws TopologyException for an unreadable or malformed table (file and line)
   */
  static HostMapping of(TopologyConfig config) {
    Configuration conf = new Configuration(false);
    if (config.table() != null) {
      java.util.Map<String, String> paths = checkTable(config.table());
      conf.set(
          CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY,
          config.table().toString());
      TableMapping t = new NameFirstTableMapping();
      t.setConf(conf);
      return new HostMapping(t, "topology table " + config.table(), paths, true);
    }
    if (!Files.isRegularFile(config.script())) {
      throw new TopologyException(
          config.file() + ": mapping.script " + config.script() + " does not exist");
    }
    if (!Files.isExecutable(config.script())) {
      throw new TopologyException(
          config.file()
              + ": mapping.script "
              + config.script()
              + " is not executable (chmod +x it)");
    }
    conf.set(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY,
        config.script().toString());
    conf.setInt(
        CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_NUMBER_ARGS_KEY, config.scriptArgs());
    ScriptBasedMapping s = new ScriptBasedMapping(conf);
    return new HostMapping(s, "topology script " + config.script());
  }

  /**
   * Checks every line of a TableMapping file: blank, comment, or "host /cluster/rack".
   *
   * @return host name -> network path, as listed
   */
  static java.util.Map<String, String> checkTable(Path table) {
    return checkTable(table, true);
  }

  /**
   * Checks every line of a TableMapping file: blank, comment, or "host PATH" where PATH is {@code
   * /cluster/rack} ({@code twoLevels}) or starts with {@code /cluster} (otherwise); a host may be
   * listed twice only with the same PATH.
   */
  static java.util.Map<String, String> checkTable(Path table, boolean twoLevels) {
    List<String> lines;
    try {
      lines = Files.readAllLines(table, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw TopologyException.unreadable(table, "topology table", e);
    }
    if (TextFile.startsWithByteOrderMark(lines)) {
      throw new TopologyException(
          table
              + ":1: the file starts with a byte-order mark (U+FEFF), which "
              + "Hadoop's TableMapping would read as part of the first host name; save it as UTF-8 without BOM");
    }
    java.util.Map<String, Integer> firstLine = new java.util.HashMap<>();
    java.util.Map<String, String> paths = new java.util.LinkedHashMap<>();
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1).trim();
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      String[] cols = line.split("\\s+");
      if (cols.length != 2) {
        throw new TopologyException(
            table
                + ":"
                + n
                + ": expected two columns 'host /cluster/rack', got "
                + cols.length
                + ": '"
                + line
                + "'");
      }
      String problem = twoLevels ? pathProblem(cols[1]) : clusterPathProblem(cols[1]);
      if (problem != null) {
        throw new TopologyException(table + ":" + n + ": host " + cols[0] + ": " + problem);
      }
      // Hadoop's TableMapping keeps the last line of a host listed twice: say so instead
      Integer before = firstLine.putIfAbsent(cols[0], n);
      String path = before == null ? cols[1] : lines.get(before - 1).trim().split("\\s+")[1];
      if (!path.equals(cols[1])) {
        throw new TopologyException(
            table
                + ":"
                + n
                + ": host "
                + cols[0]
                + " is mapped to "
                + cols[1]
                + " here and to "
                + path
                + " on line "
                + before);
      }
      paths.put(cols[0], cols[1]);
    }
    return paths;
  }

  /**
   * @return null if {@code path} is "/cluster" or "/cluster/...", else what is wrong with it
   */
  static String clusterPathProblem(String path) {
    if (!path.startsWith("/") || path.length() < 2 || path.charAt(1) == '/') {
      return "network path '" + path + "' must start with /cluster (e.g. /cluster/rack)";
    }
    return null;
  }

  /**
   * @return null if {@code path} is "/cluster/rack", else what is wrong with it
   */
  static String pathProblem(String path) {
    if (!path.startsWith("/")) {
      return "network path '" + path + "' must start with '/' (expected /cluster/rack)";
    }
    String[] parts = path.substring(1).split("/", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return "network path '" + path + "' must have two levels, /cluster/rack";
    }
    return null;
  }

  /**
   * @param hosts host names
   * @return their paths {@code /cluster/rack}, in order
   * @throws TopologyException naming the table or script and the host when a host is not mapped
   *     (Hadoop answers its default rack) or is mapped to a path without two levels
   */
  List<String> resolve(List<String> hosts) {
    List<String> paths;
    try {
      paths = mapping.resolve(new ArrayList<>(hosts));
    } catch (RuntimeException e) {
      throw new TopologyException(source + ": cannot resolve hosts " + hosts + ": " + e, e);
    }
    if (paths == null || paths.size() != hosts.size()) {
      throw new TopologyException(
          source
              + ": could not resolve hosts "
              + hosts
              + " (the script failed or printed the wrong number of paths)");
    }
    for (int i = 0; i < hosts.size(); i++) {
      String p = paths.get(i);
      if (p == null || p.equals(org.apache.hadoop.net.NetworkTopology.DEFAULT_RACK)) {
        String ip = NetUtils.normalizeHostName(hosts.get(i));
        throw new TopologyException(
            source
                + ": host '"
                + hosts.get(i)
                + "' is not in the topology"
                + (ip.equals(hosts.get(i))
                    ? ""
                    : " (Hadoop's mapping looks it up as its address "
                        + ip
                        + ": list that address)"));
      }
      String problem = pathProblem(p);
      if (problem != null) {
        throw new TopologyException(source + ": host '" + hosts.get(i) + "': " + problem);
      }
    }
    return paths;
  }

  /**
   * @return what the mapping is, for messages: "topology table FILE", "topology script FILE", a
   *     mapping class name, or "no topology (every host unknown)"
   */
  public String source() {
    return source;
  }

  /**
   * @return false for a mapping {@link #fromHadoopConfiguration} built without any topology key (a
   *     table, a script or a mapping class), which knows no host; true otherwise
   */
  public boolean isConfigured() {
    return configured;
  }
}
