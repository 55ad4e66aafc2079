package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the coordinator's hot paths ask about a link, by link id, in plain arrays: its capacity in
 * flows, its window (the flows it is admitted now: the capacity unless the link's window moved,
 * {@link WindowRule}) and its kind (NIC up, NIC down, backbone out, backbone in, other shared
 * link). A {@link LinkModel} answers these under its own lock with string tests on the link's name;
 * the step assembler asks them for every transfer it walks and the residual for every pair it
 * reads, so they are copied once per link here. Link ids and capacities never change once given
 * ({@link LinkModel}), so a copy never goes stale; links given an id later are copied when first
 * asked for. Windows are part of the facts: a window that moves gives new facts ({@link
 * #withWindow}).
 *
 * <p>Thread-safe: the table is replaced whole (copy on growth) and read without a lock; the windows
 * never change.
 */
public final class LinkFacts {
  /** A shared link that is neither a NIC nor a backbone side (a rack uplink or downlink). */
  static final byte OTHER = 0;

  /** {@code nic.up[h]}: the sender's NIC. */
  public static final byte NIC_UP = 1;

  /** {@code nic.down[h]}: the receiver's NIC. */
  public static final byte NIC_DOWN = 2;

  /** {@code backbone.out[c]}: a cluster's outgoing side of the backbone. */
  public static final byte BACKBONE_OUT = 3;

  /** {@code backbone.in[c]}: a cluster's incoming side of the backbone. */
  public static final byte BACKBONE_IN = 4;

  /**
   * The facts of links 0 to n - 1.
   *
   * @param capacity flows each link carries at once
   * @param kind each link's kind
   */
  private record Table(int[] capacity, byte[] kind) {}

  private final LinkModel links;
  private volatile Table table = new Table(new int[0], new byte[0]);

  /** Per link id, its window when it differs from its capacity (at least 1), else 0. */
  private final int[] windows;

  /**
   * Per link id, this application's share of the link's window when several applications share it
   * ({@code io.wanshuffle.spark.arbiter}), else -1 (no share: the whole window).
   */
  private final int[] shares;

  /**
   * @param links the link model whose facts are copied; every window is its link's capacity
   */
  LinkFacts(LinkModel links) {
    this(links, new int[0], new int[0]);
  }

  private LinkFacts(LinkModel links, int[] windows, int[] shares) {
    this.links = Objects.requireNonNull(links, "links");
    this.windows = windows;
    this.shares = shares;
  }

  /**
   * @param caps per link id, this application's share of its window in flows, or -1 for none (the
   *     whole window); links beyond the array have none
   * @return these facts with those shares
   */
  public LinkFacts withShares(int[] caps) {
    return new LinkFacts(links, windows, caps.clone());
  }

  /**
   * @param link a link id
   * @return this application's share of the link's window, flows, or -1 when it has the whole
   *     window
   */
  public int share(int link) {
    return link < shares.length ? shares[link] : -1;
  }

  /**
   * @param link a link id
   * @param window the flows the link is admitted now, at least 1 (its capacity: no window of its
   *     own)
   * @return these facts with that window
   * @throws IllegalArgumentException if {@code window} is below 1
   */
  public LinkFacts withWindow(int link, int window) {
    if (window < 1) {
      throw new IllegalArgumentException("a window is at least 1 flow, got " + window);
    }
    int[] w = Arrays.copyOf(windows, Math.max(windows.length, link + 1));
    w[link] = window == capacity(link) ? 0 : window;
    return new LinkFacts(links, w, shares);
  }

  /**
   * @param link a link id from {@link LinkModel#route}
   * @return the flows the link is admitted now: its own window, or this application's share of it
   *     when that is smaller (0 when the other applications hold the link)
   */
  public int window(int link) {
    int own = ownWindow(link);
    int share = share(link);
    return share >= 0 && share < own ? share : own;
  }

  /**
   * @param link a link id from {@link LinkModel#route}
   * @return the link's own window, at least 1: its capacity unless the window moved ({@link
   *     WindowRule}), whatever other applications hold
   */
  public int ownWindow(int link) {
    return link < windows.length && windows[link] > 0 ? windows[link] : capacity(link);
  }

  /**
   * @param now the facts in force now
   * @return true when a plan made on these facts may put more flows on some link than {@code now}
   *     admits: a link's window or share moved down since, or the link model was replaced
   */
  public boolean admitsMoreThan(LinkFacts now) {
    if (links != now.links) {
      return true;
    }
    int count = links.linkCount();
    for (int l = 0; l < count; l++) {
      if (window(l) > now.window(l)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param model a link model
   * @return true when these are the facts of {@code model}
   */
  boolean of(LinkModel model) {
    return links == model;
  }

  /**
   * @param link a link id from {@link LinkModel#route}
   * @return the flows it carries at once, at least 1
   */
  public int capacity(int link) {
    return tableFor(link).capacity[link];
  }

  /**
   * @param link a link id from {@link LinkModel#route}
   * @return its kind: {@link #NIC_UP}, {@link #NIC_DOWN}, {@link #BACKBONE_OUT}, {@link
   *     #BACKBONE_IN} or {@link #OTHER}
   */
  public byte kind(int link) {
    return tableFor(link).kind[link];
  }

  /**
   * @param link a link id
   * @return true for a NIC link
   */
  public boolean isNic(int link) {
    byte k = kind(link);
    return k == NIC_UP || k == NIC_DOWN;
  }

  private Table tableFor(int link) {
    Table t = table;
    return link < t.capacity.length ? t : grow(link);
  }

  private synchronized Table grow(int link) {
    Table t = table;
    if (link < t.capacity.length) {
      return t;
    }
    int n = Math.max(link + 1, links.linkCount());
    int[] cap = Arrays.copyOf(t.capacity, n);
    byte[] kind = Arrays.copyOf(t.kind, n);
    for (int l = t.capacity.length; l < n; l++) {
      cap[l] = links.capacity(l);
      kind[l] = kindOf(l);
    }
    Table grown = new Table(cap, kind);
    table = grown;
    return grown;
  }

  private byte kindOf(int l) {
    if (links.isNic(l)) {
      return links.isSenderSide(l) ? NIC_UP : NIC_DOWN;
    }
    if (links.isBackboneOut(l)) {
      return BACKBONE_OUT;
    }
    return links.isBackboneIn(l) ? BACKBONE_IN : OTHER;
  }
}
