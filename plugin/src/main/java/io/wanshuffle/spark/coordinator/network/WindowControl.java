package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Moves the windows of the shared links (backbone sides, rack uplinks and downlinks) while a stage
 * runs, by {@link WindowRule} on the flows they carried: each gated flow that ends is a sample of
 * every shared link of its route, measured under that link's window in force (a flow that started
 * before the window last moved is not); once a link has {@link WindowRule#MIN_FLOWS} samples and
 * its last decision is at least {@link #MIN_INTERVAL_MS} old, the rule decides again. A window that
 * moves replaces the planning parameters in force ({@link LiveParameters#setWindow}), is logged in
 * one INFO line and told to the listeners ({@link CoordinatorListener#onWindowChanged}); the plans
 * made on the old window are void ({@code onChange}).
 *
 * <p>A link's configured rate is its capacity times the base speed; NICs keep their δ. Not
 * thread-safe: a listener, called under the coordinator's lock.
 */
public final class WindowControl implements CoordinatorListener {
  private static final Logger LOG = CoordinatorLogger.LOG;

  /** Samples kept per link (the most recent). */
  static final int SAMPLES = 16;

  /** Shortest time between two decisions on one link, ms. */
  public static final long MIN_INTERVAL_MS = 1000;

  /** One ended flow as a sample of one link. */
  private record Sample(
      long startMs, long endMs, double rate, double otherShare, String src, String dst) {}

  /** A link's rule state, its samples and when it was last decided. */
  private static final class Link {
    WindowRule.State state;
    final ArrayDeque<Sample> samples = new ArrayDeque<>();

    /** When the window or rate in force last moved (flows requested before are not samples). */
    long changedAtMs = Long.MIN_VALUE;

    long decidedAtMs = Long.MIN_VALUE / 2;

    Link(WindowRule.State state) {
      this.state = state;
    }
  }

  private final LiveParameters parameters;
  private final FlowLeases leases;
  private final LongSupplier clockMs;
  private final Consumer<WindowChange> tell;
  private final Runnable onChange;
  private final Map<Integer, Link> links = new HashMap<>();
  private LinkModel statesOf;

  /**
   * @param parameters the planning parameters in force, whose windows this moves
   * @param leases the open flows: how many each link held while a flow ran
   * @param clockMs the driver's clock, epoch ms
   * @param tell tells the listeners of a move
   * @param onChange called after a window moved (under the lock): plans on the old one are void
   */
  public WindowControl(
      LiveParameters parameters,
      FlowLeases leases,
      LongSupplier clockMs,
      Consumer<WindowChange> tell,
      Runnable onChange) {
    this.parameters = Objects.requireNonNull(parameters, "parameters");
    this.leases = Objects.requireNonNull(leases, "leases");
    this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    this.tell = Objects.requireNonNull(tell, "tell");
    this.onChange = Objects.requireNonNull(onChange, "onChange");
  }

  @Override
  public void onTransferRealised(TransferRecord r) {
    if (r.stepId() <= 0 || r.endMs() <= r.startMs() || r.stalled()) {
      return; // ungated fetches span a task's whole read, waits included, stalled ones the stall
    }
    PlanningParameters p = parameters.current();
    if (p.links() != statesOf) {
      links.clear(); // a new link model (measured k): new link ids, windows at capacity
      statesOf = p.links();
    }
    long now = clockMs.getAsLong();
    double seconds = (r.endMs() - r.startMs()) / 1000.0;
    Set<Integer> touched = new HashSet<>();
    for (int i = 0; i < r.srcHosts().size(); i++) {
      if (r.bytes()[i] <= 0) {
        continue;
      }
      String src = r.srcHosts().get(i);
      int[] route = p.links().route(src, r.dstHost());
      double rate = r.bytes()[i] / seconds;
      for (int l : route) {
        if (p.facts().isNic(l)) {
          continue;
        }
        Link link = links.computeIfAbsent(l, x -> new Link(initial(p, x)));
        if (r.startMs() < link.changedAtMs) {
          continue; // requested under the window before
        }
        link.samples.addLast(
            new Sample(r.startMs(), r.endMs(), rate, otherShare(p, route, l), src, r.dstHost()));
        if (link.samples.size() > SAMPLES) {
          link.samples.removeFirst();
        }
        touched.add(l);
      }
    }
    for (int l : touched) {
      decide(p, l, links.get(l), now);
    }
  }

  private WindowRule.State initial(PlanningParameters p, int link) {
    return WindowRule.State.initial(p.facts().capacity(link), configuredRate(p, link));
  }

  private static double configuredRate(PlanningParameters p, int link) {
    return (double) p.facts().capacity(link) * p.baseSpeed();
  }

  /**
   * The smallest share of the route's links other than {@code link}: rate in force / the link's own
   * window (the flows of every application on it, not this application's share of them).
   */
  private double otherShare(PlanningParameters p, int[] route, int link) {
    double min = Double.POSITIVE_INFINITY;
    for (int l : route) {
      if (l == link) {
        continue;
      }
      Link other = links.get(l);
      double rate = other != null ? other.state.rate() : configuredRate(p, l);
      min = Math.min(min, rate / p.facts().ownWindow(l));
    }
    return min;
  }

  private void decide(PlanningParameters p, int l, Link link, long now) {
    if (link.samples.size() < WindowRule.MIN_FLOWS || now - link.decidedAtMs < MIN_INTERVAL_MS) {
      return;
    }
    link.decidedAtMs = now;
    WindowRule.Observation o = observe(l, link);
    WindowRule.State before = link.state;
    WindowRule.Decision d =
        WindowRule.decide(
            o, before, p.facts().capacity(l), configuredRate(p, l), p.baseSpeed(), now);
    link.state = d.state();
    if (d.reason().isEmpty()) {
      return;
    }
    link.samples.clear();
    link.changedAtMs = now;
    String name = p.links().name(l);
    if (d.moved(before)) {
      parameters.setWindow(l, d.state().window());
    }
    LOG.info(
        "wan-shuffle window of {}: {} -> {} flow(s) (capacity {}), {}",
        name,
        before.window(),
        d.state().window(),
        p.facts().capacity(l),
        d.reason());
    tell.accept(
        new WindowChange(
            name,
            p.facts().capacity(l),
            before.window(),
            d.state().window(),
            d.state().rate(),
            d.reason(),
            now));
    if (d.moved(before)) {
      onChange.run();
    }
  }

  private WindowRule.Observation observe(int l, Link link) {
    int n = link.samples.size();
    double[] rates = new double[n];
    double[] others = new double[n];
    Set<String> senders = new HashSet<>();
    Set<String> receivers = new HashSet<>();
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    int i = 0;
    for (Sample s : link.samples) {
      rates[i] = s.rate();
      others[i] = s.otherShare();
      senders.add(s.src());
      receivers.add(s.dst());
      from = Math.min(from, s.startMs());
      to = Math.max(to, s.endMs());
      i++;
    }
    return new WindowRule.Observation(
        n,
        median(rates),
        leases.meanHeld(l, from, to),
        median(others),
        senders.size(),
        receivers.size());
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /**
   * @param capacity a link's capacity in flows
   * @return the most flows the rule ever admits on it, over its capacity ({@link WindowRule#bound})
   */
  public static double boundOverCapacity(int capacity) {
    return (double) WindowRule.bound(capacity) / capacity;
  }
}
