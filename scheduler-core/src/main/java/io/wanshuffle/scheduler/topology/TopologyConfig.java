package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.io.RateSyntax;
import io.wanshuffle.scheduler.io.RateSyntaxException;
import io.wanshuffle.scheduler.io.TextFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed topology configuration file (format in docs/topology.md): which host mapping to use (a
 * Hadoop {@code TableMapping} file or a {@code ScriptBasedMapping} script) and the link rates in
 * bytes/s, as defaults per link kind and overrides per host, rack or cluster.
 *
 * <p>One {@code key = value} per line; {@code #} starts a comment. Keys: {@code mapping.table},
 * {@code mapping.script}, {@code mapping.script.args}, and rate keys {@code nic.rate}, {@code
 * nic.up.rate}, {@code nic.down.rate}, {@code rack.rate}, {@code rack.uplink.rate}, {@code
 * rack.downlink.rate}, {@code backbone.rate}, {@code backbone.out.rate}, {@code backbone.in.rate},
 * each optionally followed by {@code [owner]} (a host name, {@code /cluster/rack} or {@code
 * /cluster}; a {@code #} inside the brackets belongs to the name). A rate is written in the syntax
 * of {@link RateSyntax} ({@code 100mbit}, {@code 1gbit}, {@code 12.5MB/s}, {@code 12500000}
 * bytes/s; a bare suffix {@code k}, {@code M}, {@code G}, {@code T} is decimal, 10^3 .. 10^12), or
 * is {@code none} for a link that is not a constraint.
 */
public final class TopologyConfig {
  private static final Pattern LINE =
      Pattern.compile("([A-Za-z.]+)(?:\\[([^\\]]+)\\])?\\s*=\\s*(.*)");
  private static final Set<String> RATE_KEYS =
      Set.of(
          "nic.rate",
          "nic.up.rate",
          "nic.down.rate",
          "rack.rate",
          "rack.uplink.rate",
          "rack.downlink.rate",
          "backbone.rate",
          "backbone.out.rate",
          "backbone.in.rate");

  /** Rate value meaning "not a constraint". */
  static final long UNLIMITED = Long.MAX_VALUE;

  private final Path file;
  private final Path table;
  private final Path script;
  private final int scriptArgs;

  /** key or key[owner] -> rate (UNLIMITED for none). */
  private final Map<String, Long> rates;

  private final List<RateOverride> overrides;

  /**
   * A rate set for one owner, {@code key[owner] = rate}.
   *
   * @param key the rate key, e.g. {@code nic.rate}
   * @param owner a host name for {@code nic.*} keys, {@code /cluster/rack} for {@code rack.*},
   *     {@code /cluster} for {@code backbone.*}
   * @param line its 1-based line in the configuration file
   */
  public record RateOverride(String key, String owner, int line) {
    /**
     * @return what the owner must be, from the key
     */
    public OwnerKind ownerKind() {
      return OwnerKind.of(key);
    }
  }

  /**
   * What the owner of a rate key names: a host ({@code nic.*}), a rack ({@code rack.*}), a cluster
   * ({@code backbone.*}).
   */
  public enum OwnerKind {
    /** a host name */
    HOST,
    /** a rack path {@code /cluster/rack} */
    RACK,
    /** a cluster path {@code /cluster} */
    CLUSTER;

    static OwnerKind of(String rateKey) {
      return rateKey.startsWith("nic.") ? HOST : rateKey.startsWith("rack.") ? RACK : CLUSTER;
    }
  }

  private TopologyConfig(
      Path file,
      Path table,
      Path script,
      int scriptArgs,
      Map<String, Long> rates,
      List<RateOverride> overrides) {
    this.file = file;
    this.overrides = overrides;
    this.table = table;
    this.script = script;
    this.scriptArgs = scriptArgs;
    this.rates = rates;
  }

  /**
   * Reads a topology configuration file.
   *
   * @param file the file; relative mapping paths in it are resolved against its directory
   * @return the configuration
   * @throws TopologyException naming the file and line for a malformed line, an unknown key, a bad
   *     rate, a key given twice, or a missing/double mapping; or if the file cannot be read
   */
  public static TopologyConfig load(Path file) {
    List<String> lines;
    try {
      lines = TextFile.lines(file);
    } catch (IOException e) {
      throw TopologyException.unreadable(file, "topology configuration", e);
    }
    Path dir = file.toAbsolutePath().getParent();
    Path table = null;
    Path script = null;
    int scriptArgs = 100;
    Map<String, Long> rates = new HashMap<>();
    Map<String, Integer> seenAt = new HashMap<>();
    List<RateOverride> overrides = new ArrayList<>();
    for (int n = 1; n <= lines.size(); n++) {
      String raw = lines.get(n - 1);
      int hash = commentStart(raw);
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
      if (line.isEmpty()) {
        continue;
      }
      String where = file + ":" + n + ": ";
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new TopologyException(
            where + "expected 'key = value' or 'key[owner] = value', got '" + line + "'");
      }
      String key = m.group(1);
      String owner = m.group(2);
      String value = m.group(3).trim();
      if (owner != null) {
        owner = owner.trim();
      }
      String full = owner == null ? key : key + "[" + owner + "]";
      Integer before = seenAt.put(full, n);
      if (before != null) {
        throw new TopologyException(where + "'" + full + "' is already set on line " + before);
      }
      if (value.isEmpty()) {
        throw new TopologyException(where + "'" + full + "' has no value");
      }
      switch (key) {
        case "mapping.table" -> {
          requireNoOwner(where, key, owner);
          table = dir.resolve(value);
        }
        case "mapping.script" -> {
          requireNoOwner(where, key, owner);
          script = dir.resolve(value);
        }
        case "mapping.script.args" -> {
          requireNoOwner(where, key, owner);
          try {
            scriptArgs = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            scriptArgs = 0;
          }
          if (scriptArgs < 1) {
            throw new TopologyException(
                where + "mapping.script.args must be a positive integer, got '" + value + "'");
          }
        }
        default -> {
          if (!RATE_KEYS.contains(key)) {
            throw new TopologyException(
                where
                    + "unknown key '"
                    + key
                    + "'; known: mapping.table, "
                    + "mapping.script, mapping.script.args, "
                    + String.join(", ", RATE_KEYS.stream().sorted().toList()));
          }
          rates.put(full, parseRate(where, full, value));
          if (owner != null) {
            String problem = ownerProblem(key, owner);
            if (problem != null) {
              throw new TopologyException(where + "'" + full + "': " + problem);
            }
            overrides.add(new RateOverride(key, owner, n));
          }
        }
      }
    }
    if (table == null && script == null) {
      throw new TopologyException(
          file
              + ": no host mapping: set mapping.table (a Hadoop TableMapping "
              + "file) or mapping.script (a ScriptBasedMapping script)");
    }
    if (table != null && script != null) {
      throw new TopologyException(
          file
              + ": set only one of mapping.table (line "
              + seenAt.get("mapping.table")
              + ") and mapping.script (line "
              + seenAt.get("mapping.script")
              + ")");
    }
    return new TopologyConfig(file, table, script, scriptArgs, rates, List.copyOf(overrides));
  }

  /**
   * @return the index of the {@code #} that starts the line's comment, or -1: a {@code #} inside
   *     the key's {@code [owner]} brackets belongs to the owner (host names may contain it)
   */
  private static int commentStart(String raw) {
    int eq = raw.indexOf('=');
    int open = raw.indexOf('[');
    int close = open < 0 ? -1 : raw.indexOf(']', open);
    for (int i = 0; i < raw.length(); i++) {
      if (raw.charAt(i) == '#' && !(open >= 0 && i > open && i < close && (eq < 0 || close < eq))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * @return null when {@code owner} has the form {@code key} needs, else what is wrong
   */
  private static String ownerProblem(String key, String owner) {
    return switch (OwnerKind.of(key)) {
      case HOST ->
          owner.startsWith("/")
              ? "a NIC belongs to a host: name the host, not the network path '" + owner + "'"
              : null;
      case RACK ->
          HostMapping.pathProblem(owner) == null
              ? null
              : "a rack link belongs to a rack /cluster/rack, got '" + owner + "'";
      case CLUSTER ->
          owner.matches("/[^/]+")
              ? null
              : "a backbone side belongs to a cluster /cluster, got '" + owner + "'";
    };
  }

  private static void requireNoOwner(String where, String key, String owner) {
    if (owner != null) {
      throw new TopologyException(where + "'" + key + "' takes no [owner]");
    }
  }

  /**
   * @param where file:line: prefix for errors
   * @param key the key, for errors
   * @param value {@code none} or a rate in the syntax of {@link RateSyntax} (a bare suffix k, M, G,
   *     T is decimal here)
   * @return bytes/s, or {@link #UNLIMITED} for none
   * @throws TopologyException naming the line, the key and the value when it is not a rate
   */
  static long parseRate(String where, String key, String value) {
    if (value.equalsIgnoreCase("none")) {
      return UNLIMITED;
    }
    try {
      return RateSyntax.parse(value, RateSyntax.Dialect.DECIMAL);
    } catch (RateSyntaxException e) {
      String got = ", got '" + value + "'";
      throw new TopologyException(
          where
              + "'"
              + key
              + switch (e.problem()) {
                case TOO_LARGE -> "' is too large: at most " + RateSyntax.MAX + " bytes/s" + got;
                case UNIT -> "': " + e.reason() + got;
                case SYNTAX, TOO_SMALL ->
                    "' must be a positive rate such as "
                        + RateSyntax.examples(RateSyntax.Dialect.DECIMAL)
                        + ", or 'none'"
                        + got;
              });
    }
  }

  /**
   * @return every rate the configuration sets, defaults and overrides, in bytes/s, without the
   *     links set to {@code none}; in no particular order
   */
  public List<Long> rates() {
    return rates.values().stream().filter(r -> r != UNLIMITED).toList();
  }

  /**
   * @return every {@code key[owner] = rate} line, in file order
   */
  public List<RateOverride> overrides() {
    return overrides;
  }

  /**
   * @return the configuration file this was read from
   */
  public Path file() {
    return file;
  }

  /**
   * @return the TableMapping file, or null when a script is used
   */
  public Path table() {
    return table;
  }

  /**
   * @return the ScriptBasedMapping script, or null when a table is used
   */
  public Path script() {
    return script;
  }

  /**
   * @return how many host names the script is given per call (Hadoop's
   *     net.topology.script.number.args)
   */
  public int scriptArgs() {
    return scriptArgs;
  }

  /**
   * The rate of one link: the most specific setting wins: {@code kind.key[owner]}, then the
   * two-direction key with owner ({@code nic.rate[owner]}, ...), then {@code kind.key}, then the
   * two-direction default.
   *
   * @param kind the link kind
   * @param owner host, rack path or cluster path
   * @return the rate in bytes/s; empty when the link is set to {@code none} (not a constraint)
   * @throws TopologyException naming the configuration file and the keys to set when no rate
   *     applies
   */
  public OptionalLong rate(LinkKind kind, String owner) {
    String both =
        switch (kind) {
          case NIC_UP, NIC_DOWN -> "nic.rate";
          case RACK_UPLINK, RACK_DOWNLINK -> "rack.rate";
          case BACKBONE_OUT, BACKBONE_IN -> "backbone.rate";
        };
    for (String k :
        new String[] {kind.key() + "[" + owner + "]", both + "[" + owner + "]", kind.key(), both}) {
      Long r = rates.get(k);
      if (r != null) {
        return r == UNLIMITED ? OptionalLong.empty() : OptionalLong.of(r);
      }
    }
    throw new TopologyException(
        file
            + ": link "
            + new Link(kind, owner, 1).name()
            + " has no capacity: set "
            + kind.key()
            + " or "
            + kind.key()
            + "["
            + owner
            + "] (or "
            + both
            + "), in bytes/s or 'none'");
  }

  @Override
  public String toString() {
    return "TopologyConfig["
        + file
        + ", "
        + (table != null ? "table " + table : "script " + script)
        + ", "
        + rates.size()
        + " rates]";
  }
}
