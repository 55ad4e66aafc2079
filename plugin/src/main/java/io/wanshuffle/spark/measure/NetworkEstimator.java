package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Estimates each link's achieved rate, the step setup delay β and the flows' leads from realised
 * flows.
 *
 * <p>Model (the fair-sharing model of the redistribution-prediction paper, Wagner and Jeannot,
 * INRIA RR-5361, sec. 3; β as the KPBS step setup delay, GGP/OGGP paper, Cohen, Jeannot, Padoy,
 * Wagner, sec. 2): a flow of B bytes requested at s and ending at e sends nothing for its lead a
 * (the request's round trip and TCP's ramp), then sends on [s + a, e); the n(t) flows sending on a
 * link at instant t share its rate R equally, so on its bottleneck link e - s = a + B n̄ / R, where
 * n̄ is the flow's mean sharing count over [s + a, e) ({@link LinkSharing}). The share time σ = ∫
 * dt / n(t) over [s + a, e) then is B / R. The lead depends on the flow's connection: Spark fetches
 * over one connection per pair of executors, kept open, so the first flow of a host pair (in the
 * flows given, by request) opens it and pays its set-up and TCP's slow start from the initial
 * window, a₁; the pair's later flows find it open and pay a_w ≤ a₁.
 *
 * <ul>
 *   <li><b>Common lead a.</b> Found with the rates, from a = 0: per link whose flows (the most
 *       recent {@value #FIT_FLOWS}, at least {@value #MIN_FIT_FLOWS}) differ in size (bytes' 90th
 *       over 10th percentile at least {@value #MIN_SPREAD}), the intercept of the Theil-Sen fit of
 *       the active time d = e - s against the bytes at share x = B n̄, over the pairs of flows
 *       whose bytes differ by at least a tenth of their median (pairs that differ only in n̄ say
 *       nothing of a link that was not their bottleneck); a = the median of those intercepts over
 *       the links, at least 0, or 0 when no link has such flows. n(t) is counted again with the new
 *       a until a moves by less than 1 ms (at most {@value #MAX_ROUNDS} rounds). Counting a flow
 *       from its request instead would add, on a long round trip, the next flow's idle first round
 *       trips to n(t) of every link it crosses and inflate x and the rate.
 *   <li><b>Rate of link l.</b> Over its flows (the most recent {@value #FIT_FLOWS}), each flow's
 *       bytes per share time B / σ, n(t) counted with a: R where l was the flow's bottleneck, less
 *       where the flow was held back (by another link, a straggling task, TCP's slow start on a new
 *       connection); nothing in the model puts it above R but an error in a on a flow not much
 *       longer than a. So R = the {@value #RATE_QUANTILE} quantile of B / σ over the flows that
 *       sent for at least a (d ≥ 2a), robust to up to three quarters of held-back flows; with fewer
 *       than {@value #MIN_FIT_FLOWS} such flows, the median of B / σ over all. It is what the link
 *       achieved for its flows: its capacity where it was their bottleneck, less where every flow
 *       was held back elsewhere. {@link LinkRate#reusedFlows()} counts the flows on reused
 *       connections it was measured over: a sample mostly of first flows reads the link low.
 *   <li><b>A drop.</b> A link whose rate fell (a path rerouted, a shaper changed) keeps reading its
 *       old rate in the quantile while most of its window was measured before. The bar is {@value
 *       #DROPPED} of the {@value #RATE_QUANTILE} quantile of B / σ over the flows before a run of
 *       most recent flows ({@value #DROP_FLOWS}, twice, four times as many..., at least twice
 *       {@value #DROP_FLOWS} flows before it). The link dropped when its {@value #DROP_FLOWS} most
 *       recent flows read under the bar both by their median B / σ and by the bytes they carried
 *       together over the time one of them was sending (a held-back flow reads low alone; a link
 *       that dropped carries less in all), the run reads under it by its median, and the run's
 *       flows under the bar come from two senders and go to two receivers (one slow host is not the
 *       link; a NIC's flows share their host). Of the runs that hold, the longest counts ({@link
 *       LinkRate#droppedFlows()}), and the link's rate is the median B / σ of its flows under the
 *       bar (the flows that straddled the drop read near the old rate and are left out), if that is
 *       below R. Once the recent flows read the old rate again the rule no longer holds and R comes
 *       back.
 *   <li><b>Leads a_w and a₁ (the ramp).</b> Per link whose flows differ in size (as for a), the
 *       Theil-Sen slope over the pairs of flows of the same kind (both first flows of their host
 *       pair, or both later flows) whose bytes differ by at least a tenth of their median, so that
 *       the first flows' longer lead does not tilt the slope where they are also the smaller flows;
 *       a link's a_w (a₁) = the median of d - slope x over its later (first) flows. a_w = the
 *       median over the links, at least 0 (a when no such link has a later flow): the ramp; a₁ =
 *       the median over the links, at least a_w (a_w when no such link has both kinds).
 *   <li><b>β.</b> The median over gated flows of s - g (the grant's trip to the task, g the grant)
 *       plus a_w: from a grant to the flow running at its share on an open connection, as the
 *       plugin's steps run after the first.
 * </ul>
 *
 * Medians, the upper quartile and the Theil-Sen fit keep stragglers (slow flows, a lost executor's
 * partial flows) from moving the estimates. Flows without bytes or with no active time are left
 * out. Of a long application, the flows given are the most recent ({@link NetworkMeter#WINDOW});
 * the earliest of a host pair among them then is not the connection's first, and a₁ tends to a_w.
 * O(M (F log F + L P²)) for F flows on L links, P = {@value #FIT_FLOWS}, M = {@value #MAX_ROUNDS}.
 */
public final class NetworkEstimator {
  /** Most flows per link that the Theil-Sen fit uses (the most recent). */
  public static final int FIT_FLOWS = 200;

  /** Fewest flows on a link for a fit. */
  public static final int MIN_FIT_FLOWS = 5;

  /** Least spread of the flows' bytes (90th over 10th percentile) for a fit. */
  public static final double MIN_SPREAD = 1.5;

  /** Quantile of the flows' bytes per share time taken as a link's rate (class doc). */
  public static final double RATE_QUANTILE = 0.75;

  /**
   * A link's most recent flows reading under this share of its rate over the window mean its rate
   * dropped (class doc).
   */
  public static final double DROPPED = 2.0 / 3;

  /** Fewest most recent flows under {@link #DROPPED} of a link's rate for a drop. */
  public static final int DROP_FLOWS = 5;

  /** Most rounds of counting n(t) and fitting the lead. */
  public static final int MAX_ROUNDS = 8;

  /** The links a flow from src to dst crosses, by name. */
  @FunctionalInterface
  public interface Routes {
    /**
     * @param src sending host
     * @param dst receiving host
     * @return the names of the links of the route
     */
    List<String> links(String src, String dst);

    /**
     * @param model a link model
     * @return its routes, by link name
     */
    static Routes of(LinkModel model) {
      return (s, d) -> {
        int[] ids = model.route(s, d);
        List<String> out = new ArrayList<>(ids.length);
        for (int id : ids) {
          out.add(model.name(id));
        }
        return out;
      };
    }
  }

  private NetworkEstimator() {}

  /**
   * @param flows realised flows (any order); unusable ones ({@link MeasuredFlow#usable()}) are left
   *     out
   * @param routes the links of each flow's route
   * @return the estimate; {@link NetworkEstimate#EMPTY} without usable flows
   */
  public static NetworkEstimate estimate(List<MeasuredFlow> flows, Routes routes) {
    List<MeasuredFlow> used = new ArrayList<>();
    for (MeasuredFlow f : flows) {
      if (f.usable()) {
        used.add(f);
      }
    }
    if (used.isEmpty()) {
      return NetworkEstimate.EMPTY;
    }
    used.sort(Comparator.comparingLong(MeasuredFlow::endMs));
    boolean[] first = firstOnPair(used);
    Map<String, List<Integer>> byLink = new LinkedHashMap<>();
    for (int i = 0; i < used.size(); i++) {
      MeasuredFlow f = used.get(i);
      for (String l : routes.links(f.srcHost(), f.dstHost())) {
        byLink.computeIfAbsent(l, x -> new ArrayList<>()).add(i);
      }
    }
    long leadMs = 0;
    Round round = round(used, first, byLink, leadMs);
    for (int r = 1; r < MAX_ROUNDS && Math.abs(round.leadMs - leadMs) >= 1; r++) {
      leadMs = round.leadMs;
      round = round(used, first, byLink, leadMs);
    }
    List<Double> grants = new ArrayList<>();
    for (MeasuredFlow f : used) {
      if (f.gated()) {
        grants.add(Math.max(0, f.startMs() - f.grantedAtMs()) / 1000.0);
      }
    }
    double ramp = round.laterLead(leadMs / 1000.0);
    double firstRamp = round.firstLead(ramp);
    double grant = grants.isEmpty() ? Double.NaN : Robust.median(toArray(grants));
    return new NetworkEstimate(grant + ramp, grant, ramp, round.rates, used.size(), firstRamp);
  }

  /**
   * @param flows flows by end
   * @return per flow, whether it is the first of its host pair: the earliest request (of equal
   *     requests, the earliest end)
   */
  private static boolean[] firstOnPair(List<MeasuredFlow> flows) {
    Map<String, Integer> earliest = new HashMap<>();
    for (int i = 0; i < flows.size(); i++) {
      MeasuredFlow f = flows.get(i);
      earliest.merge(
          f.srcHost() + "\n" + f.dstHost(),
          i,
          (a, b) -> flows.get(b).startMs() < flows.get(a).startMs() ? b : a);
    }
    boolean[] out = new boolean[flows.size()];
    for (int i : earliest.values()) {
      out[i] = true;
    }
    return out;
  }

  /**
   * One round: each link's rate with n(t) counted from each flow's request + the common lead, the
   * common lead those counts give, and per fitted link the leads of its later and first flows
   * (class doc).
   *
   * @param rates per link name, its rate
   * @param leadMs the common lead the round's fits give, ms
   * @param laterLeads per fitted link with later flows, their lead, seconds
   * @param firstLeads per fitted link with both kinds of flows, its first flows' lead, seconds
   */
  private record Round(
      Map<String, LinkRate> rates, long leadMs, List<Double> laterLeads, List<Double> firstLeads) {

    /**
     * @param common the common lead, seconds
     * @return a_w, seconds (class doc)
     */
    double laterLead(double common) {
      return laterLeads.isEmpty() ? common : Math.max(0, Robust.median(toArray(laterLeads)));
    }

    /**
     * @param later a_w, seconds
     * @return a₁, seconds (class doc)
     */
    double firstLead(double later) {
      return firstLeads.isEmpty() ? later : Math.max(later, Robust.median(toArray(firstLeads)));
    }
  }

  private static Round round(
      List<MeasuredFlow> used, boolean[] first, Map<String, List<Integer>> byLink, long leadMs) {
    Map<String, LinkRate> rates = new HashMap<>();
    List<Double> intercepts = new ArrayList<>();
    List<Double> laterLeads = new ArrayList<>();
    List<Double> firstLeads = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> e : byLink.entrySet()) {
      List<Integer> idx = e.getValue();
      List<MeasuredFlow> on = new ArrayList<>(idx.size());
      for (int i : idx) {
        on.add(used.get(i));
      }
      double[] share = LinkSharing.shareSeconds(on, leadMs);
      int from = Math.max(0, on.size() - FIT_FLOWS);
      int n = on.size() - from;
      double[] bytes = new double[n];
      double[] x = new double[n];
      double[] d = new double[n];
      int[] kind = new int[n];
      double[] perShare = new double[n];
      double[] longPerShare = new double[n];
      int longFlows = 0;
      int reused = 0;
      for (int j = 0; j < n; j++) {
        MeasuredFlow f = on.get(from + j);
        long sendingMs = f.endMs() - LinkSharing.sendingFromMs(f, leadMs);
        double sh = share[from + j];
        bytes[j] = f.bytes();
        d[j] = f.activeSeconds();
        x[j] = f.bytes() * (sendingMs / 1000.0) / sh;
        kind[j] = first[idx.get(from + j)] ? FIRST : LATER;
        reused += kind[j] == LATER ? 1 : 0;
        perShare[j] = f.bytes() / sh;
        if (sendingMs >= leadMs) {
          longPerShare[longFlows++] = perShare[j];
        }
      }
      double rate =
          longFlows >= MIN_FIT_FLOWS
              ? Robust.quantile(Arrays.copyOf(longPerShare, longFlows), RATE_QUANTILE)
              : Robust.median(perShare);
      boolean fitted = false;
      if (n >= MIN_FIT_FLOWS
          && Robust.quantile(bytes, 0.9) >= MIN_SPREAD * Robust.quantile(bytes, 0.1)) {
        double minBytes = 0.1 * Robust.median(bytes);
        Robust.Line line = Robust.theilSen(x, d, bytes, minBytes);
        if (line != null && line.slope() > 0) {
          intercepts.add(line.intercept());
          fitted = true;
        }
        Robust.Line byKind = Robust.theilSen(x, d, bytes, minBytes, kind);
        if (byKind != null && byKind.slope() > 0) {
          double[] later = residuals(byKind, x, d, kind, LATER);
          double[] firsts = residuals(byKind, x, d, kind, FIRST);
          if (later.length > 0) {
            laterLeads.add(Robust.median(later));
            if (firsts.length > 0) {
              firstLeads.add(Robust.median(firsts));
            }
          }
        }
      }
      Drop drop = drop(on, from, perShare);
      double droppedRate =
          drop == null ? Double.NaN : droppedRate(perShare, drop.run(), drop.bar());
      if (droppedRate < rate) {
        rate = droppedRate;
      } else {
        drop = null;
      }
      rates.put(
          e.getKey(),
          new LinkRate(e.getKey(), rate, n, fitted, reused, drop == null ? 0 : drop.run()));
    }
    double lead = intercepts.isEmpty() ? 0 : Math.max(0, Robust.median(toArray(intercepts)));
    return new Round(rates, Math.round(lead * 1000), laterLeads, firstLeads);
  }

  /**
   * A drop the drop rule found (class doc).
   *
   * @param run how many of the link's most recent flows it takes as measured after the drop
   * @param bar {@link #DROPPED} of the link's rate over the flows before them, bytes/s
   */
  private record Drop(int run, double bar) {}

  /**
   * The drop rule (class doc): the link's {@link #DROP_FLOWS} most recent flows read under the bar
   * by their median B / σ and by the bytes they carried together while one of them was sending, the
   * run of most recent flows reads under it by its median, and the run's flows under it come from
   * two senders and go to two receivers (or from and to as many as the link carried at all: a NIC's
   * flows share their host); the bar is {@link #DROPPED} of the {@value #RATE_QUANTILE} quantile of
   * B / σ over the flows before the run, at least twice {@link #DROP_FLOWS} of them. Runs of {@link
   * #DROP_FLOWS}, twice, four times as many flows... are tried; the longest that holds is the drop.
   * O(n log² n) for a window of n flows.
   *
   * @param on the link's flows by end
   * @param from the index in {@code on} of the window's first flow
   * @param perShare per flow of the window, its bytes per share time, bytes/s
   * @return the drop, or null when the rule does not find one
   */
  private static Drop drop(List<MeasuredFlow> on, int from, double[] perShare) {
    int n = perShare.length;
    if (n < 3 * DROP_FLOWS) {
      return null;
    }
    int end = from + n;
    double recentMedian = Robust.median(Arrays.copyOfRange(perShare, n - DROP_FLOWS, n));
    double recentCarried = carried(on.subList(end - DROP_FLOWS, end));
    Drop found = null;
    for (int run = DROP_FLOWS; run <= n - 2 * DROP_FLOWS; run *= 2) {
      double bar = DROPPED * Robust.quantile(Arrays.copyOf(perShare, n - run), RATE_QUANTILE);
      if (recentMedian < bar
          && recentCarried < bar
          && Robust.median(Arrays.copyOfRange(perShare, n - run, n)) < bar
          && spread(on, from, perShare, run, bar)) {
        found = new Drop(run, bar);
      }
    }
    return found;
  }

  /**
   * @return whether the flows of the run that read under {@code bar} come from two senders and go
   *     to two receivers, or from and to as many as the link's window carried
   */
  private static boolean spread(
      List<MeasuredFlow> on, int from, double[] perShare, int run, double bar) {
    int n = perShare.length;
    Set<String> senders = new HashSet<>();
    Set<String> receivers = new HashSet<>();
    Set<String> allSenders = new HashSet<>();
    Set<String> allReceivers = new HashSet<>();
    for (int j = 0; j < n; j++) {
      MeasuredFlow f = on.get(from + j);
      allSenders.add(f.srcHost());
      allReceivers.add(f.dstHost());
      if (j >= n - run && perShare[j] < bar) {
        senders.add(f.srcHost());
        receivers.add(f.dstHost());
      }
    }
    return senders.size() >= Math.min(2, allSenders.size())
        && receivers.size() >= Math.min(2, allReceivers.size());
  }

  /**
   * @param perShare per flow of a link's window, its bytes per share time, bytes/s
   * @param run the length of the drop's run of most recent flows
   * @param bar {@link #DROPPED} of the link's rate over the flows before the run, bytes/s
   * @return the median bytes per share time over the run's flows that read under {@code bar} (the
   *     run's first flows straddled the drop and may read the old rate), bytes/s
   */
  private static double droppedRate(double[] perShare, int run, double bar) {
    double[] under = new double[run];
    int m = 0;
    for (int j = perShare.length - run; j < perShare.length; j++) {
      if (perShare[j] < bar) {
        under[m++] = perShare[j];
      }
    }
    return Robust.median(Arrays.copyOf(under, m));
  }

  /**
   * @param flows flows of one link
   * @return the bytes they carried over the time at least one of them was active (start to last
   *     byte), bytes/s
   */
  private static double carried(List<MeasuredFlow> flows) {
    List<MeasuredFlow> byStart = new ArrayList<>(flows);
    byStart.sort(Comparator.comparingLong(MeasuredFlow::startMs));
    long busyMs = 0;
    long coveredTo = Long.MIN_VALUE;
    long bytes = 0;
    for (MeasuredFlow f : byStart) {
      bytes += f.bytes();
      long s = Math.max(f.startMs(), coveredTo);
      if (f.endMs() > s) {
        busyMs += f.endMs() - s;
        coveredTo = f.endMs();
      }
    }
    return busyMs == 0 ? 0 : bytes * 1000.0 / busyMs;
  }

  /** Kind of a flow that is its host pair's first. */
  private static final int FIRST = 1;

  /** Kind of a flow on a host pair that carried an earlier flow. */
  private static final int LATER = 0;

  /**
   * @return d - slope x over the flows of one kind
   */
  private static double[] residuals(Robust.Line line, double[] x, double[] d, int[] kind, int of) {
    double[] r = new double[x.length];
    int m = 0;
    for (int j = 0; j < x.length; j++) {
      if (kind[j] == of) {
        r[m++] = d[j] - line.slope() * x[j];
      }
    }
    return Arrays.copyOf(r, m);
  }

  private static double[] toArray(List<Double> v) {
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i);
    }
    return out;
  }
}
