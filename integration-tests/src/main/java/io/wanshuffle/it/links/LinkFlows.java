package io.wanshuffle.it.links;

import io.wanshuffle.spark.capture.FlowCapture;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * How many flows held each link at once, measured from realised flows (the plugin's flow log,
 * {@code flows.csv}): a flow holds every link of its route ({@link TopologyLinks#route}) over
 * [{@code startMs}, {@link FlowCapture#heldUntilMs()}), the time it held its ports in the
 * coordinator's count; several tasks fetching over the same (source, destination) pair at the same
 * time count as one flow, as the coordinator counts them; or, {@link #maxFlowsOnTheWire}, over
 * [{@code startMs}, {@code endMs}), until the flow's last block arrived (a flow handed on ahead of
 * its end, by predicted hand-over or reported stalled, still has bytes to send after it).
 * Zero-length intervals are ignored. A sweep over the 2n interval ends: O(n log n + n x route
 * length).
 */
public final class LinkFlows {
  private LinkFlows() {}

  /**
   * @param flows realised flows, any order (pass only gated ones, {@code stepId > 0}, to check the
   *     step contract)
   * @param model the links and routes
   * @return per link that some flow held, the most flows that held it at one instant, in {@link
   *     TopologyLinks#links()} order
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the topology does not
   *     know
   */
  public static Map<String, Integer> maxFlows(Collection<FlowCapture> flows, TopologyLinks model) {
    return maxFlowsOfApps(List.of(flows), model);
  }

  /**
   * The same over several applications' flow logs at once (applications running together on one
   * testbed; their clocks are the machine's): a pair's flows count once per application, two
   * applications' flows on the same pair as two.
   *
   * @param apps per application, its realised flows, any order
   * @param model the links and routes
   * @return per link that some flow held, the most flows of all the applications together that held
   *     it at one instant, in {@link TopologyLinks#links()} order
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the topology does not
   *     know
   */
  public static Map<String, Integer> maxFlowsOfApps(
      List<? extends Collection<FlowCapture>> apps, TopologyLinks model) {
    return sweep(apps, model, FlowCapture::heldUntilMs);
  }

  /**
   * The most flows with bytes on the wire on each link at once: each flow counted from its start to
   * its last block's arrival ({@code endMs}), whether or not its ports were handed on earlier.
   * After an outage, a flow reported stalled and the flow granted in its place both send: this
   * count shows them, {@link #maxFlows} does not.
   *
   * @param flows realised flows, any order
   * @param model the links and routes
   * @return per link that some flow crossed, the most flows on the wire at one instant, in {@link
   *     TopologyLinks#links()} order
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the topology does not
   *     know
   */
  public static Map<String, Integer> maxFlowsOnTheWire(
      Collection<FlowCapture> flows, TopologyLinks model) {
    return sweep(List.of(flows), model, FlowCapture::endMs);
  }

  private static Map<String, Integer> sweep(
      List<? extends Collection<FlowCapture>> apps,
      TopologyLinks model,
      ToLongFunction<FlowCapture> end) {
    List<long[]> events = new ArrayList<>(); // time, +1/-1, pair index
    Map<String, Integer> pairIndex = new HashMap<>();
    List<List<String>> pairRoutes = new ArrayList<>();
    for (int app = 0; app < apps.size(); app++) {
      for (FlowCapture f : apps.get(app)) {
        long until = end.applyAsLong(f);
        if (until <= f.startMs()) {
          continue;
        }
        String key = app + "\u0000" + f.srcHost() + "\u0000" + f.dstHost();
        Integer idx = pairIndex.get(key);
        if (idx == null) {
          idx = pairRoutes.size();
          pairIndex.put(key, idx);
          pairRoutes.add(model.route(f.srcHost(), f.dstHost()));
        }
        events.add(new long[] {f.startMs(), 1, idx});
        events.add(new long[] {until, -1, idx});
      }
    }
    // ends before starts at the same instant: [a,b) and [b,c) do not overlap
    events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    int[] openPerPair = new int[pairRoutes.size()];
    Map<String, Integer> open = new HashMap<>();
    Map<String, Integer> max = new HashMap<>();
    for (long[] e : events) {
      int p = (int) e[2];
      if (e[1] > 0) {
        if (openPerPair[p]++ == 0) {
          for (String l : pairRoutes.get(p)) {
            max.merge(l, open.merge(l, 1, Integer::sum), Math::max);
          }
        }
      } else if (--openPerPair[p] == 0) {
        for (String l : pairRoutes.get(p)) {
          open.merge(l, -1, Integer::sum);
        }
      }
    }
    Map<String, Integer> ordered = new LinkedHashMap<>();
    model.links().keySet().stream()
        .filter(max::containsKey)
        .forEach(l -> ordered.put(l, max.get(l)));
    return ordered;
  }
}
