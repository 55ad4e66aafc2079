package io.wanshuffle.it.links;

import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.scheduler.topology.Link;
import io.wanshuffle.spark.capture.FlowCapture;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One link's load in one run: its capacity in the topology, the most flows that held it at once
 * (the plugin's flow log), and what its counters measured from outside Spark over the run's window
 * (bytes, utilisation, 1 s peak, tbf drops). A figure that was not measured is null: flows without
 * a gated flow log (Spark's default shuffle), counters on the loopback testbed, capacity for a link
 * the topology leaves unconstrained ({@code none}).
 *
 * @param capacityFlows flows the link carries at once, its rate / the base speed ({@link
 *     TopologyLinks#capacityFlows}); null for a measured link with no rate in the topology
 * @param maxFlows most gated flows that held it at one instant ({@link LinkFlows}); null without a
 *     gated flow log, 0 when none crossed it
 * @param bytes bytes its counter carried during the window (Ethernet frame bytes)
 * @param utilisation {@code bytes} / (rate x the window's length), 0..1 (a little above 1 by the
 *     tbf burst); null without counters or rate
 * @param peakBitsPerSecond its highest rate over any 1 s window of the recording, bits/s
 * @param drops packets its tbf dropped over the recording (null when not shaped or not measured)
 * @param wireFlows most gated flows with bytes on the wire on it at one instant, each from its
 *     start to its last block's arrival ({@link LinkFlows#maxFlowsOnTheWire}: a flow handed on
 *     before its end still counts); null without a gated flow log
 */
public record LinkLoad(
    Integer capacityFlows,
    Integer maxFlows,
    Long bytes,
    Double utilisation,
    Double peakBitsPerSecond,
    Long drops,
    Integer wireFlows) {

  /** The same without the flows on the wire. */
  public LinkLoad(
      Integer capacityFlows,
      Integer maxFlows,
      Long bytes,
      Double utilisation,
      Double peakBitsPerSecond,
      Long drops) {
    this(capacityFlows, maxFlows, bytes, utilisation, peakBitsPerSecond, drops, null);
  }

  /**
   * @return {@code wireFlows / capacityFlows}, or null when either is unknown
   */
  public Double wireFlowsOverCapacity() {
    return wireFlows == null || capacityFlows == null ? null : wireFlows / (double) capacityFlows;
  }

  /**
   * @return {@code maxFlows / capacityFlows}, or null when either is unknown
   */
  public Double flowsOverCapacity() {
    return maxFlows == null || capacityFlows == null ? null : maxFlows / (double) capacityFlows;
  }

  /**
   * Every link's load in one run.
   *
   * @param model the topology's links and capacities
   * @param gatedFlows the run's gated flows (step id &gt; 0), or null when the run had no flow log
   *     (Spark's default shuffle); an empty list for a run whose flows were all ungated
   * @param trace the links' counters over the run, or null (loopback testbed)
   * @param windows the intervals the bytes and utilisation cover, each {from, to} epoch ms (e.g.
   *     the reduce stage); when empty, the whole recording
   * @return per link, the model's links first in their order, then the measured links the model has
   *     no rate for
   */
  public static Map<String, LinkLoad> of(
      TopologyLinks model,
      Collection<FlowCapture> gatedFlows,
      LinkTrace trace,
      List<long[]> windows) {
    Map<String, Integer> flows = gatedFlows == null ? null : LinkFlows.maxFlows(gatedFlows, model);
    Map<String, Integer> wire =
        gatedFlows == null ? null : LinkFlows.maxFlowsOnTheWire(gatedFlows, model);
    List<String> names = new ArrayList<>(model.links().keySet());
    if (trace != null) {
      trace.links().stream().filter(l -> !model.links().containsKey(l)).forEach(names::add);
    }
    Map<String, LinkLoad> out = new LinkedHashMap<>();
    for (String name : names) {
      Link l = model.links().get(name);
      Integer cap = l == null ? null : model.capacityFlows(name);
      Integer max = flows == null ? null : flows.getOrDefault(name, 0);
      Integer onWire = wire == null ? null : wire.getOrDefault(name, 0);
      Long bytes = null;
      Double util = null;
      Double peak = null;
      Long drops = null;
      if (trace != null && trace.series().containsKey(name)) {
        LinkTrace.Series s = trace.of(name);
        long b = 0;
        double secs = 0;
        if (windows.isEmpty()) {
          b = s.totalBytes();
          secs = (s.epochMillis()[s.epochMillis().length - 1] - s.epochMillis()[0]) / 1000.0;
        }
        for (long[] w : windows) {
          b += s.bytes(w[0], w[1]);
          secs += (w[1] - w[0]) / 1000.0;
        }
        bytes = b;
        util = l == null || secs <= 0 ? null : b / (l.rate() * secs);
        peak = s.peakBitsPerSecond(1000);
        drops = s.drops() < 0 ? null : s.drops();
      }
      out.put(name, new LinkLoad(cap, max, bytes, util, peak, drops, onWire));
    }
    return out;
  }

  /**
   * @param loads a run's links
   * @return the largest {@link #flowsOverCapacity()} over the links (at most 1 when the per-link
   *     contract held), or null when no link has both figures (an ungated run)
   */
  public static Double maxFlowsOverCapacity(Map<String, LinkLoad> loads) {
    return largest(loads, LinkLoad::flowsOverCapacity);
  }

  /**
   * @param loads a run's links
   * @param figure a figure of a link, null when not known
   * @return the largest figure over the links, or null when no link has it
   */
  static Double largest(Map<String, LinkLoad> loads, Function<LinkLoad, Double> figure) {
    return loads.values().stream()
        .map(figure)
        .filter(x -> x != null)
        .max(Double::compare)
        .orElse(null);
  }

  /**
   * @param loads a run's links
   * @return the link of the highest utilisation, if any was measured and carried traffic
   */
  public static Optional<Map.Entry<String, LinkLoad>> busiest(Map<String, LinkLoad> loads) {
    return loads.entrySet().stream()
        .filter(e -> e.getValue().utilisation() != null && e.getValue().utilisation() > 0)
        .max(Comparator.comparing(e -> e.getValue().utilisation()));
  }
}
