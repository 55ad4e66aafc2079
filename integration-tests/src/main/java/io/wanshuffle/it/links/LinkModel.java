package io.wanshuffle.it.links;

import io.wanshuffle.scheduler.topology.Link;
import io.wanshuffle.scheduler.topology.LinkKind;
import io.wanshuffle.scheduler.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The links of a topology configuration file (docs/topology.md) and their capacities in flows:
 * every link on a route between two hosts of its mapping table ({@code Topology.route}, links set
 * to {@code none} left out), the base speed b = the greatest common divisor of their rates (the
 * base-speed rule of Jeannot and Wagner's DGGP paper, sec. 2.2, over every rate in the file rather
 * than only the links a matrix uses), and each link's capacity = rate / b flows (at least 1).
 */
public final class LinkModel {
  private final Topology topology;
  private final List<String> hosts;
  private final Map<String, Link> links;
  private final long baseSpeed;
  private final Map<String, List<String>> routes = new HashMap<>();

  private LinkModel(Topology topology, List<String> hosts, Map<String, Link> links, long base) {
    this.topology = topology;
    this.hosts = List.copyOf(hosts);
    this.links = links;
    this.baseSpeed = base;
  }

  /**
   * Reads a topology file and its mapping table.
   *
   * @param topologyConf the topology configuration ({@code mapping.table} must be set: its hosts
   *     are the model's)
   * @return the model
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a file that does not parse, a
   *     link without a rate, or a configuration without a mapping table
   * @throws UncheckedIOException if the table cannot be read
   */
  public static LinkModel load(Path topologyConf) {
    Topology t = Topology.load(topologyConf);
    Path table = t.config().table();
    if (table == null) {
      throw new io.wanshuffle.scheduler.topology.TopologyException(
          topologyConf + ": the link model needs a mapping.table listing the hosts");
    }
    List<String> hosts = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(table)) {
        String l = line.replaceAll("#.*", "").strip();
        if (!l.isEmpty()) {
          hosts.add(l.split("\\s+")[0]);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read topology table " + table, e);
    }
    Map<String, Link> links = new HashMap<>();
    long g = 0;
    for (String s : hosts) {
      for (String d : hosts) {
        if (!s.equals(d)) {
          for (Link l : t.route(s, d)) {
            if (links.putIfAbsent(l.name(), l) == null) {
              g = gcd(g, l.rate());
            }
          }
        }
      }
    }
    Map<String, Link> ordered = new LinkedHashMap<>();
    links.values().stream()
        .sorted(Comparator.comparing((Link l) -> l.kind().ordinal()).thenComparing(Link::owner))
        .forEach(l -> ordered.put(l.name(), l));
    return new LinkModel(t, hosts, ordered, Math.max(g, 1));
  }

  /**
   * @return the hosts of the mapping table, in its order
   */
  public List<String> hosts() {
    return hosts;
  }

  /**
   * @return the links by name, NIC up-links first, then rack uplinks, backbone sides out and in,
   *     rack downlinks and NIC down-links (docs/topology.md's route order), each by owner
   */
  public Map<String, Link> links() {
    return java.util.Collections.unmodifiableMap(links);
  }

  /**
   * @return the base speed, bytes/s: the gcd of every link's rate
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * @param link a link's name
   * @return its capacity in flows of the base speed (rate / base speed, at least 1)
   * @throws IllegalArgumentException for a link the model does not have
   */
  public int capacityFlows(String link) {
    Link l = links.get(link);
    if (l == null) {
      throw new IllegalArgumentException("no link " + link + " in the topology");
    }
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, l.rate() / baseSpeed));
  }

  /**
   * @param src sending host
   * @param dst receiving host
   * @return the names of the links a transfer from {@code src} to {@code dst} holds, in route order
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the mapping does not know
   */
  public List<String> route(String src, String dst) {
    return routes.computeIfAbsent(
        src + "\u0000" + dst, k -> topology.route(src, dst).stream().map(Link::name).toList());
  }

  /**
   * The generalised physical limit of a traffic matrix: max over links of (bytes of the transfers
   * whose route holds it) / rate.
   *
   * @param bytes {@code [senders][receivers]} bytes
   * @param senders host of each row
   * @param receivers host of each column
   * @return the limit, s, and the link that sets it
   */
  public Limit limit(long[][] bytes, List<String> senders, List<String> receivers) {
    Map<String, Long> load = loadBytes(bytes, senders, receivers);
    Limit best = new Limit(0, null);
    for (Map.Entry<String, Long> e : load.entrySet()) {
      double s = e.getValue() / (double) links.get(e.getKey()).rate();
      if (s > best.seconds()) {
        best = new Limit(s, e.getKey());
      }
    }
    return best;
  }

  /**
   * @param bytes {@code [senders][receivers]} bytes
   * @param senders host of each row
   * @param receivers host of each column
   * @return per link (in {@link #links()} order), the bytes of the transfers whose route holds it;
   *     links that carry none are left out
   */
  public Map<String, Long> loadBytes(long[][] bytes, List<String> senders, List<String> receivers) {
    Map<String, Long> load = new HashMap<>();
    for (int i = 0; i < senders.size(); i++) {
      for (int j = 0; j < receivers.size(); j++) {
        if (bytes[i][j] > 0 && !senders.get(i).equals(receivers.get(j))) {
          for (String l : route(senders.get(i), receivers.get(j))) {
            load.merge(l, bytes[i][j], Long::sum);
          }
        }
      }
    }
    Map<String, Long> ordered = new LinkedHashMap<>();
    links.keySet().stream().filter(load::containsKey).forEach(l -> ordered.put(l, load.get(l)));
    return ordered;
  }

  /**
   * A generalised physical limit.
   *
   * @param seconds the largest bytes / rate over links, s (0 without traffic)
   * @param link the link that sets it, or null without traffic
   */
  public record Limit(double seconds, String link) {}

  /**
   * @param link a link's name
   * @return its kind, from the name's prefix
   * @throws IllegalArgumentException for a name of no known kind
   */
  static LinkKind kindOf(String link) {
    for (LinkKind k : LinkKind.values()) {
      String prefix = k.key().substring(0, k.key().length() - ".rate".length()) + "[";
      if (link.startsWith(prefix)) {
        return k;
      }
    }
    throw new IllegalArgumentException("not a link name: " + link);
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
}
