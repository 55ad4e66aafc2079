package io.wanshuffle.it.links;

import io.wanshuffle.scheduler.topology.Link;
import io.wanshuffle.scheduler.topology.LinkNetwork;
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
 * The links of a topology configuration file (docs/topology.md) between the hosts of its mapping
 * table, as scheduler-core plans on them: every link on a route between two of the hosts ({@code
 * Topology.route}, links set to {@code none} left out) with its rate, and its capacity in flows
 * from scheduler-core's link network of those hosts ({@code Topology.network}: the base speed is
 * {@code BaseSpeed}'s rule, the greatest common divisor of the rates, and a link carries rate /
 * base speed flows). On top of them, what a run's analysis reads: the load and the generalised
 * physical limit of a traffic matrix.
 */
public final class TopologyLinks {
  private final Topology topology;
  private final List<String> hosts;
  private final Map<String, Link> links;
  private final Map<String, Integer> capacity;
  private final long baseSpeed;
  private final Map<String, List<String>> routes = new HashMap<>();

  private TopologyLinks(
      Topology topology,
      List<String> hosts,
      Map<String, Link> links,
      Map<String, Integer> capacity,
      long baseSpeed) {
    this.topology = topology;
    this.hosts = List.copyOf(hosts);
    this.links = links;
    this.capacity = capacity;
    this.baseSpeed = baseSpeed;
  }

  /**
   * Reads a topology file and its mapping table.
   *
   * @param topologyConf the topology configuration ({@code mapping.table} must be set: its hosts
   *     are the ones whose links are taken)
   * @return the links
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a file that does not parse, a
   *     link without a rate, or a configuration without a mapping table
   * @throws IllegalArgumentException for rates without a sizeable common divisor (a link of more
   *     than {@code BaseSpeed.MAX_FLOWS} flows)
   * @throws UncheckedIOException if the table cannot be read
   */
  public static TopologyLinks load(Path topologyConf) {
    Topology t = Topology.load(topologyConf);
    Path table = t.config().table();
    if (table == null) {
      throw new io.wanshuffle.scheduler.topology.TopologyException(
          topologyConf + ": the links need a mapping.table listing the hosts");
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
    for (String s : hosts) {
      for (String d : hosts) {
        if (!s.equals(d)) {
          t.route(s, d).forEach(l -> links.putIfAbsent(l.name(), l));
        }
      }
    }
    LinkNetwork net = t.network(hosts, hosts);
    Map<String, Integer> capacity = new HashMap<>();
    for (int l = 0; l < net.linkCount(); l++) {
      capacity.put(net.linkName(l), net.capacity(l));
    }
    Map<String, Link> ordered = new LinkedHashMap<>();
    links.values().stream()
        .sorted(Comparator.comparing((Link l) -> l.kind().ordinal()).thenComparing(Link::owner))
        .forEach(l -> ordered.put(l.name(), l));
    return new TopologyLinks(t, hosts, ordered, capacity, net.baseSpeed());
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
   * @return the base speed, bytes/s: the greatest common divisor of every link's rate
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * @param link a link's name
   * @return its capacity in flows of the base speed (rate / base speed, at least 1)
   * @throws IllegalArgumentException for a link between none of the hosts
   */
  public int capacityFlows(String link) {
    Integer c = links.containsKey(link) ? capacity.get(link) : null;
    if (c == null) {
      throw new IllegalArgumentException("no link " + link + " in the topology");
    }
    return c;
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
}
