package io.wanshuffle.spark.coordinator.network;

import java.util.Arrays;

/**
 * How many flows the coordinator held on each link over time: per link, the integral of its count
 * of open flows, kept at its last {@value #CHANGES} changes, so that the mean number of flows a
 * link held over any recent interval is two look-ups ({@link #meanHeld}). Fed by {@link FlowLeases}
 * as flows open and close.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
final class LinkOccupancy {
  /** Changes kept per link: older intervals are measured from the oldest kept. */
  static final int CHANGES = 256;

  /** One link's changes in a ring: when, the integral then (flow x ms), the count after. */
  private static final class Ring {
    final long[] atMs = new long[CHANGES];
    final double[] area = new double[CHANGES];
    final int[] countAfter = new int[CHANGES];
    int size;
    int next;

    double areaAt(long t) {
      if (size == 0) {
        return 0;
      }
      // the last change at or before t (or the oldest kept)
      int newest = (next - 1 + CHANGES) % CHANGES;
      int oldest = (next - size + CHANGES) % CHANGES;
      int i = newest;
      for (int n = 0; n < size - 1 && atMs[i] > t; n++) {
        i = (i - 1 + CHANGES) % CHANGES;
      }
      if (i == oldest && atMs[i] > t) {
        return area[i];
      }
      return area[i] + (double) countAfter[i] * (t - atMs[i]);
    }

    void add(long t, int count) {
      double a = areaAt(t);
      atMs[next] = t;
      area[next] = a;
      countAfter[next] = count;
      next = (next + 1) % CHANGES;
      size = Math.min(CHANGES, size + 1);
    }
  }

  private Ring[] rings = new Ring[16];

  /**
   * Notes a link's new count of open flows.
   *
   * @param link a link id
   * @param count flows open on it from now on
   * @param nowMs epoch ms (not before the link's last change)
   */
  void changed(int link, int count, long nowMs) {
    if (link >= rings.length) {
      rings = Arrays.copyOf(rings, Math.max(link + 1, 2 * rings.length));
    }
    Ring r = rings[link];
    if (r == null) {
      r = new Ring();
      rings[link] = r;
    }
    r.add(nowMs, count);
  }

  /**
   * @param link a link id
   * @param fromMs start of the interval, epoch ms
   * @param toMs its end, epoch ms (after {@code fromMs})
   * @return the mean number of flows open on the link over the interval (0 for a link never used;
   *     an interval older than the changes kept is measured from the oldest)
   */
  double meanHeld(int link, long fromMs, long toMs) {
    if (toMs <= fromMs || link >= rings.length || rings[link] == null) {
      return 0;
    }
    Ring r = rings[link];
    return (r.areaAt(toMs) - r.areaAt(fromMs)) / (toMs - fromMs);
  }
}
