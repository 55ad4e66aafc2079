package io.wanshuffle.spark.coordinator;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The throttle: counts open cross-cluster flows (one per granted host pair per step) in total, per
 * direction of the backbone and per host, sending and receiving separately, so that the coordinator
 * never opens more than k flows at once in one direction, nor more than δ(h) at one host. Not
 * thread-safe: used under the coordinator's lock.
 */
final class FlowLeases {
  /** A direction of the backbone: cluster of a flow's source to cluster of its destination. */
  record Direction(String from, String to) {}

  private final Map<String, Integer> sending = new HashMap<>();
  private final Map<String, Integer> receiving = new HashMap<>();
  private final Map<Direction, Integer> byDirection = new HashMap<>();
  private Function<String, String> clusterOf = h -> "";
  private int total;

  /**
   * Sets the cluster of each host; until then every host is in one cluster (one direction).
   *
   * @param clusterOf cluster name of a host, never null
   */
  void useClusters(Function<String, String> clusterOf) {
    this.clusterOf = Objects.requireNonNull(clusterOf, "clusterOf");
  }

  /**
   * @return the direction of a flow src → dst
   */
  Direction direction(String src, String dst) {
    return new Direction(clusterOf.apply(src), clusterOf.apply(dst));
  }

  /**
   * @return whether two hosts are in the same cluster
   */
  boolean sameCluster(String a, String b) {
    return clusterOf.apply(a).equals(clusterOf.apply(b));
  }

  /**
   * @return flows open now, all directions
   */
  int total() {
    return total;
  }

  /**
   * @return flows open now in direction {@code d}
   */
  int total(Direction d) {
    return byDirection.getOrDefault(d, 0);
  }

  /**
   * @return flows host {@code h} sends now
   */
  int sending(String h) {
    return sending.getOrDefault(h, 0);
  }

  /**
   * @return flows host {@code h} receives now
   */
  int receiving(String h) {
    return receiving.getOrDefault(h, 0);
  }

  /** Opens one flow src → dst. */
  void open(String src, String dst) {
    sending.merge(src, 1, Integer::sum);
    receiving.merge(dst, 1, Integer::sum);
    byDirection.merge(direction(src, dst), 1, Integer::sum);
    total++;
  }

  /**
   * Closes one flow src → dst.
   *
   * @throws IllegalStateException if no such flow is open (a bookkeeping bug)
   */
  void close(String src, String dst) {
    Direction direction = direction(src, dst);
    if (sending(src) <= 0 || receiving(dst) <= 0 || total(direction) <= 0) {
      throw new IllegalStateException(
          "no open flow " + src + " -> " + dst + " (" + direction + ")");
    }
    decrement(sending, src);
    decrement(receiving, dst);
    decrement(byDirection, direction);
    total--;
  }

  private static <K> void decrement(Map<K, Integer> m, K h) {
    int v = m.get(h) - 1;
    if (v == 0) {
      m.remove(h);
    } else {
      m.put(h, v);
    }
  }
}
