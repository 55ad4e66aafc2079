package io.wanshuffle.spark.capture;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * How many cross-cluster flows were open at once, measured from realised flows: the check of the
 * step contract "at most k flows cluster-wide and at most δ(h) per host at any instant". A flow is
 * a (source host, destination host) pair; several tasks fetching over the same pair at the same
 * time count as one flow, as the coordinator counts them. {@link #of} counts each {@link
 * FlowCapture} over the half-open interval [{@code startMs}, {@link FlowCapture#heldUntilMs()}),
 * the time it held its ports in the coordinator's count (the contract); {@link #onTheWire} over
 * [{@code startMs}, {@code endMs}), until its last block arrived, which with predicted hand-over
 * may pass the hand-over by the next flow's fetch latency (by design) or by a misprediction.
 * Zero-length intervals are ignored. Sweep over 2n interval ends: O(n log n).
 *
 * @param maxPairs most distinct pairs open at one instant
 * @param maxPerSender per sending host, most distinct pairs it sent on at one instant
 * @param maxPerReceiver per receiving host, most distinct pairs it received on at one instant
 */
public record FlowOverlap(
    int maxPairs, Map<String, Integer> maxPerSender, Map<String, Integer> maxPerReceiver) {

  /**
   * Measures the overlap of the given flows while they held their ports (pass only gated ones,
   * {@code stepId > 0}, to check the step contract).
   *
   * @param flows realised flows, any order
   * @return the maxima (all zero for no flows)
   */
  public static FlowOverlap of(Collection<FlowCapture> flows) {
    return sweep(flows, FlowCapture::heldUntilMs);
  }

  /**
   * Measures the overlap of the given flows from their request to their last block's arrival.
   *
   * @param flows realised flows, any order
   * @return the maxima (all zero for no flows)
   */
  public static FlowOverlap onTheWire(Collection<FlowCapture> flows) {
    return sweep(flows, FlowCapture::endMs);
  }

  private static FlowOverlap sweep(
      Collection<FlowCapture> flows, ToLongFunction<FlowCapture> endOf) {
    List<long[]> events = new ArrayList<>(); // time, +1/-1, pair index
    Map<String, Integer> pairIndex = new HashMap<>();
    List<String[]> pairs = new ArrayList<>();
    for (FlowCapture f : flows) {
      long until = endOf.applyAsLong(f);
      if (until <= f.startMs()) {
        continue;
      }
      String key = f.srcHost() + "\u0000" + f.dstHost();
      Integer idx = pairIndex.get(key);
      if (idx == null) {
        idx = pairs.size();
        pairIndex.put(key, idx);
        pairs.add(new String[] {f.srcHost(), f.dstHost()});
      }
      events.add(new long[] {f.startMs(), 1, idx});
      events.add(new long[] {until, -1, idx});
    }
    // ends before starts at the same instant: [a,b) and [b,c) do not overlap
    events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    int[] openPerPair = new int[pairs.size()];
    Map<String, Integer> sending = new HashMap<>();
    Map<String, Integer> receiving = new HashMap<>();
    Map<String, Integer> maxSend = new TreeMap<>();
    Map<String, Integer> maxRecv = new TreeMap<>();
    int open = 0;
    int max = 0;
    for (long[] e : events) {
      int p = (int) e[2];
      String[] pr = pairs.get(p);
      if (e[1] > 0) {
        if (openPerPair[p]++ == 0) {
          open++;
          int s = sending.merge(pr[0], 1, Integer::sum);
          int r = receiving.merge(pr[1], 1, Integer::sum);
          maxSend.merge(pr[0], s, Math::max);
          maxRecv.merge(pr[1], r, Math::max);
          max = Math.max(max, open);
        }
      } else if (--openPerPair[p] == 0) {
        open--;
        sending.merge(pr[0], -1, Integer::sum);
        receiving.merge(pr[1], -1, Integer::sum);
      }
    }
    return new FlowOverlap(max, maxSend, maxRecv);
  }
}
