package io.wanshuffle.spark.arbiter;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
import org.apache.zookeeper.data.Stat;
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
 * <p>Claims are confirmed before they are granted on ({@link OwnClaim}): a write that claims a link
 * this application did not claim before (the start of its demand included) is made at once, not at
 * the next publish interval, and once ZooKeeper acknowledges it the publisher thread lists the
 * namespace and reads every sibling node (a read after one's own acknowledged write sees every
 * write before it); until then this application's share of that link is 0. Links of fewer flows
 * than applications go by the order of the applications' demand starts, which is ZooKeeper's order
 * of the writes that published them ({@link PublishedDemand#order()}), so two drivers that start at
 * the same moment agree on which one is first, and the second one's confirmation sees the first's
 * claim.
 *
 * <p>Cost of one update: one write (a {@code setData} of the node, about 21 + 30 x links + the
 * links' names in bytes); ZooKeeper then fires one data watch at every other driver, whose cache
 * reads the node again (one read each) and re-arms its watch. At 100 applications each publishing
 * at most every 250 ms: at most 4 writes per second per application, 400 writes per second across
 * the ensemble, 400 x 99 = 39,600 notifications and as many reads per second (each driver receiving
 * at most 396 per second). Joining or leaving adds one child watch at every driver and one listing
 * each. A driver with unchanged demand and usable flows writes nothing. A new claim adds one
 * listing and one read per application in the namespace (99 at 100 applications), once per start of
 * demand or newly claimed link, not per update.
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

  /** This application's claim: its demand, order and confirmed links. */
  private final OwnClaim own;

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

  /** Guards {@link #nodes} and {@link #view}'s replacement (watch, connection, publisher). */
  private final Object viewLock = new Object();

  /** The other applications' nodes as read; under {@link #viewLock}. */
  private final SiblingNodes nodes;

  /** The payload last written; publisher thread only (null: write whatever is due). */
  private byte[] written;

  /** Whether a write was asked for while a claim awaited its confirmation; publisher thread. */
  private boolean deferred;

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
    this.nodes = new SiblingNodes(self);
    this.own = new OwnClaim(self, weight);
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
    writeSoon(own.set(demand, routesOfDemand, view));
  }

  /**
   * Schedules a write of this driver's node, at most one per publish interval; at once when it
   * claims a link not confirmed yet (a start of demand, or a link it did not want: its grants on
   * that link wait for the claim's confirmation).
   */
  private void writeSoon(boolean claims) {
    if (closed) {
      return;
    }
    if (claims) {
      writeDue.set(true);
      submit(() -> write(false), 0);
    } else if (!writeDue.getAndSet(true)) {
      long wait = Math.max(0, lastWriteMs + publishIntervalMs - System.currentTimeMillis());
      submit(() -> write(false), wait);
    }
  }

  /**
   * Works this application's usable flows out again from the snapshot just installed (the others'
   * demands moved its first-pass shares); writes the node when they changed.
   */
  private void refreshUsable() {
    if (own.refresh(view)) {
      writeSoon(false);
    }
  }

  @Override
  public int allowed(String link, int window) {
    if (window < 0) {
      throw new IllegalArgumentException("window of " + link + " must be >= 0, got " + window);
    }
    LinkDemand mine = own.demand().get(link);
    ShareView v = view;
    if (mine != null && v.live() && !own.confirmedOn(link)) {
      return 0; // its claim is not confirmed yet: an application that claimed it before may hold it
    }
    return v.share(self, weight, own.order(), link, window, mine);
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

  /** Whether this application's claim on {@code link} is confirmed (for tests). */
  boolean confirmedOn(String link) {
    return own.confirmedOn(link);
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
    if (own.awaiting()) {
      deferred = true; // written once the claim in flight is confirmed
      return;
    }
    byte[] data = own.toWrite().encode();
    if (!force && !own.awaiting() && Arrays.equals(data, written)) {
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
    byte[] data = own.toWrite().encode();
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
      submit(this::createAgain, 0);
    } else if (code != KeeperException.Code.OK) {
      failedWrite("setData", code.toString());
    } else if (own.awaiting()) {
      submit(this::confirm, 0);
    }
  }

  private void afterCreate(CuratorEvent e) {
    KeeperException.Code code = KeeperException.Code.get(e.getResultCode());
    if (code == KeeperException.Code.NODEEXISTS) {
      // a node of an earlier session of this driver, not expired yet: update it; when it
      // expires the watch sees it go and the node is created again
      submit(this::forceWrite, 0);
    } else if (code != KeeperException.Code.OK) {
      failedWrite("create", code.toString());
    } else if (own.awaiting()) {
      submit(this::confirm, 0);
    }
  }

  /** Creates the node after a write found none (a claim in flight is written by the create). */
  private void createAgain() {
    own.abandon();
    create();
  }

  /** Writes the node in any case (a claim in flight is written again and confirmed after). */
  private void forceWrite() {
    own.abandon();
    write(true);
  }

  /**
   * A write that failed is written again on the next change or reconnection, a claim awaiting its
   * confirmation at the next publish interval.
   */
  private void failedWrite(String what, String why) {
    LOG.debug("wan-shuffle arbiter: {} of {} failed: {}", what, selfPath, why);
    submit(
        () -> {
          written = null;
          if (own.awaiting()) {
            deferred = true; // a claim is written again (at the next publish interval)
          }
          endConfirming(false);
        },
        0);
  }

  /**
   * Confirms the claim just written (publisher thread): reads every sibling node after the write's
   * acknowledgement, keeps what is newer than the watch's copies, learns this application's order
   * from its own node when it was not known, and lets the planner grant on the links claimed. A
   * failed read leaves the claim unconfirmed and writes it again.
   */
  private void confirm() {
    if (!own.awaiting()) {
      return;
    }
    boolean done = false;
    try {
      List<ChildData> listed = NamespaceListing.read(client, namespace);
      ChildData mine =
          listed.stream()
              .filter(d -> d.getPath().equals(selfPath))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("own node " + selfPath + " not found"));
      synchronized (viewLock) {
        Set<String> ownLinks = own.demand().keySet();
        listed.forEach(d -> read(d, ownLinks));
      }
      done = own.confirm(mine.getStat().getMzxid());
    } catch (Exception e) {
      LOG.debug("wan-shuffle arbiter: confirming the claim of {} failed: {}", selfPath, e);
      written = null;
    }
    if (!done) {
      deferred = true; // write the claim again (and confirm that write)
    }
    endConfirming(done);
    replaceView(true);
  }

  /**
   * Ends a confirmation; a write asked for meanwhile follows, at once when it claims a link not
   * confirmed yet and the confirmation succeeded (else at the next publish interval: a failing
   * ZooKeeper is not written to in a loop).
   *
   * @param succeeded whether the confirmation succeeded
   */
  private void endConfirming(boolean succeeded) {
    own.abandon();
    if (deferred) {
      deferred = false;
      writeSoon(succeeded && own.claimsUnconfirmed());
    }
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
      submit(this::forceWrite, 0);
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
      Set<String> ownLinks = own.demand().keySet();
      switch (event.getType()) {
        case INITIALIZED:
          nodes.clear();
          for (ChildData d : cache.getCurrentData()) {
            read(d, ownLinks);
          }
          nodesRead = true;
          changed = true;
          break;
        case CHILD_ADDED:
        case CHILD_UPDATED:
          changed = read(event.getData(), ownLinks);
          break;
        case CHILD_REMOVED:
          ChildData d = event.getData();
          if (SiblingNodes.name(d.getPath()).equals(self)) {
            if (connected && !closed) {
              submit(this::createAgain, 0);
            }
            changed = false;
          } else {
            Stat st = d.getStat();
            changed = nodes.remove(d.getPath(), st == null ? 0 : st.getCzxid(), ownLinks);
          }
          break;
        default:
          changed = false;
      }
    }
    replaceView(changed);
  }

  /** Reads one node of the watch's cache into {@link #nodes} (under {@link #viewLock}). */
  private boolean read(ChildData d, Set<String> ownLinks) {
    Stat st = d.getStat();
    return nodes.read(
        d.getPath(),
        d.getData(),
        st == null ? 0 : st.getCzxid(),
        st == null ? 0 : st.getMzxid(),
        ownLinks);
  }

  /** Replaces the snapshot from the nodes read and the connection; tells the listener if asked. */
  private void replaceView(boolean tell) {
    ShareView before;
    ShareView after;
    synchronized (viewLock) {
      before = view;
      after = new ShareView(connected && nodesRead && !closed, nodes.demands());
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
