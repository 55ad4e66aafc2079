package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.BaseSpeed;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.net.DNSToSwitchMapping;

/**
 * A host / rack / cluster tree: hosts map to network paths {@code /cluster/rack} through Hadoop's
 * {@link DNSToSwitchMapping}, and the links (NIC up and down per host, uplink and downlink per
 * rack, each cluster's outgoing and incoming side of the backbone) get their rates (bytes/s) from a
 * {@link TopologyConfig}. A transfer from host s to host d uses the links of its route ({@link
 * LinkKind}); {@link #network} turns the hosts of a traffic matrix into a {@link LinkNetwork} with
 * capacities in flows by the base-speed rule of the DGGP paper (Jeannot and Wagner, sec. 2.2): base
 * speed = gcd of the rates of every link in use ({@link BaseSpeed#ofRates}).
 *
 * <p>Not thread-safe (it caches resolved hosts).
 */
public final class Topology {
  private final TopologyConfig config;
  private final HostMapping mapping;
  private final Map<String, String> pathOf = new HashMap<>();

  private Topology(TopologyConfig config, HostMapping mapping) {
    this.config = config;
    this.mapping = mapping;
  }

  /**
   * Reads a topology configuration file and the host mapping it names.
   *
   * @param configFile the topology configuration (format: docs/topology.md)
   * @return the topology
   * @throws TopologyException naming file and line for bad input
   */
  public static Topology load(Path configFile) {
    TopologyConfig c = TopologyConfig.load(configFile);
    Topology t = new Topology(c, HostMapping.of(c));
    t.checkOverrides();
    return t;
  }

  /**
   * Every {@code key[owner]} of the configuration must name something the mapping knows, so that a
   * typo does not leave a link at its default rate silently: a host the mapping resolves, and, with
   * a mapping table, a rack or cluster of the table (a script cannot list its racks: those owners
   * are not checked).
   */
  private void checkOverrides() {
    java.util.Optional<Map<String, String>> table = mapping.tablePaths();
    java.util.Set<String> racks = new java.util.TreeSet<>();
    java.util.Set<String> clusters = new java.util.TreeSet<>();
    table.ifPresent(
        t ->
            t.values()
                .forEach(
                    path -> {
                      racks.add(path);
                      clusters.add(clusterOf(path));
                    }));
    for (TopologyConfig.RateOverride o : config.overrides()) {
      String where = config.file() + ":" + o.line() + ": '" + o.key() + "[" + o.owner() + "]': ";
      java.util.Set<String> known =
          switch (o.ownerKind()) {
            case HOST -> {
              try {
                resolveAll(List.of(o.owner()));
              } catch (TopologyException e) {
                throw new TopologyException(where + "no such host: " + e.getMessage(), e);
              }
              yield null;
            }
            case RACK -> racks;
            case CLUSTER -> clusters;
          };
      if (known != null && table.isPresent() && !known.contains(o.owner())) {
        String kind = o.ownerKind().name().toLowerCase(java.util.Locale.ROOT);
        throw new TopologyException(
            where
                + "no "
                + kind
                + " "
                + o.owner()
                + " in "
                + mapping.source()
                + " ("
                + kind
                + "s: "
                + String.join(", ", known)
                + ")");
      }
    }
  }

  /**
   * A topology over any {@link DNSToSwitchMapping} (for tests and embedders such as the Spark
   * plugin, which may already hold one).
   *
   * @param config the rates (its mapping keys are ignored)
   * @param mapping host name to {@code /cluster/rack}
   * @param source how messages name the mapping
   * @return the topology
   */
  public static Topology of(TopologyConfig config, DNSToSwitchMapping mapping, String source) {
    return new Topology(config, new HostMapping(mapping, source));
  }

  /**
   * @return the configuration the rates come from
   */
  public TopologyConfig config() {
    return config;
  }

  /**
   * @return the host mapping ({@code /cluster/rack} per host) the configuration names
   */
  public HostMapping mapping() {
    return mapping;
  }

  /**
   * @param host a host name
   * @return its network path {@code /cluster/rack}
   * @throws TopologyException if the mapping does not know the host
   */
  public String pathOf(String host) {
    resolveAll(List.of(host));
    return pathOf.get(host);
  }

  private void resolveAll(List<String> hosts) {
    List<String> missing = new ArrayList<>();
    for (String h : hosts) {
      if (!pathOf.containsKey(h) && !missing.contains(h)) {
        missing.add(h);
      }
    }
    if (!missing.isEmpty()) {
      List<String> paths = mapping.resolve(missing);
      for (int i = 0; i < missing.size(); i++) {
        pathOf.put(missing.get(i), paths.get(i));
      }
    }
  }

  private static String clusterOf(String path) {
    return path.substring(0, path.indexOf('/', 1));
  }

  /**
   * The links a transfer from {@code src} to {@code dst} uses, in route order, leaving out links
   * configured as {@code none}.
   *
   * @param src sending host
   * @param dst receiving host
   * @return the links with their rates
   * @throws TopologyException for an unknown host or a link without a configured rate
   */
  public List<Link> route(String src, String dst) {
    resolveAll(List.of(src, dst));
    List<Link> out = new ArrayList<>();
    for (LinkKind kind : kindsOnRoute(src, dst)) {
      String owner = owner(kind, src, dst);
      OptionalLong r = config.rate(kind, owner);
      if (r.isPresent()) {
        out.add(new Link(kind, owner, r.getAsLong()));
      }
    }
    return out;
  }

  private List<LinkKind> kindsOnRoute(String src, String dst) {
    String ps = pathOf.get(src);
    String pd = pathOf.get(dst);
    List<LinkKind> kinds = new ArrayList<>();
    kinds.add(LinkKind.NIC_UP);
    boolean otherRack = !ps.equals(pd);
    boolean otherCluster = !clusterOf(ps).equals(clusterOf(pd));
    if (otherRack) {
      kinds.add(LinkKind.RACK_UPLINK);
    }
    if (otherCluster) {
      kinds.add(LinkKind.BACKBONE_OUT);
      kinds.add(LinkKind.BACKBONE_IN);
    }
    if (otherRack) {
      kinds.add(LinkKind.RACK_DOWNLINK);
    }
    kinds.add(LinkKind.NIC_DOWN);
    return kinds;
  }

  private String owner(LinkKind kind, String src, String dst) {
    return switch (kind) {
      case NIC_UP -> src;
      case NIC_DOWN -> dst;
      case RACK_UPLINK -> pathOf.get(src);
      case RACK_DOWNLINK -> pathOf.get(dst);
      case BACKBONE_OUT -> clusterOf(pathOf.get(src));
      case BACKBONE_IN -> clusterOf(pathOf.get(dst));
    };
  }

  /**
   * The link network of a traffic matrix whose rows are the {@code senders} and whose columns are
   * the {@code receivers}, every pair counted as carrying traffic: {@link #network(List, List,
   * TrafficMatrix)} with no matrix.
   *
   * @param senders host of each row
   * @param receivers host of each column
   * @return the network
   * @throws TopologyException for an unknown host, a link without a rate, or if no link has a rate
   * @throws IllegalArgumentException if a link on a route carries more than {@value
   *     BaseSpeed#MAX_FLOWS} flows of the base speed
   */
  public LinkNetwork network(List<String> senders, List<String> receivers) {
    return network(senders, receivers, null);
  }

  /**
   * The link network of a traffic matrix whose rows are the {@code senders} and whose columns are
   * the {@code receivers}. Base speed b = gcd of the rates of the links on the routes of the pairs
   * with traffic (every pair when {@code traffic} is null or all zero), so a host that sends or
   * receives nothing does not change it; capacity of a link = rate / b flows (at least 1; a link on
   * no such route only bounds pairs without traffic). The KPBS view ({@link LinkNetwork#platform})
   * has k = the backbone's capacity (min of the summed outgoing sides of the sender clusters and
   * the summed incoming sides of the receiver clusters, over the backbone sides on the routes of
   * the pairs with traffic; without a backbone on any such route, the summed NIC capacities), at
   * most the number of transfers (pairs with traffic; every pair without traffic), and δ(v) =
   * min(k, NIC capacity of v).
   *
   * @param senders host of each row
   * @param receivers host of each column
   * @param traffic the matrix (bytes; only which entries are non-zero matters), or null
   * @return the network
   * @throws TopologyException for an unknown host, a link without a rate, or if no link has a rate
   * @throws IllegalArgumentException if the matrix's shape is not senders x receivers, or a link on
   *     a route with traffic carries more than {@value BaseSpeed#MAX_FLOWS} flows of the base speed
   *     (rates without a large common divisor, e.g. 1000000001 and 1000000000 B/s: round them)
   */
  public LinkNetwork network(List<String> senders, List<String> receivers, TrafficMatrix traffic) {
    if (traffic != null
        && (traffic.rows() != senders.size() || traffic.cols() != receivers.size())) {
      throw new IllegalArgumentException(
          "matrix is "
              + traffic.rows()
              + " x "
              + traffic.cols()
              + " but names "
              + senders.size()
              + " senders and "
              + receivers.size()
              + " receivers");
    }
    boolean anyTraffic = traffic != null && traffic.nonZeroCount() > 0;
    List<String> all = new ArrayList<>(senders);
    all.addAll(receivers);
    resolveAll(all);
    Map<String, Link> links = new LinkedHashMap<>();
    java.util.Set<String> used = new java.util.HashSet<>();
    List<List<Link>> routes = new ArrayList<>();
    java.util.stream.LongStream.Builder usedRates = java.util.stream.LongStream.builder();
    for (int i = 0; i < senders.size(); i++) {
      for (int j = 0; j < receivers.size(); j++) {
        List<Link> r = route(senders.get(i), receivers.get(j));
        routes.add(r);
        boolean carries = !anyTraffic || traffic.amount(i, j) > 0;
        for (Link l : r) {
          links.putIfAbsent(l.name(), l);
          if (carries && used.add(l.name())) {
            usedRates.add(l.rate());
          }
        }
      }
    }
    if (used.isEmpty()) {
      throw new TopologyException(config.file() + ": no link on any route has a rate (all 'none')");
    }
    long g = BaseSpeed.ofRates(usedRates.build().toArray());
    LinkNetwork.Builder b = new LinkNetwork.Builder(senders.size(), receivers.size());
    Map<String, Integer> id = new HashMap<>();
    long backboneOut = 0;
    long backboneIn = 0;
    for (Link l : links.values()) {
      long flows = l.rate() / g;
      if (flows > BaseSpeed.MAX_FLOWS && used.contains(l.name())) {
        throw new IllegalArgumentException(
            "link "
                + l.name()
                + " ("
                + l.rate()
                + " B/s) is "
                + flows
                + " times the base speed "
                + g
                + " B/s, the greatest common divisor of the rates on the"
                + " matrix's routes; more than "
                + BaseSpeed.MAX_FLOWS
                + " flows per link make the plan"
                + " meaningless: round the rates in "
                + config.file()
                + " (e.g. to whole Mbit/s)");
      }
      flows = Math.max(1, Math.min(flows, Integer.MAX_VALUE));
      id.put(l.name(), b.addLink(l.name(), (int) flows));
      if (!used.contains(l.name())) {
        continue; // a backbone side that no traffic crosses does not limit a step
      }
      if (l.kind() == LinkKind.BACKBONE_OUT) {
        backboneOut += flows;
      } else if (l.kind() == LinkKind.BACKBONE_IN) {
        backboneIn += flows;
      }
    }
    long nicUp = 0;
    long[] up = new long[senders.size()];
    long[] down = new long[receivers.size()];
    for (int i = 0; i < senders.size(); i++) {
      up[i] = nicFlows(LinkKind.NIC_UP, senders.get(i), g);
      nicUp = Math.min(Integer.MAX_VALUE, nicUp + up[i]);
    }
    long nicDown = 0;
    for (int j = 0; j < receivers.size(); j++) {
      down[j] = nicFlows(LinkKind.NIC_DOWN, receivers.get(j), g);
      nicDown = Math.min(Integer.MAX_VALUE, nicDown + down[j]);
    }
    long k = Math.min(nicUp, nicDown);
    if (backboneOut > 0 && backboneIn > 0) {
      k = Math.min(k, Math.min(backboneOut, backboneIn));
    } else if (backboneOut > 0 || backboneIn > 0) {
      k = Math.min(k, Math.max(backboneOut, backboneIn));
    }
    // no step holds more transfers than the matrix has (a topology whose only rates are racks'
    // bounds no step)
    long transfers = anyTraffic ? traffic.nonZeroCount() : (long) senders.size() * receivers.size();
    k = Math.max(1, Math.min(Math.min(k, transfers), Integer.MAX_VALUE));
    int[] ds = new int[up.length];
    int[] dr = new int[down.length];
    for (int i = 0; i < ds.length; i++) {
      ds[i] = (int) Math.max(1, Math.min(k, up[i]));
    }
    for (int j = 0; j < dr.length; j++) {
      dr[j] = (int) Math.max(1, Math.min(k, down[j]));
    }
    int p = 0;
    for (int i = 0; i < senders.size(); i++) {
      for (int j = 0; j < receivers.size(); j++) {
        List<Link> r = routes.get(p++);
        int s = 0;
        while (s < r.size() && r.get(s).kind().senderSide()) {
          s++;
        }
        int[] sl = new int[s];
        int[] rl = new int[r.size() - s];
        for (int x = 0; x < r.size(); x++) {
          int lid = id.get(r.get(x).name());
          if (x < s) {
            sl[x] = lid;
          } else {
            rl[x - s] = lid;
          }
        }
        b.route(i, j, sl, rl);
      }
    }
    return b.build((int) k, ds, dr, g);
  }

  /** NIC capacity in flows, Integer.MAX_VALUE when the NIC is 'none'. */
  private long nicFlows(LinkKind kind, String host, long g) {
    OptionalLong r = config.rate(kind, host);
    return r.isPresent() ? Math.min(Integer.MAX_VALUE, r.getAsLong() / g) : Integer.MAX_VALUE;
  }
}
