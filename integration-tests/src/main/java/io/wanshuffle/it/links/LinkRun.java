package io.wanshuffle.it.links;

import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.spark.capture.FlowCapture;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The links of one measured shuffle (a reduce stage): each link's load ({@link LinkLoad}) over the
 * stage, the stage's traffic matrix on the links (bytes per link / rate: its generalised physical
 * limit, {@link TopologyLinks#limit}), and its bottleneck links: those whose load / rate is within
 * 10 % of the limit.
 *
 * @param loads per link, its load during the stage
 * @param limit the generalised physical limit of the stage's traffic matrix
 * @param bottlenecks the bottleneck links, most loaded first
 * @param windows the window rule the run was planned under (what {@link #mostFlows()} marks a
 *     link's flows against)
 */
public record LinkRun(
    Map<String, LinkLoad> loads,
    TopologyLinks.Limit limit,
    List<String> bottlenecks,
    WindowBound.Rule windows) {

  /** The same with windows fixed at the links' capacities ({@link WindowBound.Rule#FIXED}). */
  public LinkRun(Map<String, LinkLoad> loads, TopologyLinks.Limit limit, List<String> bottlenecks) {
    this(loads, limit, bottlenecks, WindowBound.Rule.FIXED);
  }

  /**
   * @param rule the window rule the run was planned under
   * @return this run with it: {@link #mostFlows()} then marks a link against its window's bound
   */
  public LinkRun withWindows(WindowBound.Rule rule) {
    return new LinkRun(loads, limit, bottlenecks, rule);
  }

  /** Share of the limit above which a link is a bottleneck. */
  static final double BOTTLENECK_SHARE = 0.9;

  /**
   * @param model the testbed's links
   * @param bytes the stage's traffic matrix, {@code [senders][receivers]} bytes
   * @param senders host of each row
   * @param receivers host of each column
   * @param gatedFlows the stage's gated flows, or null for a run without them (Spark's default
   *     shuffle)
   * @param trace the links' counters around the run, or null (loopback testbed)
   * @param fromMs the stage's start, epoch ms
   * @param toMs its end, epoch ms
   * @return the stage's links
   */
  public static LinkRun of(
      TopologyLinks model,
      long[][] bytes,
      List<String> senders,
      List<String> receivers,
      Collection<FlowCapture> gatedFlows,
      LinkTrace trace,
      long fromMs,
      long toMs) {
    Map<String, LinkLoad> loads =
        LinkLoad.of(model, gatedFlows, trace, List.of(new long[] {fromMs, toMs}));
    TopologyLinks.Limit limit = model.limit(bytes, senders, receivers);
    Map<String, Double> seconds = new LinkedHashMap<>();
    model
        .loadBytes(bytes, senders, receivers)
        .forEach((l, b) -> seconds.put(l, b / (double) model.links().get(l).rate()));
    List<String> bottlenecks =
        seconds.entrySet().stream()
            .filter(e -> limit.seconds() > 0 && e.getValue() >= BOTTLENECK_SHARE * limit.seconds())
            .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
            .map(Map.Entry::getKey)
            .toList();
    return new LinkRun(loads, limit, bottlenecks);
  }

  /**
   * @return {@code maxFlows / capacity link} of the link with the most flows against the most its
   *     window may reach under the run's rule ({@link #windows()}), that bound in brackets where it
   *     is above the capacity ({@code (window <= N)}), {@code ABOVE} when over it; "-" without
   *     gated flows
   */
  public String mostFlows() {
    return mostFlows(loads, windows);
  }

  /**
   * @param loads per link name, its load in a run
   * @return {@code maxFlows / capacity link} of the link with the most flows against its capacity
   *     ({@code ABOVE} when over), or "-" without gated flows
   */
  public static String mostFlows(Map<String, LinkLoad> loads) {
    return mostFlows(loads, WindowBound.Rule.FIXED);
  }

  private static String mostFlows(Map<String, LinkLoad> loads, WindowBound.Rule rule) {
    Map.Entry<String, LinkLoad> most = null;
    double mostShare = -1;
    for (Map.Entry<String, LinkLoad> e : loads.entrySet()) {
      LinkLoad l = e.getValue();
      if (l.flowsOverCapacity() != null) {
        double share = l.maxFlows() / (double) rule.mostFlows(e.getKey(), l.capacityFlows());
        // the link nearest its bound; among equals the one most over its capacity, then the first
        if (share > mostShare
            || (share == mostShare
                && l.flowsOverCapacity() > most.getValue().flowsOverCapacity())) {
          most = e;
          mostShare = share;
        }
      }
    }
    if (most == null) {
      return "-";
    }
    LinkLoad l = most.getValue();
    int bound = rule.mostFlows(most.getKey(), l.capacityFlows());
    return l.maxFlows()
        + " / "
        + l.capacityFlows()
        + " "
        + most.getKey()
        + (bound > l.capacityFlows() ? " (window <= " + bound + ")" : "")
        + (l.maxFlows() > bound ? " ABOVE" : "");
  }

  /**
   * @return {@code wireFlows / capacity link} of the link with the most gated flows on the wire
   *     against its capacity ({@link LinkLoad#wireFlows}: each flow until its last block arrived,
   *     also after its ports were handed on), the first such link among equals; "-" without gated
   *     flows
   */
  public String mostOnTheWire() {
    Map.Entry<String, LinkLoad> most = null;
    for (Map.Entry<String, LinkLoad> e : loads.entrySet()) {
      Double share = e.getValue().wireFlowsOverCapacity();
      if (share != null && (most == null || share > most.getValue().wireFlowsOverCapacity())) {
        most = e;
      }
    }
    if (most == null) {
      return "-";
    }
    LinkLoad l = most.getValue();
    return l.wireFlows() + " / " + l.capacityFlows() + " " + most.getKey();
  }

  /**
   * @return the largest flows on the wire / capacity over the links, or null without gated flows
   */
  public Double maxWireFlowsOverCapacity() {
    return LinkLoad.largest(loads, LinkLoad::wireFlowsOverCapacity);
  }

  /**
   * @return the largest flows / capacity over the links, or null without gated flows
   */
  public Double maxFlowsOverCapacity() {
    return LinkLoad.maxFlowsOverCapacity(loads);
  }

  /**
   * @return the link of the highest measured utilisation, if any was measured
   */
  public Optional<Map.Entry<String, LinkLoad>> busiest() {
    return LinkLoad.busiest(loads);
  }

  /**
   * @param link a link's name
   * @return its measured utilisation during the stage, or null when not measured
   */
  public Double utilisation(String link) {
    LinkLoad l = loads.get(link);
    return l == null ? null : l.utilisation();
  }

  /**
   * @return packets the tbfs of every link dropped over the run, or null when nothing was measured
   */
  public Long drops() {
    return loads.values().stream()
        .map(LinkLoad::drops)
        .filter(d -> d != null)
        .reduce(Long::sum)
        .orElse(null);
  }

  /**
   * @param link a link's name
   * @return the link and its measured utilisation, e.g. {@code rack.uplink[/A/rack0] 91%}
   */
  String withUtilisation(String link) {
    Double u = utilisation(link);
    return link + (u == null ? "" : String.format(Locale.ROOT, " %.0f%%", 100 * u));
  }

  /**
   * @return the bottleneck links with their measured utilisation, e.g. {@code rack.uplink[/A/rack0]
   *     91%, backbone.in[/B] 88%}; "-" without traffic
   */
  public String bottleneckUtilisation() {
    return bottlenecks.isEmpty()
        ? "-"
        : String.join(", ", bottlenecks.stream().map(this::withUtilisation).toList());
  }
}
