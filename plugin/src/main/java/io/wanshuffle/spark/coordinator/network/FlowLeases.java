package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The throttle: the open cross-cluster flows (one per granted host pair per step), counted on every
 * link of their routes ({@link LinkModel}), so that no link ever carries more flows than its
 * capacity: each NIC at most δ(h) flows each way (the δ-port model, DGGP paper sec. 2), each side
 * of the backbone at most its capacity (k per direction between two clusters, GGP/OGGP paper sec.
 * 2), each rack uplink and downlink at most its capacity (topology-aware, liquid-schedules paper
 * sec. 3).
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class FlowLeases {
  private final LiveParameters parameters;
  private final LongSupplier clockMs;
  private final LinkOccupancy occupancy = new LinkOccupancy();
  private final HostIndex hosts = new HostIndex();
  private final Function<String, String> clusterOf;
  private final Map<String, Integer> sending = new HashMap<>();
  private final Map<String, Integer> receiving = new HashMap<>();
  private final Map<HostPair, Integer> byPair = new HashMap<>();

  /** Flows holding each link, by link id. */
  private int[] used = new int[16];

  private int total;

  /**
   * @param parameters the planning parameters in force: the links of every route and their windows
   *     in flows ({@link PlanningParameters#facts}); when the link model is replaced no flow is
   *     open (every count is 0), so the counts carry over to the new links' ids
   * @param clusterOf the cluster of a host; never returns null
   * @param clockMs the clock the links' occupancy is timed with, epoch ms
   */
  public FlowLeases(
      LiveParameters parameters, Function<String, String> clusterOf, LongSupplier clockMs) {
    this.parameters = Objects.requireNonNull(parameters, "parameters");
    this.clusterOf = Objects.requireNonNull(clusterOf, "clusterOf");
    this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
  }

  /**
   * Leases on fixed links (no measurement replaces them), for tests and tools, timed with the
   * system clock.
   *
   * @param links the links of every route and their capacities in flows
   * @param clusterOf the cluster of a host; never returns null
   */
  public FlowLeases(LinkModel links, Function<String, String> clusterOf) {
    this(
        new LiveParameters(PlanningParameters.of(links, 0, "fixed")),
        clusterOf,
        System::currentTimeMillis);
  }

  /**
   * @param fromMs start of an interval, epoch ms
   * @param toMs its end, epoch ms
   * @return the most any shared link (not a NIC) was held over the interval, as the mean number of
   *     flows open on it over its window in force; 0 when no shared link was used
   */
  public double busiestSharedLink(long fromMs, long toMs) {
    LinkFacts facts = facts();
    double most = 0;
    for (int l = 0; l < used.length; l++) {
      double held = occupancy.meanHeld(l, fromMs, toMs);
      if (held > 0 && !facts.isNic(l)) {
        most = Math.max(most, held / facts.window(l));
      }
    }
    return most;
  }

  /**
   * @param link a link id
   * @param fromMs start of an interval, epoch ms
   * @param toMs its end, epoch ms
   * @return the mean number of flows open on the link over the interval ({@link LinkOccupancy})
   */
  public double meanHeld(int link, long fromMs, long toMs) {
    return occupancy.meanHeld(link, fromMs, toMs);
  }

  /**
   * @return the link model the leases count on: the one in force
   */
  public LinkModel links() {
    return parameters.current().links();
  }

  /**
   * @return the links' capacities and kinds by id, for the hot paths (thread-safe)
   */
  public LinkFacts facts() {
    return parameters.current().facts();
  }

  /**
   * @return the ids of the hosts seen, for reading the residual (under the coordinator's lock)
   */
  public HostIndex hosts() {
    return hosts;
  }

  /**
   * @return k of the KPBS view: most flows a barrier step holds across the backbone
   */
  public int k() {
    return links().k();
  }

  /**
   * @param h a host
   * @return δ(h) as a sender: most flows it sends at once
   */
  public int sendPorts(String h) {
    return links().sendPorts(h);
  }

  /**
   * @param h a host
   * @return δ(h) as a receiver: most flows it receives at once
   */
  public int receivePorts(String h) {
    return links().receivePorts(h);
  }

  /**
   * @return whether two hosts are in the same cluster
   */
  public boolean sameCluster(String a, String b) {
    return clusterOf.apply(a).equals(clusterOf.apply(b));
  }

  /**
   * @return flows open now
   */
  public int total() {
    return total;
  }

  /**
   * @return flows host {@code h} sends now
   */
  public int sending(String h) {
    return sending.getOrDefault(h, 0);
  }

  /**
   * @return flows host {@code h} receives now
   */
  public int receiving(String h) {
    return receiving.getOrDefault(h, 0);
  }

  /**
   * @return flows host {@code h} may still send: δ(h) minus the flows it sends
   */
  public int freeSend(String h) {
    return sendPorts(h) - sending(h);
  }

  /**
   * @return flows host {@code h} may still receive: δ(h) minus the flows it receives
   */
  public int freeReceive(String h) {
    return receivePorts(h) - receiving(h);
  }

  /**
   * @param link a link id
   * @return flows holding the link now
   */
  public int used(int link) {
    return link < used.length ? used[link] : 0;
  }

  /**
   * @return true when a flow src → dst fits now: every link of its route has a free lease, and both
   *     hosts are within δ
   */
  public boolean fits(String src, String dst) {
    return fits(src, dst, links().route(src, dst));
  }

  /**
   * @param src a sending host
   * @param dst a receiving host
   * @param route the link ids of the route src → dst ({@link LinkModel#route})
   * @return true when a flow src → dst fits now, as {@link #fits(String, String)}
   */
  public boolean fits(String src, String dst, int[] route) {
    LinkFacts facts = facts();
    for (int l : route) {
      if (used(l) >= facts.window(l)) {
        return false;
      }
    }
    return freeSend(src) > 0 && freeReceive(dst) > 0;
  }

  /**
   * @param links link ids
   * @return true when every one of them has a free lease
   */
  public boolean allFree(int[] links) {
    LinkFacts facts = facts();
    for (int l : links) {
      if (used(l) >= facts.window(l)) {
        return false;
      }
    }
    return true;
  }

  /**
   * @return the free leases of the busiest shared link of the route src → dst (any link but the two
   *     hosts' NICs): how many more flows of other host pairs could still cross it; {@link
   *     Integer#MAX_VALUE} for a route of NICs only
   */
  public int headroom(String src, String dst) {
    return headroom(links().route(src, dst));
  }

  /**
   * @param route the link ids of a route ({@link LinkModel#route})
   * @return the free leases of its busiest shared link, as {@link #headroom(String, String)}
   */
  public int headroom(int[] route) {
    LinkFacts facts = facts();
    int free = Integer.MAX_VALUE;
    for (int l : route) {
      if (!facts.isNic(l)) {
        free = Math.min(free, facts.window(l) - used(l));
      }
    }
    return free;
  }

  /** Opens one flow src → dst on every link of its route. */
  public void open(String src, String dst) {
    open(src, dst, links().route(src, dst));
  }

  /**
   * Opens one flow src → dst on every link of its route.
   *
   * @param route its link ids ({@link LinkModel#route} of src, dst)
   */
  public void open(String src, String dst, int[] route) {
    long now = clockMs.getAsLong();
    for (int l : route) {
      if (l >= used.length) {
        used = Arrays.copyOf(used, Math.max(l + 1, 2 * used.length));
      }
      used[l]++;
      occupancy.changed(l, used[l], now);
    }
    sending.merge(src, 1, Integer::sum);
    receiving.merge(dst, 1, Integer::sum);
    byPair.merge(new HostPair(src, dst), 1, Integer::sum);
    total++;
  }

  /**
   * Closes one flow src → dst.
   *
   * @throws IllegalStateException if no such flow is open (a bookkeeping bug)
   */
  public void close(String src, String dst) {
    HostPair pair = new HostPair(src, dst);
    if (!byPair.containsKey(pair)) {
      throw new IllegalStateException("no open flow " + src + " -> " + dst);
    }
    long now = clockMs.getAsLong();
    for (int l : links().route(src, dst)) {
      used[l]--;
      occupancy.changed(l, used[l], now);
    }
    decrement(byPair, pair);
    decrement(sending, src);
    decrement(receiving, dst);
    total--;
  }

  private static <K> void decrement(Map<K, Integer> m, K h) {
    int v = m.get(h) - 1;
    if (v == 0) {
      m.remove(h);
    } else {
      m.put(h, v);
    }
  }
}
