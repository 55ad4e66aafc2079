package io.wanshuffle.spark.arbiter;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * This application's claim in the split, as its driver publishes it: its demand per link with the
 * usable flows worked out, the start of that demand, its place in the order of demand starts, and
 * which links' claims are confirmed.
 *
 * <p>A claim on a link is confirmed once a write of the node that holds it was acknowledged and
 * every sibling node was read after that acknowledgement: ZooKeeper orders all writes, and a read
 * after one's own acknowledged write sees every write before it, so the split on a confirmed link
 * counts every application that claimed the link before this one. Of two applications that start
 * wanting a link of one flow at the same moment, the second writer sees the first's claim, and both
 * place the first writer first ({@link PublishedDemand#order()}: the zxid of the write that
 * published the start); until its claim on a link is confirmed, this application is given nothing
 * there ({@link ZooKeeperShare#allowed}).
 *
 * <p>Thread-safe: the planner thread sets the demand, the arbiter's threads refresh the usable
 * flows and confirm; the getters read volatile fields without a lock.
 */
final class OwnClaim {
  private final String self;
  private final double weight;

  /** Per link with demand, the demand with its usable flows; replaced under this object's lock. */
  private volatile Map<String, LinkDemand> demand = Map.of();

  /** The routes {@link #demand} comes from, or null (every flow usable). */
  private RouteDemand routes;

  /** Since when the application has wanted some link without a break, epoch ms; 0: none. */
  private long sinceMs;

  /** The order of the current demand's start ({@link PublishedDemand#order()}); 0: not known. */
  private volatile long order;

  /** The links whose claim is confirmed. */
  private volatile Set<String> confirmed = Set.of();

  /** The links and the start of the write awaiting its confirmation; null: none. */
  private Set<String> pendingLinks;

  private long pendingSinceMs;

  /**
   * @param self the application's name in the arbiter
   * @param weight its weight, &gt; 0
   */
  OwnClaim(String self, double weight) {
    this.self = self;
    this.weight = weight;
  }

  /**
   * Replaces the demand. Every link carries the start of the application's demand, not of its
   * demand on that link: one order of the applications on every link of fewer flows than
   * applications, so that two applications never each hold one of two links both need.
   *
   * @param links per link, the demand (links with {@link LinkDemand#any()} false are dropped)
   * @param routesOfDemand the routes it comes from, or null
   * @param view the snapshot the usable flows are worked out on
   * @return whether it claims a link whose claim is not confirmed (the node should be written now)
   */
  synchronized boolean set(
      Map<String, LinkDemand> links, RouteDemand routesOfDemand, ShareView view) {
    Map<String, LinkDemand> kept = new HashMap<>();
    links.forEach(
        (l, d) -> {
          if (d.any()) {
            kept.put(l, d);
          }
        });
    if (kept.isEmpty()) {
      sinceMs = 0;
      order = 0;
    } else if (sinceMs == 0) {
      sinceMs = System.currentTimeMillis();
    }
    long since = sinceMs;
    kept.replaceAll((l, d) -> d.since(since));
    routes = routesOfDemand;
    demand = usable(kept, view);
    return claimsUnconfirmed();
  }

  /**
   * Works the usable flows out again on a new snapshot.
   *
   * @param view the snapshot just installed
   * @return whether they changed (the node should be written)
   */
  synchronized boolean refresh(ShareView view) {
    Map<String, LinkDemand> now = usable(demand, view);
    boolean changed = !now.equals(demand);
    demand = now;
    return changed;
  }

  private Map<String, LinkDemand> usable(Map<String, LinkDemand> d, ShareView v) {
    if (routes == null || !v.live()) {
      Map<String, LinkDemand> all = new HashMap<>(d);
      all.replaceAll((l, x) -> x.usable(x.flowsWanted()));
      return Map.copyOf(all);
    }
    long o = order;
    return routes.markUsable(
        d, (link, window) -> v.wantedShare(self, weight, o, link, window, d.get(link)));
  }

  /**
   * The node to write now; when it claims a link not confirmed yet, or its order is not known, the
   * write awaits its confirmation ({@link #awaiting}).
   *
   * @return what to write
   */
  synchronized PublishedDemand toWrite() {
    PublishedDemand d = new PublishedDemand(weight, order, demand);
    Set<String> links = d.links().keySet();
    if (!links.isEmpty() && (order == 0 || !confirmed.containsAll(links))) {
      pendingLinks = Set.copyOf(links);
      pendingSinceMs = sinceMs;
    } else {
      pendingLinks = null;
      confirmed = Set.copyOf(links);
    }
    return d;
  }

  /**
   * @return whether the last node given by {@link #toWrite} awaits its confirmation
   */
  synchronized boolean awaiting() {
    return pendingLinks != null;
  }

  /** Drops the confirmation awaited (the write failed or is made again). */
  synchronized void abandon() {
    pendingLinks = null;
  }

  /**
   * Confirms the claim awaited: every sibling node was read after its write was acknowledged.
   *
   * @param ownMzxid the zxid of this application's node as read then (the write awaited: no other
   *     write of it is made meanwhile)
   * @return whether the claim is confirmed (false when the demand started again since the write:
   *     the next write is confirmed instead)
   */
  synchronized boolean confirm(long ownMzxid) {
    if (pendingLinks == null) {
      return false;
    }
    if (order == 0 && pendingSinceMs != 0 && pendingSinceMs == sinceMs) {
      order = ownMzxid;
    }
    boolean done = order != 0;
    if (done) {
      confirmed = pendingLinks;
    }
    pendingLinks = null;
    return done;
  }

  /**
   * @return whether the demand claims a link whose claim is not confirmed
   */
  boolean claimsUnconfirmed() {
    Map<String, LinkDemand> d = demand;
    return !d.isEmpty() && (order == 0 || !confirmed.containsAll(d.keySet()));
  }

  /**
   * @return per link with demand, this application's demand
   */
  Map<String, LinkDemand> demand() {
    return demand;
  }

  /**
   * @param link a link's name
   * @return whether this application's claim on it is confirmed
   */
  boolean confirmedOn(String link) {
    return confirmed.contains(link);
  }

  /**
   * @return the order of the current demand's start; 0 while not known
   */
  long order() {
    return order;
  }
}
