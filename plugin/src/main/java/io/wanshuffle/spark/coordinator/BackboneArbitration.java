package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.arbiter.Alone;
import io.wanshuffle.spark.arbiter.BackboneShare;
import io.wanshuffle.spark.arbiter.LinkDemand;
import io.wanshuffle.spark.arbiter.RouteDemand;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.ShareChange;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.network.LinkFacts;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.network.PlanningParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The coordinator's side of several applications on one backbone ({@code
 * io.wanshuffle.spark.arbiter}): publishes this application's demand on each link from every plan's
 * residual traffic matrix (bytes still to cross the link, host pairs that would hold it) and
 * installs this application's share of each link's window in the planning parameters, so that no
 * link (a backbone side, a rack link, a host's NIC) carries more flows than its window over all the
 * applications together. Without an arbiter ({@link Alone}) it does nothing and costs nothing. Each
 * share that moves the flows the coordinator admits on a link is told to the listeners ({@link
 * CoordinatorListener#onShareChanged}).
 *
 * <p>{@link #publish} runs on the planner thread without the coordinator's lock; {@link
 * #refreshShares} under it. The share never blocks ({@link BackboneShare}).
 */
final class BackboneArbitration implements AutoCloseable {
  private final LongSupplier clock;
  private final Consumer<ShareChange> tell;
  private volatile BackboneShare share = new Alone();

  /** Whether the last demand published was none. */
  private volatile boolean publishedNone;

  /** The last demand published from a plan, published again with the flows open after a grant. */
  private volatile Published last;

  private record Published(PlanningParameters parameters, int[][] routes, long[] bytes) {}

  /**
   * @param clock epoch ms
   * @param tell where a share that moved goes (the listeners, under the coordinator's lock)
   */
  BackboneArbitration(LongSupplier clock, Consumer<ShareChange> tell) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.tell = Objects.requireNonNull(tell, "tell");
  }

  /**
   * @param s the application's share, replacing {@link Alone}; closed with this
   */
  void install(BackboneShare s) {
    BackboneShare old = share;
    share = Objects.requireNonNull(s, "share");
    old.close();
  }

  /**
   * @return whether an arbiter splits the windows with other applications
   */
  boolean active() {
    return !(share instanceof Alone);
  }

  /**
   * @param onChange posted when the shares may have moved (another application's demand changed,
   *     the arbiter was lost or found again)
   */
  void onChange(Runnable onChange) {
    share.onChange(onChange);
  }

  /**
   * Publishes this application's demand on each link its residual's routes cross (NICs, rack links,
   * backbone sides) or its open flows hold: the bytes of the residual's cells whose routes cross
   * it, and the host pairs among them plus the open flows on it, at most the link's own window;
   * with the routes, from which the arbiter works out the flows usable under this application's
   * shares of the other links. A link keeps its claim while a flow of this application holds it, so
   * that no other application is given the link before that flow is handed on (shares do not
   * preempt).
   *
   * @param m a plan's residual traffic matrix
   * @param p the parameters it was planned with
   * @param open per link id of {@code p}'s link model, this application's flows holding it when the
   *     residual was read (null: none)
   */
  void publish(DemandMatrix m, PlanningParameters p, int[] open) {
    if (!active()) {
      return;
    }
    Published now = new Published(p, m.nonZeroRoutes(), m.nonZeroBytes());
    last = now;
    publish(p, now.routes(), now.bytes(), open);
  }

  /**
   * Publishes the last plan's demand again with the flows open now, after a grant: the links of the
   * flows just granted stay claimed until those flows are handed on, even when no later plan
   * publishes (its residual may have nothing left to start). Nothing is published when the last
   * demand published was none or the link model moved since that plan.
   *
   * @param p the parameters in force
   * @param open per link id of {@code p}'s link model, this application's flows holding it now
   */
  void publishOpen(PlanningParameters p, int[] open) {
    Published was = last;
    if (!active() || publishedNone || was == null || was.parameters().links() != p.links()) {
      return;
    }
    publish(was.parameters(), was.routes(), was.bytes(), open);
  }

  private void publish(PlanningParameters p, int[][] routes, long[] bytes, int[] open) {
    LinkFacts facts = p.facts();
    int n = p.links().linkCount();
    String[] names = new String[n];
    int[] windows = new int[n];
    int[] held = new int[n];
    for (int l = 0; l < n; l++) {
      names[l] = p.links().name(l);
      windows[l] = facts.ownWindow(l);
      held[l] = open != null && l < open.length ? open[l] : 0;
    }
    RouteDemand routesOfDemand = new RouteDemand(names, windows, routes, bytes, held);
    Map<String, LinkDemand> demand = routesOfDemand.demand();
    if (demand.isEmpty()) {
      publishNone();
      return;
    }
    publishedNone = false;
    share.publish(demand, routesOfDemand);
  }

  /**
   * Publishes that this application wants no link now (its demand is fetched or released), so that
   * the other applications take its shares at once; nothing is written when it already said so.
   */
  void publishNone() {
    if (active() && !publishedNone) {
      publishedNone = true;
      share.publish(Map.of());
    }
  }

  /**
   * Installs this application's share of every link's window (a host's NIC too: two applications
   * whose tasks run on one host split its δ), when one moved, and tells each link whose admitted
   * flows moved with it ({@link ShareChange}: from the flows admitted before, the whole window when
   * the link had no share, to the share).
   *
   * @param parameters the parameters in force (under the coordinator's lock)
   * @return true when a share moved (a plan made before is void)
   */
  boolean refreshShares(LiveParameters parameters) {
    if (!active()) {
      return false;
    }
    PlanningParameters p = parameters.current();
    LinkFacts facts = p.facts();
    int n = p.links().linkCount();
    int[] caps = new int[n];
    boolean moved = false;
    List<ShareChange> changes = null;
    for (int l = 0; l < n; l++) {
      String name = p.links().name(l);
      int window = facts.ownWindow(l);
      caps[l] = share.allowed(name, window);
      if (caps[l] != facts.window(l)) {
        if (changes == null) {
          changes = new ArrayList<>();
        }
        changes.add(
            new ShareChange(
                name,
                facts.capacity(l),
                window,
                facts.window(l),
                caps[l],
                share.othersOn(name),
                clock.getAsLong()));
      }
      moved |= caps[l] != facts.share(l);
    }
    if (moved) {
      parameters.setShares(caps);
    }
    if (changes != null) {
      changes.forEach(tell);
    }
    return moved;
  }

  @Override
  public void close() {
    share.close();
  }

  @Override
  public String toString() {
    return "BackboneArbitration[" + share.getClass().getSimpleName() + "]";
  }
}
