package io.wanshuffle.scheduler.estimate;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.Arrays;

/**
 * The brute-force time estimate on a link network: how long a redistribution takes when every
 * transfer starts at once and the transport shares every link max-min fairly. It is η_o (Wagner and
 * Jeannot, INRIA RR-5361, sec. 3.1) with the paper's node-by-node sharing rule replaced by max-min
 * fairness over all the links of a {@link LinkNetwork} (NICs, rack uplinks and downlinks, backbone
 * sides), computed by progressive filling (Bertsekas and Gallager, "Data Networks", 2nd ed., sec.
 * 6.5.2): every running transfer's rate rises together until a link is full; the transfers crossing
 * it keep that rate and the others rise on. One transfer never exceeds the base speed (1 flow). It
 * is a discrete-event simulation: rates are recomputed whenever a transfer ends.
 *
 * <p>Units: amounts in seconds at base speed, link capacities in flows (transfers at base speed at
 * once, possibly fractional, e.g. a measured rate divided by the base speed), the result in
 * seconds. It never goes below the generalised lower bound max(max over links of load / capacity,
 * largest amount), and equals it when max-min sharing keeps the bottleneck link full to the end.
 *
 * <p>Complexity: one round per finishing time; a round costs O(L·F + m'·r) for L links, F filling
 * iterations (at most L + 1), m' running transfers and routes of r links.
 */
public final class LinkFairShareEstimator {
  /** A remainder below this fraction of a capacity or an amount counts as zero. */
  private static final double EPS = 1e-12;

  private LinkFairShareEstimator() {}

  /**
   * η_o of one redistribution on the network's own capacities.
   *
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param network routes and capacities (flows) of the same shape
   * @return seconds; 0 for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ
   */
  public static double estimate(TrafficMatrix matrix, LinkNetwork network) {
    double[] capacity = new double[network.linkCount()];
    for (int l = 0; l < capacity.length; l++) {
      capacity[l] = network.capacity(l);
    }
    return estimate(matrix, network, capacity);
  }

  /**
   * η_o of one redistribution with given link capacities (e.g. measured rates over the base speed).
   *
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param network routes of the same shape (its own capacities are not used)
   * @param capacity capacity of every link in flows, indexed by link id; each &gt; 0
   * @return seconds; 0 for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ, the capacity array does not have one
   *     entry per link, or a capacity is not a positive finite number
   */
  public static double estimate(TrafficMatrix matrix, LinkNetwork network, double[] capacity) {
    network.requireShape(matrix);
    if (capacity.length != network.linkCount()) {
      throw new IllegalArgumentException(
          capacity.length + " capacities for " + network.linkCount() + " links");
    }
    for (int l = 0; l < capacity.length; l++) {
      if (!(capacity[l] > 0) || Double.isInfinite(capacity[l])) {
        throw new IllegalArgumentException(
            "link "
                + network.linkName(l)
                + " has capacity "
                + capacity[l]
                + " (flows, must be > 0)");
      }
    }
    Sharing sharing = Sharing.of(matrix, network, capacity);
    double[] left = sharing.amount.clone();
    int m = left.length;
    boolean[] running = new boolean[m];
    Arrays.fill(running, true);
    int runningCount = m;
    double[] rate = new double[m];
    double eta = 0;
    while (runningCount > 0) {
      sharing.rates(running, rate);
      double t = Double.POSITIVE_INFINITY;
      for (int f = 0; f < m; f++) {
        if (running[f]) {
          t = Math.min(t, left[f] / rate[f]);
        }
      }
      eta += t;
      for (int f = 0; f < m; f++) {
        if (running[f]) {
          left[f] -= t * rate[f];
          if (left[f] <= EPS * sharing.amount[f] || left[f] / rate[f] <= t * EPS) {
            running[f] = false;
            runningCount--;
          }
        }
      }
    }
    return eta;
  }

  /**
   * The transfers of a matrix on their links, and max-min fair rates for any running subset. Not
   * thread-safe: {@link #rates} reuses its work arrays.
   */
  static final class Sharing {
    final double[] amount;
    final int[][] route;
    final double[] capacity;
    // flowsOn[l]: the transfers crossing link l.
    final int[][] flowsOn;

    // Work arrays of rates(), allocated once: the remaining capacity and unfrozen transfers per
    // link, and the transfers whose rate is set.
    private final double[] rem;
    private final int[] unfrozen;
    private final boolean[] frozen;

    private Sharing(double[] amount, int[][] route, double[] capacity, int[][] flowsOn) {
      this.amount = amount;
      this.route = route;
      this.capacity = capacity;
      this.flowsOn = flowsOn;
      this.rem = new double[capacity.length];
      this.unfrozen = new int[capacity.length];
      this.frozen = new boolean[amount.length];
    }

    static Sharing of(TrafficMatrix matrix, LinkNetwork network, double[] capacity) {
      int m = matrix.nonZeroCount();
      double[] amount = new double[m];
      int[][] route = new int[m][];
      int[] count = new int[capacity.length];
      int f = 0;
      for (int i = 0; i < matrix.rows(); i++) {
        for (int x = 0; x < matrix.rowDegree(i); x++) {
          amount[f] = matrix.nonZeroAmount(i, x);
          route[f] = distinct(network.route(i, matrix.nonZeroCol(i, x)));
          for (int l : route[f]) {
            count[l]++;
          }
          f++;
        }
      }
      int[][] flowsOn = new int[capacity.length][];
      for (int l = 0; l < capacity.length; l++) {
        flowsOn[l] = new int[count[l]];
        count[l] = 0;
      }
      for (f = 0; f < m; f++) {
        for (int l : route[f]) {
          flowsOn[l][count[l]++] = f;
        }
      }
      return new Sharing(amount, route, capacity.clone(), flowsOn);
    }

    /** A route with each link once (a link listed twice would count a transfer twice). */
    private static int[] distinct(int[] route) {
      return Arrays.stream(route).distinct().toArray();
    }

    /**
     * Max-min fair rates by progressive filling: every unfrozen running transfer rises by the same
     * amount until a link is full (its transfers freeze) or the base speed is reached.
     *
     * @param running which transfers run
     * @param rate out: the rate of every running transfer, flows (&gt; 0, ≤ 1)
     */
    void rates(boolean[] running, double[] rate) {
      int links = capacity.length;
      System.arraycopy(capacity, 0, rem, 0, links);
      Arrays.fill(unfrozen, 0);
      Arrays.fill(frozen, false);
      int active = 0;
      for (int f = 0; f < amount.length; f++) {
        if (running[f]) {
          active++;
          for (int l : route[f]) {
            unfrozen[l]++;
          }
        } else {
          frozen[f] = true;
        }
      }
      double level = 0;
      while (active > 0) {
        double step = 1 - level;
        int full = -1;
        for (int l = 0; l < links; l++) {
          if (unfrozen[l] > 0 && rem[l] / unfrozen[l] < step) {
            step = rem[l] / unfrozen[l];
            full = l;
          }
        }
        level += step;
        for (int l = 0; l < links; l++) {
          if (unfrozen[l] > 0) {
            rem[l] -= step * unfrozen[l];
          }
        }
        if (level >= 1 - EPS) {
          for (int f = 0; f < amount.length; f++) {
            if (!frozen[f]) {
              rate[f] = 1;
              frozen[f] = true;
            }
          }
          return;
        }
        for (int l = 0; l < links; l++) {
          // The link that set the step is full even where rounding leaves a crumb.
          if (unfrozen[l] > 0 && (l == full || rem[l] <= EPS * capacity[l])) {
            for (int f : flowsOn[l]) {
              if (!frozen[f]) {
                frozen[f] = true;
                rate[f] = level;
                active--;
                for (int l2 : route[f]) {
                  unfrozen[l2]--;
                }
              }
            }
          }
        }
      }
    }
  }
}
