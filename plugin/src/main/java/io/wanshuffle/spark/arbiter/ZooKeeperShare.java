package io.wanshuffle.spark.arbiter;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.PathChildrenCache;
import org.apache.curator.framework.recipes.cache.PathChildrenCacheEvent;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each link's window split between the drivers of the applications that share a namespace, through
 * ZooKeeper: Apache Curator as the client (5.9, bundled relocated in the plugin jar) on the
 * ZooKeeper client Spark ships (3.6.3 with Spark 3.5, 3.9 with 4.x); servers from ZooKeeper 3.5 on.
 *
 * <p>Each driver holds one EPHEMERAL node {@code <namespace>/<application>} with its weight and its
 * demand on every link it wants ({@link PublishedDemand}), and watches its siblings through a
 * Curator {@link PathChildrenCache} (ZooKeeper watches, no polling; Curator's newer {@code
 * CuratorCache} needs the persistent watches of ZooKeeper 3.6 servers, which sites' YARN and HBase
 * ensembles may predate). From the nodes it read and its own latest demand, every driver computes
 * the same {@link FairSplit} of each link's window: {@link #allowed} reads the last {@link
 * ShareView}, a volatile snapshot, and never waits. All ZooKeeper I/O runs on Curator's threads and
 * the arbiter's publisher thread; {@link #publish} only stores the demand and wakes that thread,
 * which writes it at most once per publish interval (later changes coalesced into the next write,
 * unchanged demand not written again).
 *
 * <p>The node carries, per link, the flows usable under this application's first-pass shares
 * ({@link RouteDemand#usable}, from the routes given to {@link #publish(Map, RouteDemand)}); they
 * are worked out again whenever a snapshot is installed, and a change is written like a change of
 * demand. Usable flows move only the second pass of the split ({@link ShareView}), so the others'
 * writes they cause cause no further ones.
 *
 * <p>Cost of one update: one write (a {@code setData} of the node, about 13 + 30 x links + the
 * links' names in bytes); ZooKeeper then fires one data watch at every other driver, whose cache
 * reads the node again (one read each) and re-arms its watch. At 100 applications each publishing
 * at most every 250 ms: at most 4 writes per second per application, 400 writes per second across
 * the ensemble, 400 x 99 = 39,600 notifications and as many reads per second (each driver receiving
 * at most 396 per second). Joining or leaving adds one child watch at every driver and one listing
 * each. A driver with unchanged demand and usable flows writes nothing.
 *
 * <p>Faults: a driver that dies frees its share when ZooKeeper expires its session (the session
 * timeout after its last heartbeat), when its node disappears. Not connected (ZooKeeper unreachable
 * at start, or the connection suspended or lost later): each link's share is the safe share of
 * {@link ShareView}, logged once per outage; Curator reconnects in the background, and on
 * reconnection (a new session after an expiry included) the driver writes its node again and the
 * split applies once connected and the nodes read. {@link #close} deletes the node (the others take
 * the share at once) and returns within a second even when ZooKeeper is unreachable.
 */
@SuppressWarnings("deprecation") // PathChildrenCache, for ZooKeeper 3.5 servers (see above)
public final class ZooKeeperShare implements BackboneShare {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperShare.class);

  /** Longest {@link #close} waits for Curator to close its session, ms. */
  static final long CLOSE_WAIT_MS = 1000;

  /** Longest time a connection attempt is given before the start is reported unreachable, ms. */
  static final int MAX_CONNECTION_TIMEOUT_MS = 5000;

  private final String ensemble;
  private final String namespace;
  private final String self;
  private final String selfPath;
  private final double weight;
  private final long publishIntervalMs;
  private final CuratorFramework client;
  private final PathChildrenCache cache;
  private final ScheduledExecutorService publisher;

  /**
   * The demand {@link #publish} was last given (links with demand only), its usable flows worked
   * out on the last snapshot; replaced under {@link #ownLock}.
   */
  private volatile Map<String, LinkDemand> own = Map.of();

  /** The routes {@link #own} comes from, or null (every flow usable); under {@link #ownLock}. */
  private RouteDemand routes;

  /** Guards the replacement of {@link #own} and {@link #routes} (planner and cache threads). */
  private final Object ownLock = new Object();

  /**
   * Since when this application has wanted some link without a break, epoch ms; 0 while it wants
   * none (written by {@link #publish} alone).
   */
  private volatile long demandSinceMs;

  /** The snapshot {@link #allowed} reads. */
  private volatile ShareView view = ShareView.NONE;

  private volatile Runnable listener = () -> {};
  private volatile boolean connected;
  private volatile boolean nodesRead;
  private volatile boolean closed;
  private volatile long lastWriteMs;

  /** Whether a write is scheduled on the publisher thread. */
  private final AtomicBoolean writeDue = new AtomicBoolean();

  /** Whether the current outage was reported. */
  private final AtomicBoolean outageReported = new AtomicBoolean();

  /** Guards {@link #others} and the replacement of {@link #view} (cache and connection threads). */
  private final Object viewLock = new Object();

  /** The other applications' nodes as read, by name; under {@link #viewLock}. */
  private final Map<String, PublishedDemand> others = new HashMap<>();

  /** Nodes left out because they do not decode, each reported once; under {@link #viewLock}. */
  private final java.util.Set<String> refused = new java.util.HashSet<>();

  /** The payload last written; publisher thread only (null: write whatever is due). */
  private byte[] written;

  private ZooKeeperShare(
      String ensemble,
      String namespace,
      String self,
      double weight,
      int sessionTimeoutMs,
      long publishIntervalMs) {
    this.ensemble = ensemble;
    this.namespace = namespace;
    this.self = self;
    this.selfPath = namespace + "/" + self;
    this.weight = weight;
    this.publishIntervalMs = publishIntervalMs;
    this.publisher = Executors.newSingleThreadScheduledExecutor(daemons("publisher"));
    int connectionTimeoutMs = Math.min(sessionTimeoutMs, MAX_CONNECTION_TIMEOUT_MS);
    this.client =
        CuratorFrameworkFactory.builder()
            .connectString(ensemble)
            .sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(connectionTimeoutMs)
            .retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
            .threadFactory(daemons("curator"))
            .build();
    this.cache = new PathChildrenCache(client, namespace, true, daemons("watch"));
    client.getConnectionStateListenable().addListener((c, state) -> connectionChanged(state));
    cache.getListenable().addListener((c, event) -> nodeChanged(event));
    publisher.schedule(this::reportUnreachableStart, connectionTimeoutMs, TimeUnit.MILLISECONDS);
  }

  /**
   * Joins the split: connects to ZooKeeper in the background (never waits for it) and watches the
   * namespace.
   *
   * @param ensemble ZooKeeper's {@code host:port[,host:port...]}
   * @param namespace the znode the applications that share windows publish under, e.g. {@code
   *     /wan-shuffle/3f0a...}
   * @param application this application's name among them (unique: e.g. Spark's application id and
   *     a random suffix; no {@code /})
   * @param weight this application's weight, &gt; 0
   * @param sessionTimeoutMs ZooKeeper session timeout, ms, &gt; 0: how long after a dead driver's
   *     last heartbeat its share is freed
   * @param publishIntervalMs least time between two writes of this driver's demand, ms, &gt; 0
   * @return the share, already joining
   * @throws IllegalArgumentException for a weight, timeout or interval out of range or a name with
   *     {@code /}
   */
  public static ZooKeeperShare start(
      String ensemble,
      String namespace,
      String application,
      double weight,
      long sessionTimeoutMs,
      long publishIntervalMs) {
    Objects.requireNonNull(ensemble, "ensemble");
    if (application.isEmpty() || application.contains("/")) {
      throw new IllegalArgumentException("application name must be non-empty without '/'");
    }
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("weight must be > 0, got " + weight);
    }
    if (sessionTimeoutMs <= 0 || sessionTimeoutMs > Integer.MAX_VALUE || publishIntervalMs <= 0) {
      throw new IllegalArgumentException(
          "session timeout and publish interval must be > 0 ms, got "
              + sessionTimeoutMs
              + " and "
              + publishIntervalMs);
    }
    ZooKeeperShare s =
        new ZooKeeperShare(
            ensemble, namespace, application, weight, (int) sessionTimeoutMs, publishIntervalMs);
    s.client.start();
    try {
      s.cache.start(PathChildrenCache.StartMode.POST_INITIALIZED_EVENT);
    } catch (Exception e) {
      s.close();
      throw new IllegalStateException("cannot watch " + namespace + ": " + e.getMessage(), e);
    }
    return s;
  }

  /**
   * @return this application's name in the arbiter (its node's name)
   */
  public String application() {
    return self;
  }

  @Override
  public void publish(Map<String, LinkDemand> demand) {
    publish(demand, null);
  }

  @Override
  public void publish(Map<String, LinkDemand> demand, RouteDemand routesOfDemand) {
    Map<String, LinkDemand> kept = new HashMap<>();
    demand.forEach(
        (l, d) -> {
          if (d.any()) {
            kept.put(l, d);
          }
        });
    // every link carries the start of the application's demand, not of its demand on that link:
    // one order of the applications on every link of fewer flows than applications, so that two
    // applications never each hold one of two links that both need (a circular wait)
    if (kept.isEmpty()) {
      demandSinceMs = 0;
    } else if (demandSinceMs == 0) {
      demandSinceMs = System.currentTimeMillis();
    }
    kept.replaceAll((l, d) -> d.since(demandSinceMs));
    synchronized (ownLock) {
      routes = routesOfDemand;
      own = usable(kept, routesOfDemand);
    }
    writeSoon();
  }

  /**
   * @return {@code demand} with its usable flows worked out on the current snapshot (all usable
   *     without routes or while the split does not apply); under {@link #ownLock}
   */
  private Map<String, LinkDemand> usable(Map<String, LinkDemand> demand, RouteDemand r) {
    ShareView v = view;
    if (r == null || !v.live()) {
      Map<String, LinkDemand> all = new HashMap<>(demand);
      all.replaceAll((l, d) -> d.usable(d.flowsWanted()));
      return Map.copyOf(all);
    }
    return r.markUsable(
        demand, (link, window) -> v.wantedShare(self, weight, link, window, demand.get(link)));
  }

  /** Schedules a write of this driver's node, at most one per publish interval. */
  private void writeSoon() {
    if (!closed && !writeDue.getAndSet(true)) {
      long wait = Math.max(0, lastWriteMs + publishIntervalMs - System.currentTimeMillis());
      submit(() -> write(false), wait);
    }
  }

  /**
   * Works this application's usable flows out again from the snapshot just installed (the others'
   * demands moved its first-pass shares); writes the node when they changed.
   */
  private void refreshUsable() {
    boolean changed;
    synchronized (ownLock) {
      Map<String, LinkDemand> now = usable(own, routes);
      changed = !now.equals(own);
      own = now;
    }
    if (changed) {
      writeSoon();
    }
  }

  @Override
  public int allowed(String link, int window) {
    if (window < 0) {
      throw new IllegalArgumentException("window of " + link + " must be >= 0, got " + window);
    }
    return view.share(self, weight, link, window, own.get(link));
  }

  /**
   * @return the other applications whose last read node has demand on the link (what the safe share
   *     divides by when not connected)
   */
  @Override
  public int othersOn(String link) {
    return view.claimsOn(link).size();
  }

  @Override
  public void onChange(Runnable listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /**
   * @return whether the split applies now (connected, the nodes read); else the safe share
   */
  public boolean live() {
    return view.live();
  }

  /**
   * @return the number of other applications whose nodes were last read (with demand or not)
   */
  public int othersSeen() {
    return view.others().size();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    publisher.shutdownNow();
    Thread closing =
        new Thread(
            () -> {
              try {
                cache.close();
              } catch (Exception | Error e) {
                LOG.debug("closing the arbiter's watch", e);
              }
              client.close();
            },
            "wan-shuffle-arbiter-close");
    closing.setDaemon(true);
    closing.start();
    try {
      closing.join(CLOSE_WAIT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    view = view.withLive(false);
  }

  // ---- publisher thread -----------------------------------------------------------------------

  /**
   * Writes this driver's node when its content changed since the last write ({@code force}: in any
   * case, after a reconnection or a failed write); creates it when it does not exist.
   */
  private void write(boolean force) {
    writeDue.set(false);
    if (!connected) {
      written = null;
      return;
    }
    byte[] data = new PublishedDemand(weight, own).encode();
    if (!force && Arrays.equals(data, written)) {
      return;
    }
    written = data;
    lastWriteMs = System.currentTimeMillis();
    try {
      client.setData().inBackground((c, e) -> afterSet(e)).forPath(selfPath, data);
    } catch (Exception e) {
      failedWrite("setData", e.toString());
    }
  }

  private void create() {
    if (!connected) {
      return;
    }
    byte[] data = new PublishedDemand(weight, own).encode();
    written = data;
    try {
      client
          .create()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .inBackground((c, e) -> afterCreate(e))
          .forPath(selfPath, data);
    } catch (Exception e) {
      failedWrite("create", e.toString());
    }
  }

  /** Reports, once, that ZooKeeper was not reached within the connection timeout of the start. */
  private void reportUnreachableStart() {
    if (!connected && outageReported.compareAndSet(false, true)) {
      LOG.warn(
          "wan-shuffle arbiter: ZooKeeper {} not reached yet: each link's share is max(1, window /"
              + " applications with demand on it last seen), the whole window while none was"
              + " seen, until the driver connects",
          ensemble);
    }
  }

  // ---- Curator threads ------------------------------------------------------------------------

  private void afterSet(CuratorEvent e) {
    KeeperException.Code code = KeeperException.Code.get(e.getResultCode());
    if (code == KeeperException.Code.NONODE) {
      submit(this::create, 0);
    } else if (code != KeeperException.Code.OK) {
      failedWrite("setData", code.toString());
    }
  }

  private void afterCreate(CuratorEvent e) {
    KeeperException.Code code = KeeperException.Code.get(e.getResultCode());
    if (code == KeeperException.Code.NODEEXISTS) {
      // a node of an earlier session of this driver, not expired yet: update it; when it
      // expires the watch sees it go and the node is created again
      submit(() -> write(true), 0);
    } else if (code != KeeperException.Code.OK) {
      failedWrite("create", code.toString());
    }
  }

  /** A write that failed is written again on the next change or reconnection. */
  private void failedWrite(String what, String why) {
    LOG.debug("wan-shuffle arbiter: {} of {} failed: {}", what, selfPath, why);
    submit(() -> written = null, 0);
  }

  private void connectionChanged(ConnectionState state) {
    boolean up = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
    connected = up;
    if (up) {
      if (outageReported.getAndSet(false)) {
        LOG.info(
            "wan-shuffle arbiter: connected to ZooKeeper {} again; splitting each link's window"
                + " under {}",
            ensemble,
            namespace);
      }
      submit(() -> write(true), 0);
    } else if (outageReported.compareAndSet(false, true)) {
      LOG.warn(
          "wan-shuffle arbiter: connection to ZooKeeper {} {}: each link's share is max(1, window /"
              + " applications with demand on it last seen) until the driver reconnects",
          ensemble,
          state.toString().toLowerCase(java.util.Locale.ROOT));
    }
    replaceView(true);
  }

  private void nodeChanged(PathChildrenCacheEvent event) {
    boolean changed;
    synchronized (viewLock) {
      switch (event.getType()) {
        case INITIALIZED:
          others.clear();
          for (ChildData d : cache.getCurrentData()) {
            read(d);
          }
          nodesRead = true;
          changed = true;
          break;
        case CHILD_ADDED:
        case CHILD_UPDATED:
          changed = read(event.getData());
          break;
        case CHILD_REMOVED:
          String name = name(event.getData());
          if (name.equals(self)) {
            if (connected && !closed) {
              submit(this::create, 0);
            }
            changed = false;
          } else {
            changed = wants(others.remove(name));
          }
          break;
        default:
          changed = false;
      }
    }
    replaceView(changed);
  }

  /**
   * Reads one node into {@link #others} (under {@link #viewLock}).
   *
   * @return whether it changes this application's shares: the node's demand, old or new, is on a
   *     link this application wants
   */
  private boolean read(ChildData d) {
    String name = name(d);
    if (name.equals(self)) {
      return false;
    }
    PublishedDemand now;
    try {
      now = PublishedDemand.decode(d.getData());
    } catch (IllegalArgumentException e) {
      if (refused.add(name)) {
        LOG.warn(
            "wan-shuffle arbiter: node {} is not a wan-shuffle demand ({}); left out of the split",
            d.getPath(),
            e.getMessage());
      }
      return wants(others.remove(name));
    }
    PublishedDemand before = others.put(name, now);
    return wants(before) || wants(now);
  }

  /**
   * @return whether a published demand is on a link this application wants now
   */
  private boolean wants(PublishedDemand d) {
    if (d == null) {
      return false;
    }
    for (String link : own.keySet()) {
      if (d.links().containsKey(link)) {
        return true;
      }
    }
    return false;
  }

  /** Replaces the snapshot from the nodes read and the connection; tells the listener if asked. */
  private void replaceView(boolean tell) {
    ShareView before;
    ShareView after;
    synchronized (viewLock) {
      before = view;
      after = new ShareView(connected && nodesRead && !closed, others);
      view = after;
    }
    refreshUsable();
    if (tell || before.live() != after.live()) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        LOG.warn("wan-shuffle arbiter: the share listener failed", e);
      }
    }
  }

  private static String name(ChildData d) {
    String p = d.getPath();
    return p.substring(p.lastIndexOf('/') + 1);
  }

  private void submit(Runnable r, long delayMs) {
    if (closed) {
      return;
    }
    try {
      publisher.schedule(r, delayMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private static ThreadFactory daemons(String role) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "wan-shuffle-arbiter-" + role + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
