package io.wanshuffle.spark.coordinator;

import java.util.HashMap;
import java.util.Map;

/**
 * The throttle: counts open cross-cluster flows (one per granted host pair per step) in total and
 * per host, sending and receiving separately, so that the coordinator never opens more than k
 * flows at once across the application, nor more than δ(h) at one host. Not thread-safe: used
 * under the coordinator's lock.
 */
final class FlowLeases {
  private final Map<String, Integer> sending = new HashMap<>();
  private final Map<String, Integer> receiving = new HashMap<>();
  private int total;

  /** @return flows open now */
  int total() {
    return total;
  }

  /** @return flows host {@code h} sends now */
  int sending(String h) {
    return sending.getOrDefault(h, 0);
  }

  /** @return flows host {@code h} receives now */
  int receiving(String h) {
    return receiving.getOrDefault(h, 0);
  }

  /** Opens one flow src → dst. */
  void open(String src, String dst) {
    sending.merge(src, 1, Integer::sum);
    receiving.merge(dst, 1, Integer::sum);
    total++;
  }

  /**
   * Closes one flow src → dst.
   *
   * @throws IllegalStateException if no such flow is open (a bookkeeping bug)
   */
  void close(String src, String dst) {
    if (sending(src) <= 0 || receiving(dst) <= 0 || total <= 0) {
      throw new IllegalStateException("no open flow " + src + " -> " + dst);
    }
    decrement(sending, src);
    decrement(receiving, dst);
    total--;
  }

  private static void decrement(Map<String, Integer> m, String h) {
    int v = m.get(h) - 1;
    if (v == 0) {
      m.remove(h);
    } else {
      m.put(h, v);
    }
  }
}
