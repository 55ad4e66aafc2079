package io.wanshuffle.spark.arbiter;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntBiFunction;

/**
 * An application's residual demand as routes (one per host pair with bytes left to fetch, each the
 * links it crosses), from which the arbiter works out how many flows the application could hold on
 * each link given its shares of the other links: its <i>usable</i> flows. A host pair's flow holds
 * every link of its route at once (a NIC, rack links, both backbone sides), so a link's flows are
 * of no use to an application whose share of another link of all its routes through it is 0. The
 * split's second pass ({@link ShareView}) counts only usable flows, so that a link is not held for
 * an application that is blocked elsewhere (the flow-level view of max-min fairness: a session's
 * rate is bounded by every link of its path, Bertsekas and Gallager, <i>Data Networks</i>, 2nd ed.,
 * sec. 6.5.2).
 *
 * <p>Thread-safe: {@link #usable} may run on any thread. Time per call O(sum over links of the
 * routes through them x route length); the last answer is kept and given again for the same shares.
 */
public final class RouteDemand {
  private final String[] names;
  private final int[] windows;
  private final int[][] routes;

  /** Per link id, the routes through it, the largest bytes first. */
  private final int[][] through;

  /** Per link id, the application's flows holding it now. */
  private final int[] open;

  /** Per link id, the bytes of the routes through it. */
  private final long[] bytesOn;

  /** Per link id, the flows wanted: routes through it and open flows, at most its window. */
  private final int[] wanted;

  /** The last shares {@link #usable} was asked for and its answer (the shares seldom move). */
  private volatile Last last;

  private record Last(int[] shares, int[] usable) {}

  /**
   * @param linkNames per link id, its name (the topology's names, the same in every application)
   * @param windows per link id, the flows one application alone may hold on it (its own window),
   *     &gt;= 0; same length as {@code linkNames}
   * @param routes per host pair with demand, the link ids its flow crosses (each id once)
   * @param bytes per host pair, the bytes left to fetch (orders the pairs: the largest are tried
   *     first), same length as {@code routes}
   * @throws IllegalArgumentException if the lengths differ, a window is negative or a route names a
   *     link id out of range
   */
  public RouteDemand(String[] linkNames, int[] windows, int[][] routes, long[] bytes) {
    this(linkNames, windows, routes, bytes, new int[linkNames.length]);
  }

  /**
   * @param linkNames per link id, its name (the topology's names, the same in every application)
   * @param windows per link id, the flows one application alone may hold on it (its own window),
   *     &gt;= 0; same length as {@code linkNames}
   * @param routes per host pair with demand, the link ids its flow crosses (each id once)
   * @param bytes per host pair, the bytes left to fetch (orders the pairs: the largest are tried
   *     first), same length as {@code routes}
   * @param open per link id, the application's flows holding it now (granted, not handed on): they
   *     count as wanted and usable on their links and take room under the shares of the others,
   *     &gt;= 0; same length as {@code linkNames}
   * @throws IllegalArgumentException if the lengths differ, a window or open count is negative or a
   *     route names a link id out of range
   */
  public RouteDemand(String[] linkNames, int[] windows, int[][] routes, long[] bytes, int[] open) {
    Objects.requireNonNull(linkNames, "linkNames");
    if (windows.length != linkNames.length
        || open.length != linkNames.length
        || bytes.length != routes.length) {
      throw new IllegalArgumentException(
          "one window per link and one byte count per route: got "
              + linkNames.length
              + " links, "
              + windows.length
              + " windows, "
              + routes.length
              + " routes, "
              + bytes.length
              + " byte counts");
    }
    int n = linkNames.length;
    this.names = linkNames.clone();
    this.windows = windows.clone();
    this.routes = routes;
    Integer[] order = new Integer[routes.length];
    for (int e = 0; e < order.length; e++) {
      order[e] = e;
    }
    Arrays.sort(order, (a, b) -> Long.compare(bytes[b], bytes[a]));
    int[] count = new int[n];
    this.bytesOn = new long[n];
    for (int e = 0; e < routes.length; e++) {
      for (int l : routes[e]) {
        if (l < 0 || l >= n) {
          throw new IllegalArgumentException("route crosses link id " + l + " of " + n + " links");
        }
        count[l]++;
        bytesOn[l] += bytes[e];
      }
    }
    for (int l = 0; l < n; l++) {
      if (windows[l] < 0 || open[l] < 0) {
        throw new IllegalArgumentException(
            "windows and open flows must be >= 0, got " + windows[l] + " and " + open[l]);
      }
    }
    this.open = open.clone();
    this.through = new int[n][];
    this.wanted = new int[n];
    int[] fill = new int[n];
    for (int l = 0; l < n; l++) {
      through[l] = new int[count[l]];
      wanted[l] = Math.min(count[l] + open[l], windows[l]);
    }
    for (int e : order) {
      for (int l : routes[e]) {
        through[l][fill[l]++] = e;
      }
    }
  }

  /**
   * @return the number of link ids
   */
  public int linkCount() {
    return names.length;
  }

  /**
   * @param link a link id
   * @return its name
   */
  public String name(int link) {
    return names[link];
  }

  /**
   * @param link a link id
   * @return its window, flows
   */
  public int window(int link) {
    return windows[link];
  }

  /**
   * @param link a link id
   * @return the flows wanted on it: host pairs whose routes cross it and open flows, at most its
   *     window
   */
  public int wanted(int link) {
    return wanted[link];
  }

  /**
   * For each link, how many flows the application could hold on it at once when it may hold at most
   * {@code shares[m]} flows on every other link m: its open flows on the link, then greedily the
   * host pairs through the link largest bytes first, each taken when every other link of its route
   * has room besides the open flows there, up to the link's window. The pairs taken are a maximal
   * set (no further pair fits), not always a maximum one.
   *
   * @param shares per link id, the flows this application may hold on it (the split's first pass),
   *     &gt;= 0
   * @return per link id, the usable flows, 0..{@link #wanted}
   * @throws IllegalArgumentException if {@code shares} is not one per link
   */
  public int[] usable(int[] shares) {
    int n = names.length;
    if (shares.length != n) {
      throw new IllegalArgumentException("one share per link: " + shares.length + " for " + n);
    }
    Last last = this.last;
    if (last != null && Arrays.equals(last.shares, shares)) {
      return last.usable.clone();
    }
    int[] usable = new int[n];
    int[] held = new int[n];
    int[] stamp = new int[n];
    for (int l = 0; l < n; l++) {
      if (wanted[l] == 0) {
        continue;
      }
      int round = l + 1;
      int taken = Math.min(open[l], wanted[l]);
      for (int i = 0; i < through[l].length && taken < wanted[l]; i++) {
        int[] route = routes[through[l][i]];
        if (fits(route, l, shares, held, stamp, round, open)) {
          for (int m : route) {
            if (stamp[m] != round) {
              stamp[m] = round;
              held[m] = open[m];
            }
            held[m]++;
          }
          taken++;
        }
      }
      usable[l] = taken;
    }
    this.last = new Last(shares.clone(), usable.clone());
    return usable;
  }

  /**
   * The demand these routes make on each link, as published ({@link BackboneShare#publish(Map,
   * RouteDemand)}): the bytes of the routes through it and the flows wanted there ({@link #wanted},
   * its open flows among them), every flow usable until {@link #markUsable} works them out.
   *
   * @return per link name, the demand of every link some route crosses or some open flow holds
   *     (empty when none)
   */
  public Map<String, LinkDemand> demand() {
    Map<String, LinkDemand> demand = new HashMap<>();
    for (int l = 0; l < names.length; l++) {
      if (through[l].length > 0 || open[l] > 0) {
        int flows = wanted[l];
        demand.put(names[l], new LinkDemand(bytesOn[l], flows, 0, flows, Math.min(open[l], flows)));
      }
    }
    return demand;
  }

  /**
   * @param demand per link name, the demand published from these routes
   * @param firstPass per link name and window, this application's first-pass share of the link
   * @return {@code demand} with each link's usable flows ({@link #usable} on the first-pass shares;
   *     a link these routes do not cross: all its flows usable)
   */
  Map<String, LinkDemand> markUsable(
      Map<String, LinkDemand> demand, ToIntBiFunction<String, Integer> firstPass) {
    int n = names.length;
    int[] shares = new int[n];
    for (int l = 0; l < n; l++) {
      shares[l] = wanted[l] == 0 ? windows[l] : firstPass.applyAsInt(names[l], windows[l]);
    }
    int[] u = usable(shares);
    Map<String, Integer> id = new HashMap<>();
    for (int l = 0; l < n; l++) {
      if (wanted[l] > 0) {
        id.put(names[l], l);
      }
    }
    Map<String, LinkDemand> marked = new HashMap<>(demand);
    marked.replaceAll(
        (link, d) -> {
          Integer l = id.get(link);
          return d.usable(l == null ? d.flowsWanted() : Math.min(d.flowsWanted(), u[l]));
        });
    return Map.copyOf(marked);
  }

  /** Whether every link of the route but {@code self} has room under its share. */
  private static boolean fits(
      int[] route, int self, int[] shares, int[] held, int[] stamp, int round, int[] open) {
    for (int m : route) {
      if (m != self && (stamp[m] == round ? held[m] : open[m]) >= shares[m]) {
        return false;
      }
    }
    return true;
  }
}
