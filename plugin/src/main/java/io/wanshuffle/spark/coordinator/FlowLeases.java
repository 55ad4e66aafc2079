package io.wanshuffle.spark.coordinator;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The throttle: counts open cross-cluster flows (one per granted host pair per step) in total, per
 * direction of the backbone and per host, sending and receiving separately, and answers whether a
 * flow fits: at most k flows at once in one direction of the backbone (cluster of the source to
 * cluster of the destination: the backbone is full duplex, KPBS per direction, GGP/OGGP paper sec.
 * 2), at most δ(h) at one host in each direction of its NIC (the δ-port model, DGGP paper sec. 2).
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
final class FlowLeases {
  /**
   * A direction of the backbone: cluster of a flow's source to cluster of its destination.
   *
   * @param from the source's cluster
   * @param to the destination's cluster
   */
  record Direction(String from, String to) {}

  private final int k;
  private final ToIntFunction<String> delta;
  private final Function<String, String> clusterOf;
  private final Map<String, Integer> sending = new HashMap<>();
  private final Map<String, Integer> receiving = new HashMap<>();
  private final Map<Direction, Integer> byDirection = new HashMap<>();
  private final Map<HostPair, Integer> byPair = new HashMap<>();
  private int total;

  /**
   * @param k most flows at once per direction of the backbone, at least 1
   * @param delta δ(h): most flows one host sends (and, separately, receives) at once
   * @param clusterOf cluster (site) of a host, the first component of its topology path; never
   *     returns null
   * @throws IllegalArgumentException if k is below 1
   */
  FlowLeases(int k, ToIntFunction<String> delta, Function<String, String> clusterOf) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    this.k = k;
    this.delta = Objects.requireNonNull(delta, "delta");
    this.clusterOf = Objects.requireNonNull(clusterOf, "clusterOf");
  }

  /**
   * @return k, most flows per direction of the backbone
   */
  int k() {
    return k;
  }

  /**
   * @param h a host
   * @return δ(h), most flows the host sends (or receives) at once
   */
  int delta(String h) {
    return delta.applyAsInt(h);
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
   * @return true when direction {@code d} of the backbone carries k flows
   */
  boolean full(Direction d) {
    return total(d) >= k;
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

  /**
   * @return flows host {@code h} may still send: δ(h) minus the flows it sends
   */
  int freeSend(String h) {
    return delta(h) - sending(h);
  }

  /**
   * @return flows host {@code h} may still receive: δ(h) minus the flows it receives
   */
  int freeReceive(String h) {
    return delta(h) - receiving(h);
  }

  /** Opens one flow src → dst. */
  void open(String src, String dst) {
    sending.merge(src, 1, Integer::sum);
    receiving.merge(dst, 1, Integer::sum);
    byDirection.merge(direction(src, dst), 1, Integer::sum);
    byPair.merge(new HostPair(src, dst), 1, Integer::sum);
    total++;
  }

  /**
   * Closes one flow src → dst.
   *
   * @throws IllegalStateException if no such flow is open (a bookkeeping bug)
   */
  void close(String src, String dst) {
    Direction direction = direction(src, dst);
    HostPair pair = new HostPair(src, dst);
    if (!byPair.containsKey(pair)) {
      throw new IllegalStateException(
          "no open flow " + src + " -> " + dst + " (" + direction + ")");
    }
    decrement(byPair, pair);
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
