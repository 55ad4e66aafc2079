package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import java.util.ArrayList;
import java.util.List;

/**
 * Enumerates the maximal valid matchings of a small traffic graph: sets of edges with at most k
 * edges and at most δ(v) edges at every node v (δ-port model, DGGP paper sec. 2), to which no
 * further edge can be added without breaking one of these limits. Edge e is bit e of an {@code int}
 * mask, so graphs have at most 31 edges; the exact solver keeps far below that.
 *
 * <p>Plain include/exclude search over the edges: O(2^m · m) time.
 */
final class MaximalMatchings {
  private final int[] src;
  private final int[] dst;
  private final Platform platform;
  private final int limit;
  private final int[] senderUse;
  private final int[] receiverUse;
  private final List<Integer> found = new ArrayList<>();
  private boolean overflow;

  private MaximalMatchings(int[] src, int[] dst, Platform platform, int limit) {
    this.src = src;
    this.dst = dst;
    this.platform = platform;
    this.limit = limit;
    this.senderUse = new int[platform.senders()];
    this.receiverUse = new int[platform.receivers()];
  }

  /**
   * @param src sender of each edge
   * @param dst receiver of each edge (distinct pairs), at most 31 edges
   * @param platform k and δ
   * @param limit stop after this many matchings
   * @return the masks of all maximal valid matchings, or null if there are more than {@code limit}
   */
  static int[] of(int[] src, int[] dst, Platform platform, int limit) {
    if (src.length > 31) {
      throw new IllegalArgumentException("at most 31 edges, got " + src.length);
    }
    MaximalMatchings e = new MaximalMatchings(src, dst, platform, limit);
    e.search(0, 0, 0);
    if (e.overflow) {
      return null;
    }
    return e.found.stream().mapToInt(Integer::intValue).toArray();
  }

  private boolean fits(int e, int size) {
    return size < platform.k()
        && senderUse[src[e]] < platform.senderPorts(src[e])
        && receiverUse[dst[e]] < platform.receiverPorts(dst[e]);
  }

  private void search(int e, int mask, int size) {
    if (overflow) {
      return;
    }
    if (e == src.length) {
      for (int x = 0; x < src.length; x++) {
        if ((mask & (1 << x)) == 0 && fits(x, size)) {
          return; // not maximal
        }
      }
      if (found.size() == limit) {
        overflow = true;
      } else {
        found.add(mask);
      }
      return;
    }
    if (fits(e, size)) {
      senderUse[src[e]]++;
      receiverUse[dst[e]]++;
      search(e + 1, mask | (1 << e), size + 1);
      senderUse[src[e]]--;
      receiverUse[dst[e]]--;
    }
    search(e + 1, mask, size);
  }
}
