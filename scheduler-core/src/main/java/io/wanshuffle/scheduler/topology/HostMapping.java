package io.wanshuffle.scheduler.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.net.TableMapping;

/**
 * Host name to network path {@code /cluster/rack}, through Hadoop's {@link DNSToSwitchMapping}:
 * a {@link TableMapping} file (two whitespace-separated columns per line, host and path; {@code #}
 * comments; the same file Hadoop and Spark operators maintain under {@code
 * net.topology.table.file.name}) or a {@link ScriptBasedMapping} script ({@code
 * net.topology.script.file.name}).
 *
 * <p>As in Hadoop, names are first turned into IP addresses by DNS where they resolve ({@code
 * CachedDNSToSwitchMapping}), so a table lists the addresses of resolvable hosts (or IP literals).
 * Hadoop's TableMapping skips malformed lines with a warning; this class checks the table first
 * and rejects them, naming file and line. Paths must have exactly two levels, cluster and rack.
 */
final class HostMapping {
  private final DNSToSwitchMapping mapping;
  private final String source;

  HostMapping(DNSToSwitchMapping mapping, String source) {
    this.mapping = mapping;
    this.source = source;
  }

  /**
   * @param config the topology configuration naming the table or the script
   * @return the mapping
   * @throws TopologyException for an unreadable or malformed table (file and line)
   */
  static HostMapping of(TopologyConfig config) {
    Configuration conf = new Configuration(false);
    if (config.table() != null) {
      checkTable(config.table());
      conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_TABLE_MAPPING_FILE_KEY,
          config.table().toString());
      TableMapping t = new TableMapping();
      t.setConf(conf);
      return new HostMapping(t, "topology table " + config.table());
    }
    if (!Files.isRegularFile(config.script())) {
      throw new TopologyException(config.file() + ": mapping.script " + config.script()
          + " does not exist");
    }
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY,
        config.script().toString());
    conf.setInt(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_NUMBER_ARGS_KEY,
        config.scriptArgs());
    ScriptBasedMapping s = new ScriptBasedMapping(conf);
    return new HostMapping(s, "topology script " + config.script());
  }

  /** Checks every line of a TableMapping file: blank, comment, or "host /cluster/rack". */
  static void checkTable(Path table) {
    List<String> lines;
    try {
      lines = Files.readAllLines(table, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TopologyException(table + ": cannot read topology table: " + e, e);
    }
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1).trim();
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      String[] cols = line.split("\\s+");
      if (cols.length != 2) {
        throw new TopologyException(table + ":" + n + ": expected two columns 'host /cluster/rack', got "
            + cols.length + ": '" + line + "'");
      }
      String problem = pathProblem(cols[1]);
      if (problem != null) {
        throw new TopologyException(table + ":" + n + ": host " + cols[0] + ": " + problem);
      }
    }
  }

  /** @return null if {@code path} is "/cluster/rack", else what is wrong with it */
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
      throw new TopologyException(source + ": could not resolve hosts " + hosts
          + " (the script failed or printed the wrong number of paths)");
    }
    for (int i = 0; i < hosts.size(); i++) {
      String p = paths.get(i);
      if (p == null || p.equals(org.apache.hadoop.net.NetworkTopology.DEFAULT_RACK)) {
        String ip = NetUtils.normalizeHostName(hosts.get(i));
        throw new TopologyException(source + ": host '" + hosts.get(i) + "' is not in the topology"
            + (ip.equals(hosts.get(i)) ? "" : " (Hadoop's mapping looks it up as its address "
                + ip + ": list that address)"));
      }
      String problem = pathProblem(p);
      if (problem != null) {
        throw new TopologyException(source + ": host '" + hosts.get(i) + "': " + problem);
      }
    }
    return paths;
  }

  /** @return "topology table FILE" or "topology script FILE", for messages */
  String source() {
    return source;
  }
}
