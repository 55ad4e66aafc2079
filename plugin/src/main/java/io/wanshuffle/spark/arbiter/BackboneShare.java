package io.wanshuffle.spark.arbiter;

import java.util.Map;

/**
 * This application's share of every link's window when several applications use the same backbone:
 * how many flows the driver's coordinator may hold on a link now. The coordinator publishes its
 * per-link demand when it changes and asks {@link #allowed} before it admits a flow on a link.
 *
 * <p>Implementations: {@link Alone} (no arbiter configured: the whole window) and {@link
 * ZooKeeperShare} (the windows split between the drivers of the applications that share a topology,
 * through ZooKeeper). Build one with {@link BackboneShares#open}.
 *
 * <p>Thread-safe. {@link #publish} and {@link #allowed} never wait for I/O or for another thread's
 * lock: the coordinator may call them under its own lock.
 */
public interface BackboneShare extends AutoCloseable {
  /**
   * Makes this application's demand known to the others; writes are coalesced (at most one per
   * publish interval) and happen on the arbiter's threads.
   *
   * @param demand per link name (the topology's link names, the same in every application), this
   *     application's demand on it; links left out (or with {@link LinkDemand#any()} false) have no
   *     demand. The map is copied.
   */
  void publish(Map<String, LinkDemand> demand);

  /**
   * Makes this application's demand known with the routes it comes from, so that the split counts
   * on each link only the flows the application could hold given its shares of the other links
   * ({@link RouteDemand#usable}, the split's second pass in {@link ShareView}); the arbiter works
   * the usable flows out again whenever the other applications' demands move. Without an arbiter
   * that splits in two passes, the same as {@link #publish(Map)}.
   *
   * @param demand per link name, this application's demand on it (as {@link #publish(Map)})
   * @param routes the routes the demand comes from, their link ids named as in {@code demand}
   */
  default void publish(Map<String, LinkDemand> demand, RouteDemand routes) {
    publish(demand);
  }

  /**
   * How many flows this application may hold on a link now.
   *
   * @param link the link's name
   * @param window the link's window, flows (what one application alone may hold), >= 0
   * @return this application's share of the window, 0..{@code window}: the whole window when no
   *     other application has demand on the link
   * @throws IllegalArgumentException if {@code window} is negative
   */
  int allowed(String link, int window);

  /**
   * How many other applications want flows on a link, as this application last read them: what
   * {@link #allowed} split the window with. Reads the same snapshot, never waits.
   *
   * @param link the link's name
   * @return the other applications with demand on the link, &gt;= 0; -1 when this share cannot say
   */
  default int othersOn(String link) {
    return -1;
  }

  /**
   * Registers the one callback told when this application's shares may have grown or shrunk
   * (another application's demand changed on a link this one wants, or the connection to the
   * arbiter was lost or found again), so that a coordinator waiting on a full share re-plans.
   * Called on an arbiter thread, as often as the other applications publish (at most once per
   * publish interval each); it should only post work, not do it.
   *
   * @param listener the callback, replacing any earlier one
   */
  void onChange(Runnable listener);

  /** Leaves the split (the others take this application's share at once) and stops its threads. */
  @Override
  void close();
}
