package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates each link's achieved rate and the step setup delay β from realised flows.
 *
 * <p>Model (the fair-sharing model of the redistribution-prediction paper, Wagner and Jeannot,
 * INRIA RR-5361, sec. 3; β as the KPBS step setup delay, GGP/OGGP paper, Cohen, Jeannot, Padoy,
 * Wagner, sec. 2): a flow of B bytes requested at s and ending at e sends nothing for its lead a
 * (the request's round trip and TCP's ramp, the same for every flow of the network), then sends on
 * [s + a, e); the n(t) flows sending on a link at instant t share its rate R equally, so on its
 * bottleneck link e - s = a + B n̄ / R, where n̄ is the flow's mean sharing count over [s + a, e)
 * ({@link LinkSharing}). The share time σ = ∫ dt / n(t) over [s + a, e) then is B / R.
 *
 * <ul>
 *   <li><b>Lead a.</b> Found with the rates, from a = 0: per link whose flows (the most recent
 *       {@value #FIT_FLOWS}, at least {@value #MIN_FIT_FLOWS}) differ in size (bytes' 90th over
 *       10th percentile at least {@value #MIN_SPREAD}), the intercept of the Theil-Sen fit of the
 *       active time d = e - s against the bytes at share x = B n̄, over the pairs of flows whose
 *       bytes differ by at least a tenth of their median (pairs that differ only in n̄ say nothing
 *       of a link that was not their bottleneck); a = the median of those intercepts over the
 *       links, at least 0, or 0 when no link has such flows. n(t) is counted again with the new a
 *       until a moves by less than 1 ms (at most {@value #MAX_ROUNDS} rounds). Counting a flow from
 *       its request instead would add, on a long round trip, the next flow's idle first round trips
 *       to n(t) of every link it crosses and inflate x and the rate.
 *   <li><b>Rate of link l.</b> Over its flows (the most recent {@value #FIT_FLOWS}), each flow's
 *       bytes per share time B / σ: R where l was the flow's bottleneck, less where the flow was
 *       held back (by another link, a straggling task, TCP's loss recovery on a fresh connection);
 *       nothing in the model puts it above R but an error in a on a flow not much longer than a. So
 *       R = the {@value #RATE_QUANTILE} quantile of B / σ over the flows that sent for at least a
 *       (d ≥ 2a), robust to up to three quarters of held-back flows; with fewer than {@value
 *       #MIN_FIT_FLOWS} such flows, the median of B / σ over all. It is what the link achieved for
 *       its flows: its capacity where it was their bottleneck, less where every flow was held back
 *       elsewhere.
 *   <li><b>Ramp.</b> The lead a.
 *   <li><b>β.</b> The median over gated flows of s - g (the grant's trip to the task, g the grant)
 *       plus a: from a grant to the flow running at its share.
 * </ul>
 *
 * Medians, the upper quartile and the Theil-Sen fit keep stragglers (slow flows, a lost executor's
 * partial flows) from moving the estimates. Flows without bytes or with no active time are left
 * out. O(M (F log F + L P²)) for F flows on L links, P = {@value #FIT_FLOWS}, M = {@value
 * #MAX_ROUNDS}.
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
    List<List<String>> linksOf = new ArrayList<>(used.size());
    for (int i = 0; i < used.size(); i++) {
      MeasuredFlow f = used.get(i);
      List<String> links = routes.links(f.srcHost(), f.dstHost());
      linksOf.add(links);
      for (String l : links) {
        byLink.computeIfAbsent(l, x -> new ArrayList<>()).add(i);
      }
    }
    Round round = round(used, first, byLink, 0, 0);
    for (int r = 1;
        r < MAX_ROUNDS
            && (Math.abs(round.leadMs - round.usedLeadMs) >= 1
                || Math.abs(round.firstLeadMs - round.usedFirstLeadMs) >= 1);
        r++) {
      round = round(used, first, byLink, round.leadMs, round.firstLeadMs);
    }
    List<Double> grants = new ArrayList<>();
    for (MeasuredFlow f : used) {
      if (f.gated()) {
        grants.add(Math.max(0, f.startMs() - f.grantedAtMs()) / 1000.0);
      }
    }
    double ramp = round.usedLeadMs / 1000.0;
    double grant = grants.isEmpty() ? Double.NaN : Robust.median(toArray(grants));
    return new NetworkEstimate(
        grant + ramp, grant, ramp, round.rates, used.size(), round.firstLeadMs / 1000.0);
  }

  /**
   * @param flows flows by end
   * @return per flow, whether it started first among the flows of its host pair (the earliest
   *     request; of equal requests, the earliest end)
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
   * One round: each link's rate with n(t) counted from each flow's request plus its lead (a host
   * pair's first flow its own), and the leads those counts give (class doc).
   *
   * @param usedLeadMs the lead of a later flow the round counted with, ms
   * @param usedFirstLeadMs the lead of a first flow the round counted with, ms
   * @param leadMs the lead of a later flow the round's fit gives, ms
   * @param firstLeadMs the lead of a host pair's first flow the round's rates give, ms
   */
  private record Round(
      Map<String, LinkRate> rates,
      long usedLeadMs,
      long usedFirstLeadMs,
      long leadMs,
      long firstLeadMs) {}

  private static Round round(
      List<MeasuredFlow> used,
      boolean[] first,
      Map<String, List<Integer>> byLink,
      long leadMs,
      long firstLeadMs) {
    Map<String, LinkRate> rates = new HashMap<>();
    List<Double> laterIntercepts = new ArrayList<>();
    List<Double> allIntercepts = new ArrayList<>();
    // per flow, the longest time at share over its links' rates: x / R on its bottleneck
    double[] atShare = new double[used.size()];
    for (Map.Entry<String, List<Integer>> e : byLink.entrySet()) {
      List<Integer> idx = e.getValue();
      List<MeasuredFlow> on = new ArrayList<>(idx.size());
      long[] leads = new long[idx.size()];
      for (int j = 0; j < idx.size(); j++) {
        on.add(used.get(idx.get(j)));
        leads[j] = first[idx.get(j)] ? firstLeadMs : leadMs;
      }
      double[] share = LinkSharing.shareSeconds(on, leads);
      int from = Math.max(0, on.size() - FIT_FLOWS);
      int n = on.size() - from;
      double[] bytes = new double[n];
      double[] x = new double[n];
      double[] d = new double[n];
      double[] perShare = new double[n];
      double[] longPerShare = new double[n];
      double[] sentPerShare = new double[n];
      int longFlows = 0;
      int sent = 0;
      int later = 0;
      for (int j = 0; j < n; j++) {
        MeasuredFlow f = on.get(from + j);
        long lead = leads[from + j];
        long sendingMs = f.endMs() - LinkSharing.sendingFromMs(f, lead);
        double sh = share[from + j];
        bytes[j] = f.bytes();
        d[j] = f.activeSeconds();
        x[j] = f.bytes() * (sendingMs / 1000.0) / sh;
        perShare[j] = f.bytes() / sh;
        if (sendingMs >= lead) {
          longPerShare[longFlows++] = perShare[j];
        }
        if (f.endMs() - f.startMs() > lead) {
          sentPerShare[sent++] = perShare[j];
        }
        if (!first[idx.get(from + j)]) {
          later++;
        }
      }
      double rate =
          longFlows >= MIN_FIT_FLOWS
              ? Robust.quantile(Arrays.copyOf(longPerShare, longFlows), RATE_QUANTILE)
              : Robust.median(sent > 0 ? Arrays.copyOf(sentPerShare, sent) : perShare);
      for (int j = 0; j < n; j++) {
        int i = idx.get(from + j);
        atShare[i] = Math.max(atShare[i], x[j] / rate);
      }
      boolean fitted = fit(bytes, x, d, 0.1, allIntercepts);
      if (later > 0 && later < n) {
        double[] lb = new double[later];
        double[] lx = new double[later];
        double[] ld = new double[later];
        int m = 0;
        for (int j = 0; j < n; j++) {
          if (!first[idx.get(from + j)]) {
            lb[m] = bytes[j];
            lx[m] = x[j];
            ld[m++] = d[j];
          }
        }
        fit(lb, lx, ld, 0.25, laterIntercepts);
      } else if (later == n) {
        fit(bytes, x, d, 0.25, laterIntercepts);
      }
      rates.put(e.getKey(), new LinkRate(e.getKey(), rate, n, fitted));
    }
    List<Double> intercepts = laterIntercepts.isEmpty() ? allIntercepts : laterIntercepts;
    double lead = intercepts.isEmpty() ? 0 : Math.max(0, Robust.median(toArray(intercepts)));
    long nextLeadMs = Math.round(lead * 1000);
    long nextFirstLeadMs = nextLeadMs;
    if (!laterIntercepts.isEmpty()) {
      List<Double> firstLeads = new ArrayList<>();
      for (int i = 0; i < used.size(); i++) {
        if (first[i]) {
          firstLeads.add(used.get(i).activeSeconds() - atShare[i]);
        }
      }
      nextFirstLeadMs = Math.max(nextLeadMs, Math.round(1000 * Robust.median(toArray(firstLeads))));
    }
    return new Round(rates, leadMs, firstLeadMs, nextLeadMs, nextFirstLeadMs);
  }

  /**
   * Fits one link's active times against its flows' bytes at share when they differ in size (the
   * bytes' {@code 1 - q} quantile at least {@value #MIN_SPREAD} times their q quantile), and adds
   * the intercept to {@code intercepts}.
   *
   * @return true when it was fitted
   */
  private static boolean fit(
      double[] bytes, double[] x, double[] d, double q, List<Double> intercepts) {
    if (bytes.length < MIN_FIT_FLOWS
        || Robust.quantile(bytes, 1 - q) < MIN_SPREAD * Robust.quantile(bytes, q)) {
      return false;
    }
    Robust.Line line = Robust.theilSen(x, d, bytes, 0.1 * Robust.median(bytes));
    if (line == null || !(line.slope() > 0)) {
      return false;
    }
    intercepts.add(line.intercept());
    return true;
  }

  private static double[] toArray(List<Double> v) {
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i);
    }
    return out;
  }
}
