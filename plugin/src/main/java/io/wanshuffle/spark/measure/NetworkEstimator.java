package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
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
 * Wagner, sec. 2): the n(t) flows crossing a link at instant t share its rate R equally; a gated
 * flow of B bytes granted at g starts at s and ends at e = s + a + B n̄ / R on its bottleneck link,
 * where n̄ is the flow's mean sharing count there ({@link LinkSharing}) and a the time a flow
 * spends beyond its bytes at its share: the request's round trip and TCP's ramp.
 *
 * <ul>
 *   <li><b>Rate of link l.</b> Over the flows crossing l (the most recent {@value #FIT_FLOWS}), x =
 *       B n̄ (bytes at the flow's share) against its active time d = e - s: when there are at least
 *       {@value #MIN_FIT_FLOWS} flows and their x spread (90th over 10th percentile at least
 *       {@value #MIN_SPREAD}), R = 1 / slope of the Theil-Sen fit of d against x (pairs whose x
 *       differ by at least a tenth of the median x); otherwise R = median of x / d. The rate is
 *       what the link achieved for its flows: its capacity where it was their bottleneck, less
 *       where another link held them back.
 *   <li><b>Ramp a.</b> The median over flows of d - x / R on the flow's bottleneck link (the link
 *       of its route with the largest x / R), at least 0.
 *   <li><b>β.</b> The median over gated flows of s - g (the grant's trip to the task) plus a: from
 *       a grant to the flow running at its share.
 * </ul>
 *
 * Medians and the Theil-Sen fit keep stragglers (slow flows, a lost executor's partial flows) from
 * moving the estimates. Flows without bytes or with no active time are left out. O(F log F + L P²)
 * for F flows on L links, P = {@value #FIT_FLOWS}.
 */
public final class NetworkEstimator {
  /** Most flows per link that the Theil-Sen fit uses (the most recent). */
  public static final int FIT_FLOWS = 200;

  /** Fewest flows on a link for a fit. */
  public static final int MIN_FIT_FLOWS = 5;

  /** Least spread of the flows' bytes at share (90th over 10th percentile) for a fit. */
  public static final double MIN_SPREAD = 1.5;

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
    Map<String, List<Integer>> byLink = new LinkedHashMap<>();
    List<List<String>> routeOf = new ArrayList<>();
    for (int i = 0; i < used.size(); i++) {
      List<String> r = routes.links(used.get(i).srcHost(), used.get(i).dstHost());
      routeOf.add(r);
      for (String l : r) {
        byLink.computeIfAbsent(l, x -> new ArrayList<>()).add(i);
      }
    }
    Map<String, LinkRate> rates = new HashMap<>();
    // bytes at share, x, per (flow, link)
    Map<String, double[]> atShare = new HashMap<>();
    for (Map.Entry<String, List<Integer>> e : byLink.entrySet()) {
      List<Integer> idx = e.getValue();
      List<MeasuredFlow> on = new ArrayList<>(idx.size());
      for (int i : idx) {
        on.add(used.get(i));
      }
      double[] share = LinkSharing.shareSeconds(on);
      double[] x = new double[used.size()];
      double[] xs = new double[on.size()];
      double[] d = new double[on.size()];
      for (int j = 0; j < on.size(); j++) {
        MeasuredFlow f = on.get(j);
        d[j] = f.activeSeconds();
        xs[j] = f.bytes() * d[j] / share[j];
        x[idx.get(j)] = xs[j];
      }
      atShare.put(e.getKey(), x);
      rates.put(e.getKey(), rate(e.getKey(), xs, d));
    }
    List<Double> ramps = new ArrayList<>();
    List<Double> grants = new ArrayList<>();
    for (int i = 0; i < used.size(); i++) {
      MeasuredFlow f = used.get(i);
      double atBottleneck = 0;
      for (String l : routeOf.get(i)) {
        atBottleneck = Math.max(atBottleneck, atShare.get(l)[i] / rates.get(l).bytesPerSecond());
      }
      ramps.add(f.activeSeconds() - atBottleneck);
      if (f.gated()) {
        grants.add(Math.max(0, f.startMs() - f.grantedAtMs()) / 1000.0);
      }
    }
    double ramp = Math.max(0, Robust.median(toArray(ramps)));
    double grant = grants.isEmpty() ? Double.NaN : Robust.median(toArray(grants));
    return new NetworkEstimate(grant + ramp, grant, ramp, rates, used.size());
  }

  /** The rate of one link from its flows' bytes at share x and active seconds d (class doc). */
  private static LinkRate rate(String link, double[] x, double[] d) {
    int n = x.length;
    int from = Math.max(0, n - FIT_FLOWS);
    double[] fx = java.util.Arrays.copyOfRange(x, from, n);
    double[] fd = java.util.Arrays.copyOfRange(d, from, n);
    if (fx.length >= MIN_FIT_FLOWS
        && Robust.quantile(fx, 0.9) >= MIN_SPREAD * Robust.quantile(fx, 0.1)) {
      Robust.Line line = Robust.theilSen(fx, fd, 0.1 * Robust.median(fx));
      if (line != null && line.slope() > 0) {
        return new LinkRate(link, 1 / line.slope(), fx.length, true);
      }
    }
    double[] r = new double[fx.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = fx[i] / fd[i];
    }
    return new LinkRate(link, Robust.median(r), fx.length, false);
  }

  private static double[] toArray(List<Double> v) {
    double[] out = new double[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i);
    }
    return out;
  }
}
