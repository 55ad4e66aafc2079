package io.wanshuffle.spark.arbiter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one driver knows of the other applications at one moment, and the shares that follow: an
 * immutable snapshot that the arbiter's threads replace as a whole when a node or the connection
 * changes, read without a lock by {@link BackboneShare#allowed}. Shares are computed on first use
 * for a (link, window, own claim) and kept for the snapshot's life.
 *
 * <p>Live (connected to ZooKeeper, the other nodes read), the split has two passes, each a {@link
 * FairSplit} of the link's window:
 *
 * <ol>
 *   <li>{@link #wantedShare}: over every application's claim of the flows it wants on the link;
 *   <li>{@link #share}: over the claims of usable flows ({@link LinkDemand#flowsUsable}: what each
 *       application could hold on the link given its first-pass shares of the other links of its
 *       routes, {@link RouteDemand#usable}). An application with no usable flow on the link gets 0
 *       while another one has some; when none has, each keeps its first-pass share.
 * </ol>
 *
 * Every driver computes both passes on the same published demands, so the shares of each pass sum
 * to the window. The second pass hands a link held in the first for an application that is blocked
 * on another link (e.g. one whose NICs and rack links another application holds whole) to the
 * applications that can use it. Not live: the safe share max(1, window / n), n = the applications
 * with demand on the link in the last nodes read, this one included (1 before any was read), at
 * most the window.
 */
final class ShareView {
  /** Most shares kept per snapshot before the cache starts over (windows may vary at will). */
  private static final int MAX_KEPT = 4096;

  /** Not connected, nothing read. */
  static final ShareView NONE = new ShareView(false, Map.of());

  private final boolean live;
  private final Map<String, PublishedDemand> others;
  private final ConcurrentHashMap<String, List<FairSplit.Claim>> claims = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, List<FairSplit.Claim>> usableClaims =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Key, Integer> shares = new ConcurrentHashMap<>();

  private record Key(
      boolean usable,
      String self,
      double weight,
      String link,
      int window,
      int ownFlows,
      long ownOrder,
      int ownHeld) {}

  /**
   * @param live whether the split applies (connected and the nodes read)
   * @param others the other applications' published demands by their names in the arbiter
   */
  ShareView(boolean live, Map<String, PublishedDemand> others) {
    this.live = live;
    this.others = Map.copyOf(others);
  }

  /**
   * @return whether the split applies (else the safe share)
   */
  boolean live() {
    return live;
  }

  /**
   * @return the other applications' published demands by name
   */
  Map<String, PublishedDemand> others() {
    return others;
  }

  /**
   * @param live whether the split applies
   * @return a snapshot with the same nodes
   */
  ShareView withLive(boolean live) {
    return live == this.live ? this : new ShareView(live, others);
  }

  /**
   * This application's share of a link's window counting every application's flows wanted (the
   * split's first pass): what its usable flows are worked out from.
   *
   * @param self this application's name in the arbiter
   * @param weight this application's weight
   * @param order this application's place in the order of demand starts ({@link
   *     PublishedDemand#order()}; 0: not known yet, after every other)
   * @param link a link's name
   * @param window the link's window, flows, &gt;= 0
   * @param own this application's demand on the link, or null (it then claims 1 flow, last in the
   *     order: it asks, so it wants one)
   * @return this application's first-pass share of the window, 0..window
   */
  int wantedShare(String self, double weight, long order, String link, int window, LinkDemand own) {
    int plain = withoutSplit(link, window);
    if (plain >= 0) {
      return plain;
    }
    return split(
        false,
        self,
        weight,
        order,
        link,
        window,
        claimsOn(link),
        own == null ? 1 : own.claim(),
        own);
  }

  /**
   * This application's share of a link's window (the split's second pass, over usable flows).
   *
   * @param self this application's name in the arbiter
   * @param weight this application's weight
   * @param order this application's place in the order of demand starts (0: not known yet)
   * @param link a link's name
   * @param window the link's window, flows, &gt;= 0
   * @param own this application's demand on the link, or null (it then claims 1 flow, last in the
   *     order: it asks, so it wants one)
   * @return this application's share of the window, 0..window
   */
  int share(String self, double weight, long order, String link, int window, LinkDemand own) {
    int plain = withoutSplit(link, window);
    if (plain >= 0) {
      return plain;
    }
    List<FairSplit.Claim> usable = usableClaimsOn(link);
    int ownFlows = own == null ? 1 : own.usableClaim();
    if (ownFlows == 0) {
      // nothing usable here: the link goes to those who can use it, if anyone can
      return usable.isEmpty() ? wantedShare(self, weight, order, link, window, own) : 0;
    }
    return usable.isEmpty()
        ? window
        : split(true, self, weight, order, link, window, usable, ownFlows, own);
  }

  /**
   * @return the share when no split is made: 0 for an empty window, the whole window with nobody
   *     else on the link, the safe share when not live; -1 when the split applies
   */
  private int withoutSplit(String link, int window) {
    if (window <= 0) {
      return 0;
    }
    int others = claimsOn(link).size();
    if (others == 0) {
      return window;
    }
    return live ? -1 : Math.min(window, Math.max(1, window / (others + 1)));
  }

  /** A {@link FairSplit} of the others' claims and this application's, kept for the snapshot. */
  private int split(
      boolean usable,
      String self,
      double weight,
      long order,
      String link,
      int window,
      List<FairSplit.Claim> on,
      int ownFlows,
      LinkDemand own) {
    long ownOrder = own == null || order <= 0 ? Long.MAX_VALUE : order;
    int ownHeld = own == null ? 0 : own.flowsOpen();
    Key key = new Key(usable, self, weight, link, window, ownFlows, ownOrder, ownHeld);
    Integer kept = shares.get(key);
    if (kept != null) {
      return kept;
    }
    List<FairSplit.Claim> all = new ArrayList<>(on);
    all.add(new FairSplit.Claim(self, weight, ownFlows, ownOrder, ownHeld));
    int s = FairSplit.split(window, all)[all.size() - 1];
    if (shares.size() >= MAX_KEPT) {
      shares.clear();
    }
    shares.put(key, s);
    return s;
  }

  /**
   * @param link a link's name
   * @return the other applications' claims on it (those with demand there)
   */
  List<FairSplit.Claim> claimsOn(String link) {
    List<FairSplit.Claim> on = claims.get(link);
    if (on == null) {
      List<FairSplit.Claim> c = new ArrayList<>();
      others.forEach(
          (app, d) -> {
            LinkDemand l = d.links().get(link);
            if (l != null) {
              c.add(new FairSplit.Claim(app, d.weight(), l.claim(), d.order(), l.flowsOpen()));
            }
          });
      on = List.copyOf(c);
      if (claims.size() < MAX_KEPT) {
        claims.put(link, on);
      }
    }
    return on;
  }

  /**
   * @param link a link's name
   * @return the other applications' claims of usable flows on it (those with some)
   */
  private List<FairSplit.Claim> usableClaimsOn(String link) {
    List<FairSplit.Claim> on = usableClaims.get(link);
    if (on == null) {
      List<FairSplit.Claim> c = new ArrayList<>();
      others.forEach(
          (app, d) -> {
            LinkDemand l = d.links().get(link);
            if (l != null && l.usableClaim() > 0) {
              c.add(
                  new FairSplit.Claim(app, d.weight(), l.usableClaim(), d.order(), l.flowsOpen()));
            }
          });
      on = List.copyOf(c);
      if (usableClaims.size() < MAX_KEPT) {
        usableClaims.put(link, on);
      }
    }
    return on;
  }
}
