package io.wanshuffle.spark.topology;

import io.wanshuffle.scheduler.BaseSpeed;
import io.wanshuffle.scheduler.topology.Link;
import io.wanshuffle.scheduler.topology.LinkKind;
import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.scheduler.topology.TopologyException;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The links a cross-cluster flow crosses and how many flows each carries at once: the network the
 * plugin plans and throttles on. A flow from host s to host d holds one lease on every link of its
 * route (docs/topology.md): {@code nic.up[s]}, {@code rack.uplink[s's rack]} when d is in another
 * rack, {@code backbone.out[s's cluster]} and {@code backbone.in[d's cluster]}, {@code
 * rack.downlink[d's rack]}, {@code nic.down[d]}. A link of rate r carries r / b flows of the base
 * speed b (bytes/s) at once, at least one (the base-speed rule of the DGGP paper, Jeannot and
 * Wagner, sec. 2.2-2.3; links on topologies: liquid-schedules paper, Gabrielyan and Hersch, sec.
 * 3).
 *
 * <p>Two sources:
 *
 * <ul>
 *   <li>{@link #flat}: the KPBS platform of the {@code spark.wanshuffle.*} rate keys: each host's
 *       NIC carries δ(h) flows each way, each cluster's side of the backbone k flows each way (so
 *       two clusters have k flows per backbone direction); no rack links.
 *   <li>{@link #of(Topology, String)}: a topology file ({@code spark.wanshuffle.topology.file}, the
 *       format of {@code ./wan-shuffle plan --topology}): every link kind with its configured rate,
 *       racks and any number of clusters; the base speed is the gcd of every rate the file sets.
 * </ul>
 *
 * <p>Link ids are given out as routes are first asked for and never change. Thread-safe, with one
 * lock: its routes and links are registered lazily, as hosts first show up, by whichever thread
 * asks first (the coordinator under its own lock, and the capture, the measurement and the
 * predictions off it), and each read of a link's facts by id takes the same lock as a registration
 * that may grow the arrays behind them. The planner's hot loops do not call it per link: they read
 * {@code LinkFacts}, an array copy taken once per model.
 */
public final class LinkModel {
  /** The links of one route: ids and capacities, in route order. */
  private record Route(int[] links) {}

  /**
   * A (sender, receiver) pair as the route cache's key. Its hash multiplies the sender's by an odd
   * constant (the golden ratio's 2^32 fraction) before adding the receiver's: a list's 31 h(src) +
   * h(dst) gives host names that differ in their last characters colliding hashes (1,000 x 1,000
   * such pairs share 64,610 hashes, up to 90 a hash), which turns the map's look-ups into scans.
   */
  private record PairKey(String src, String dst) {
    @Override
    public int hashCode() {
      return src.hashCode() * 0x9E3779B1 + dst.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PairKey k && src.equals(k.src) && dst.equals(k.dst);
    }
  }

  private final Function<String[], List<Link>> routes;
  private final Function<String[], Integer> nicPorts;
  private final long baseSpeed;
  private final int k;
  private final boolean topologyAware;
  private final String source;
  private final Map<String, Integer> idByName = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  private final List<Integer> capacities = new ArrayList<>();
  private final ConcurrentHashMap<PairKey, Route> routeCache = new ConcurrentHashMap<>();

  private LinkModel(
      Function<String[], List<Link>> routes,
      Function<String[], Integer> nicPorts,
      long baseSpeed,
      int k,
      boolean topologyAware,
      String source) {
    this.routes = routes;
    this.nicPorts = nicPorts;
    this.baseSpeed = baseSpeed;
    this.k = k;
    this.topologyAware = topologyAware;
    this.source = source;
  }

  /**
   * The KPBS platform of the rate keys as links: {@code nic.up[h]} and {@code nic.down[h]} of δ(h)
   * flows, {@code backbone.out[/c]} and {@code backbone.in[/c]} of k flows per cluster c.
   *
   * @param conf the plugin's configuration (k, δ, base speed)
   * @param clusterOf the cluster of a host (never null)
   * @return the model
   */
  public static LinkModel flat(WanShuffleConf conf, Function<String, String> clusterOf) {
    return kpbs(conf.k(), conf::delta, clusterOf, conf.baseSpeed());
  }

  /**
   * The KPBS platform as links: {@code nic.up[h]} and {@code nic.down[h]} of δ(h) flows, {@code
   * backbone.out[/c]} and {@code backbone.in[/c]} of k flows per cluster c.
   *
   * @param k flows per side of the backbone, at least 1
   * @param delta δ(h), flows per NIC and direction, at least 1
   * @param clusterOf the cluster of a host (never null)
   * @param baseSpeed bytes/s of one flow, at least 1
   * @return the model
   * @throws IllegalArgumentException if k or the base speed is below 1
   */
  public static LinkModel kpbs(
      int k, ToIntFunction<String> delta, Function<String, String> clusterOf, long baseSpeed) {
    Objects.requireNonNull(clusterOf, "clusterOf");
    if (k < 1 || baseSpeed < 1) {
      throw new IllegalArgumentException(
          "k and the base speed must be at least 1, got " + k + " and " + baseSpeed);
    }
    long b = baseSpeed;
    Function<String[], List<Link>> routes =
        sd -> {
          String s = sd[0];
          String d = sd[1];
          return List.of(
              new Link(LinkKind.NIC_UP, s, b * Math.min(k, delta.applyAsInt(s))),
              new Link(LinkKind.BACKBONE_OUT, "/" + clusterOf.apply(s), b * k),
              new Link(LinkKind.BACKBONE_IN, "/" + clusterOf.apply(d), b * k),
              new Link(LinkKind.NIC_DOWN, d, b * Math.min(k, delta.applyAsInt(d))));
        };
    return new LinkModel(
        routes,
        hd -> Math.min(k, delta.applyAsInt(hd[0])),
        b,
        k,
        false,
        "spark.wanshuffle.* rate keys");
  }

  /**
   * The links of a topology file.
   *
   * @param topology the topology (host mapping and rates)
   * @param key the configuration key that named the file, for messages
   * @return the model
   * @throws TopologyException when the file sets no rate, or a rate is more than {@value
   *     BaseSpeed#MAX_FLOWS} times the gcd of the rates (rates without a sizeable common divisor)
   */
  public static LinkModel of(Topology topology, String key) {
    List<Long> rates = topology.config().rates();
    if (rates.isEmpty()) {
      throw new TopologyException(
          topology.config().file() + ": no link has a rate (every rate is 'none')");
    }
    long b = BaseSpeed.ofRates(rates.stream().mapToLong(Long::longValue).toArray());
    long max = rates.stream().mapToLong(Long::longValue).max().orElseThrow();
    if (max / b > BaseSpeed.MAX_FLOWS) {
      throw new TopologyException(
          topology.config().file()
              + ": a rate of "
              + max
              + " B/s is "
              + max / b
              + " times the base speed "
              + b
              + " B/s (the gcd of every rate in the file), more than "
              + BaseSpeed.MAX_FLOWS
              + " flows; round the rates");
    }
    checkRates(topology);
    Set<String> clusters = clusters(topology);
    long backbone = 0;
    for (LinkKind kind : new LinkKind[] {LinkKind.BACKBONE_OUT, LinkKind.BACKBONE_IN}) {
      for (String c : clusters.isEmpty() ? Set.of("/-") : clusters) {
        try {
          backbone = Math.max(backbone, topology.config().rate(kind, c).orElse(0));
        } catch (TopologyException e) {
          // a script mapping without a default backbone rate: k from the rates that apply
        }
      }
    }
    int kFlows = (int) Math.max(1, Math.min(BaseSpeed.MAX_FLOWS, backbone / b));
    Function<String[], List<Link>> routes = sd -> topology.route(sd[0], sd[1]);
    Function<String[], Integer> nic =
        hd -> {
          LinkKind kind = hd[1].equals("up") ? LinkKind.NIC_UP : LinkKind.NIC_DOWN;
          OptionalLong r = topology.config().rate(kind, hd[0]);
          return r.isPresent() ? (int) Math.max(1, Math.min(kFlows, r.getAsLong() / b)) : kFlows;
        };
    return new LinkModel(
        routes, nic, b, kFlows, aware(topology), key + " = " + topology.config().file());
  }

  /**
   * @return the network paths {@code /c/r} of the topology's mapping table (empty for a script)
   */
  private static Set<String> racks(Topology topology) {
    Set<String> out = new TreeSet<>();
    topology.mapping().tablePaths().ifPresent(t -> out.addAll(t.values()));
    return out;
  }

  /**
   * @return the clusters {@code /c} of the topology's mapping table (empty for a script)
   */
  private static Set<String> clusters(Topology topology) {
    Set<String> out = new TreeSet<>();
    for (String rack : racks(topology)) {
      out.add(rack.substring(0, rack.indexOf('/', 1)));
    }
    return out;
  }

  /**
   * With a mapping table, every link a cross-cluster route may cross must have a rate (or {@code
   * none}): checked once, at start-up, so that no route fails later.
   *
   * @throws TopologyException naming the file and the link without a rate
   */
  private static void checkRates(Topology t) {
    var config = t.config();
    t.mapping()
        .tablePaths()
        .ifPresent(
            table -> {
              for (Map.Entry<String, String> e : table.entrySet()) {
                config.rate(LinkKind.NIC_UP, e.getKey());
                config.rate(LinkKind.NIC_DOWN, e.getKey());
              }
              for (String rack : racks(t)) {
                config.rate(LinkKind.RACK_UPLINK, rack);
                config.rate(LinkKind.RACK_DOWNLINK, rack);
              }
              for (String c : clusters(t)) {
                config.rate(LinkKind.BACKBONE_OUT, c);
                config.rate(LinkKind.BACKBONE_IN, c);
              }
            });
  }

  /**
   * Whether planning must see the links: a rack link has a rate, the table lists more than two
   * clusters, or the clusters' backbone sides differ in rate. With a script mapping, which cannot
   * list its racks and clusters: a rack rate, or a rate set for one cluster's backbone side.
   */
  private static boolean aware(Topology t) {
    var config = t.config();
    Set<String> racks = racks(t);
    if (racks.isEmpty()) {
      return config.overrides().stream()
              .anyMatch(o -> o.key().startsWith("rack.") || o.key().startsWith("backbone."))
          || defaultRackRate(t);
    }
    for (String rack : racks) {
      if (config.rate(LinkKind.RACK_UPLINK, rack).isPresent()
          || config.rate(LinkKind.RACK_DOWNLINK, rack).isPresent()) {
        return true;
      }
    }
    Set<String> clusters = clusters(t);
    if (clusters.size() > 2) {
      return true;
    }
    Set<Long> sides = new TreeSet<>();
    for (String c : clusters) {
      for (LinkKind kind : new LinkKind[] {LinkKind.BACKBONE_OUT, LinkKind.BACKBONE_IN}) {
        OptionalLong r = config.rate(kind, c);
        sides.add(r.isPresent() ? r.getAsLong() : -1);
      }
    }
    return sides.size() > 1;
  }

  private static boolean defaultRackRate(Topology t) {
    try {
      return t.config().rate(LinkKind.RACK_UPLINK, "/-/-").isPresent()
          || t.config().rate(LinkKind.RACK_DOWNLINK, "/-/-").isPresent();
    } catch (TopologyException e) {
      return false; // no default rack rate
    }
  }

  /**
   * @return b, the bytes/s of one flow: amounts in seconds are bytes / b
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * @return k of the KPBS view: the flows the largest side of the backbone carries at once
   */
  public int k() {
    return k;
  }

  /**
   * @return true when planning must see every link (racks with rates, more than two clusters, or
   *     backbone sides of different rates); false for the KPBS platform, where k and δ say it all
   */
  public boolean topologyAware() {
    return topologyAware;
  }

  /**
   * @return where the model comes from, for messages
   */
  public String source() {
    return source;
  }

  /**
   * The links of the route from {@code src} to {@code dst}.
   *
   * @param src a sending host, in the topology
   * @param dst a receiving host in another cluster, in the topology
   * @return link ids in route order (links set to {@code none} left out)
   * @throws TopologyException for a host the topology does not know or a link without a rate
   */
  public int[] route(String src, String dst) {
    PairKey pair = new PairKey(src, dst);
    Route r = routeCache.get(pair); // a plain read: no lock on the hot path
    return (r != null ? r : routeCache.computeIfAbsent(pair, p -> resolve(src, dst))).links();
  }

  private synchronized Route resolve(String src, String dst) {
    List<Link> links = routes.apply(new String[] {src, dst});
    int[] ids = new int[links.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = register(links.get(i));
    }
    return new Route(ids);
  }

  private synchronized int register(Link link) {
    String name = link.name();
    Integer id = idByName.get(name);
    if (id == null) {
      id = names.size();
      names.add(name);
      capacities.add(BaseSpeed.flows(link.rate(), baseSpeed));
      idByName.put(name, id);
    }
    return id;
  }

  /**
   * @param link a link id from {@link #route}
   * @return the flows it carries at once, at least 1
   */
  public synchronized int capacity(int link) {
    return capacities.get(link);
  }

  /**
   * @param link a link id from {@link #route}
   * @return its name, e.g. {@code rack.uplink[/A/rack0]}
   */
  public synchronized String name(int link) {
    return names.get(link);
  }

  /**
   * @return the links given an id so far
   */
  public synchronized int linkCount() {
    return names.size();
  }

  /**
   * @param link a link id
   * @return true for a NIC link ({@code nic.up[..]} or {@code nic.down[..]})
   */
  public synchronized boolean isNic(int link) {
    return names.get(link).startsWith("nic.");
  }

  /**
   * @param host a host
   * @return δ of {@code host} as a sender: the flows its NIC sends at once (k when its NIC is set
   *     to {@code none})
   */
  public int sendPorts(String host) {
    return nicPorts.apply(new String[] {host, "up"});
  }

  /**
   * @param host a host
   * @return δ of {@code host} as a receiver: the flows its NIC receives at once (k when its NIC is
   *     set to {@code none})
   */
  public int receivePorts(String host) {
    return nicPorts.apply(new String[] {host, "down"});
  }

  /**
   * @param link a link id
   * @return true for a link on the sender's side of a route (NIC up, rack uplink, backbone out)
   */
  public synchronized boolean isSenderSide(int link) {
    String n = names.get(link);
    return n.startsWith("nic.up[") || n.startsWith("rack.uplink[") || n.startsWith("backbone.out[");
  }

  /**
   * @param link a link id
   * @return true for a cluster's outgoing side of the backbone ({@code backbone.out[..]})
   */
  public synchronized boolean isBackboneOut(int link) {
    return names.get(link).startsWith("backbone.out[");
  }

  /**
   * @param link a link id
   * @return true for a cluster's incoming side of the backbone ({@code backbone.in[..]})
   */
  public synchronized boolean isBackboneIn(int link) {
    return names.get(link).startsWith("backbone.in[");
  }

  @Override
  public String toString() {
    return "LinkModel[" + source + ", base speed " + baseSpeed + " B/s, k " + k + "]";
  }
}
