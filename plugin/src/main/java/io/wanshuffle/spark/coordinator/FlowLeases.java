package io.wanshuffle.spark.coordinator;

import java.util.HashMap;
import java.util.Map;

/**
 * The throttle: counts open cross-cluster flows (one per granted host pair per step) in total, per
 * direction of the backbone and per host, sending and receiving separately, so that the
 * coordinator never opens more than k flows at once in one direction, nor more than δ(h) at one
 * host. Not thread-safe: used under the coordinator's lock.
 */
final class FlowLeases {
  private final Map<String, Integer> sending = new HashMap<>();
  private final Map<String, Integer> receiving = new HashMap<>();
  private final Map<String, Integer> byDirection = new HashMap<>();
  private int total;

  /** @return flows open now, all directions */
  int total() {
    return total;
  }

  /**
   * @param direction a direction key (source cluster to destination cluster)
   * @return flows open now in that direction
   */
  int total(String direction) {
    return byDirection.getOrDefault(direction, 0);
  }

  /** @return flows host {@code h} sends now */
  int sending(String h) {
    return sending.getOrDefault(h, 0);
  }

  /** @return flows host {@code h} receives now */
  int receiving(String h) {
    return receiving.getOrDefault(h, 0);
  }

  /** Opens one flow src → dst in {@code direction}. */
  void open(String src, String dst, String direction) {
    sending.merge(src, 1, Integer::sum);
    receiving.merge(dst, 1, Integer::sum);
    byDirection.merge(direction, 1, Integer::sum);
    total++;
  }

  /**
   * Closes one flow src → dst in {@code direction}.
   *
   * @throws IllegalStateException if no such flow is open (a bookkeeping bug)
   */
  void close(String src, String dst, String direction) {
    if (sending(src) <= 0 || receiving(dst) <= 0 || total(direction) <= 0) {
      throw new IllegalStateException("no open flow " + src + " -> " + dst + " (" + direction
          + ")");
    }
    decrement(sending, src);
    decrement(receiving, dst);
    decrement(byDirection, direction);
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
