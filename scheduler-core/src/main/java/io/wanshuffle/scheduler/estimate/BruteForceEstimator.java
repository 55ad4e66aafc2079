package io.wanshuffle.scheduler.estimate;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Arrays;

/**
 * The brute-force time estimate η_o: how long a redistribution takes when no schedule is used, all
 * transfers start at once and the transport shares the network fairly (Wagner and Jeannot,
 * "Modelizing, Predicting and Optimizing Redistribution between Clusters on Low Latency Networks",
 * INRIA RR-5361, sec. 3.1, Fig. 5). It is a discrete-event simulation: compute every transfer's
 * bandwidth share, run until the first transfer finishes, remove it, and start again.
 *
 * <p>Sharing rule (Fig. 5, step 2): bandwidth is in units of the base speed (one flow at full speed
 * = 1). Nodes are visited in decreasing degree order; at each node, the capacity not yet taken by
 * its already-shared transfers is split equally among its transfers that have no share yet. Every
 * transfer thus gets the smallest fair share of its two endpoints (a max-min style NIC sharing).
 * The backbone carries k units: when the shares add up to more than k, every transfer slows down by
 * the same factor Σ shares / k (step 2.f).
 *
 * <p>δ-port generalisation (ours; the paper is 1-port): node v has capacity δ(v) units (capped by
 * k, {@link Platform#senderPorts(int)}), one transfer never exceeds 1 unit (the KPBS model: a flow
 * runs at most at the base speed), and nodes are visited in decreasing order of deg(v)/δ(v) — the
 * paper's decreasing degree when δ = 1 — so that a node never finds its capacity over-committed.
 * Ties between nodes go to senders before receivers, then to the lower index.
 *
 * <p>One repair (ours): the paper argues that the shares already given to a node's transfers never
 * exceed its capacity, but that does not hold in general: a degree-3 node whose other two transfers
 * got 1/5 each from degree-5 nodes gives 3/5 to its third one, and a degree-2 node reached by two
 * such transfers is then at 6/5. When a node finds its capacity over-committed, or nothing left for
 * a transfer without a share, each of its transfers gets at most the node's equal share
 * δ(v)/deg(v). Wherever the paper's shares fit the capacities, the result is exactly the paper's.
 *
 * <p>Properties: η_o ≥ max(P/k, max_v w(v)/δ(v), largest amount) (the η_d part of {@link
 * io.wanshuffle.scheduler.LowerBound}), with equality when fair sharing is perfect (e.g. a complete
 * bipartite graph with equal amounts). β does not enter: nothing is scheduled.
 *
 * <p>Complexity: one round per finishing time (at most m(G) rounds). A round costs O(m' + n) over
 * the m' transfers still running: the remaining graph is kept as per-node adjacency segments from
 * which finished transfers are removed in place, and the node order is repaired by insertion (only
 * the endpoints of finished transfers move) instead of being rebuilt; O(m(G)^2 / 2 + m(G)·n) in
 * all. Rounds visit transfers in the same order as the paper's description, so the result is the
 * same to the last bit as a from-scratch simulation of every round (checked by the tests).
 */
public final class BruteForceEstimator {
  /**
   * What is left of a transfer below this fraction of its amount counts as finished (floating-point
   * residue).
   */
  private static final double FINISHED = 1e-12;

  private BruteForceEstimator() {}

  /**
   * η_o of one redistribution.
   *
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k (the backbone carries k full-speed flows) and δ per node; β is ignored
   * @return η_o, seconds; 0 for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ
   */
  public static double estimate(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    return new Simulation(matrix, platform).run();
  }

  /** The state of one η_o simulation: transfers, the remaining graph and the node order. */
  private static final class Simulation {
    private final int k;
    // Transfers, in row-major order of the matrix.
    private final int[] src;
    private final int[] dst;
    private final double[] left;
    private final double[] original;
    private final double[] share;
    // Running transfers in increasing index order, alive[0..aliveCount).
    private final int[] alive;
    private int aliveCount;
    // Nodes 0..rows-1 are senders, rows..rows+cols-1 receivers. The running transfers of node v are
    // adjacent[start[v] .. start[v] + degree[v]), in increasing index order.
    private final double[] capacity;
    private final int[] start;
    private final int[] degree;
    private final int[] adjacent;
    // Nodes with running transfers in visiting order: decreasing deg(v)/δ(v), then lower index.
    private final int[] order;
    private int orderCount;
    private final boolean[] moved;

    Simulation(TrafficMatrix matrix, Platform platform) {
      int rows = matrix.rows();
      int cols = matrix.cols();
      int m = matrix.nonZeroCount();
      k = platform.k();
      src = new int[m];
      dst = new int[m];
      left = new double[m];
      original = new double[m];
      share = new double[m];
      alive = new int[m];
      int nodes = rows + cols;
      capacity = new double[nodes];
      start = new int[nodes + 1];
      degree = new int[nodes];
      adjacent = new int[2 * m];
      moved = new boolean[nodes];
      int e = 0;
      for (int i = 0; i < rows; i++) {
        for (int x = 0; x < matrix.rowDegree(i); x++) {
          int j = matrix.nonZeroCol(i, x);
          double amount = matrix.nonZeroAmount(i, x);
          src[e] = i;
          dst[e] = rows + j;
          left[e] = amount;
          original[e] = amount;
          alive[e] = e;
          degree[i]++;
          degree[rows + j]++;
          e++;
        }
      }
      aliveCount = m;
      for (int i = 0; i < rows; i++) {
        capacity[i] = platform.senderPorts(i);
      }
      for (int j = 0; j < cols; j++) {
        capacity[rows + j] = platform.receiverPorts(j);
      }
      for (int v = 0; v < nodes; v++) {
        start[v + 1] = start[v] + degree[v];
      }
      int[] fill = new int[nodes];
      for (int t = 0; t < m; t++) {
        adjacent[start[src[t]] + fill[src[t]]++] = t;
        adjacent[start[dst[t]] + fill[dst[t]]++] = t;
      }
      order = new int[nodes];
      for (int v = 0; v < nodes; v++) {
        if (degree[v] > 0) {
          order[orderCount++] = v;
        }
      }
      // The initial order, sorted once; later rounds only repair it.
      Integer[] boxed = new Integer[orderCount];
      for (int x = 0; x < orderCount; x++) {
        boxed[x] = order[x];
      }
      Arrays.sort(boxed, (a, b) -> before(a, b) ? -1 : before(b, a) ? 1 : 0);
      for (int x = 0; x < orderCount; x++) {
        order[x] = boxed[x];
      }
    }

    /** Whether node a is visited before node b: larger deg/δ first, then the lower index. */
    private boolean before(int a, int b) {
      // deg(a)/δ(a) > deg(b)/δ(b), compared exactly as deg(a)·δ(b) vs deg(b)·δ(a).
      double da = degree[a] * capacity[b];
      double db = degree[b] * capacity[a];
      return da > db || (da == db && a < b);
    }

    double run() {
      double eta = 0;
      while (aliveCount > 0) {
        assignShares();
        // Step 2.d-e: the first transfer to finish, in share time.
        double t = Double.POSITIVE_INFINITY;
        double total = 0;
        for (int x = 0; x < aliveCount; x++) {
          int e = alive[x];
          t = Math.min(t, left[e] / share[e]);
          total += share[e];
        }
        // Step 2.f: the backbone slows everyone down when the shares exceed k.
        eta += t * Math.max(total / k, 1.0);
        // Step 2.g-h: progress, and remove what finished (keeping the index order).
        int kept = 0;
        for (int x = 0; x < aliveCount; x++) {
          int e = alive[x];
          left[e] -= t * share[e];
          if (left[e] <= FINISHED * original[e] || left[e] / share[e] <= t * FINISHED) {
            remove(e, src[e]);
            remove(e, dst[e]);
          } else {
            alive[kept++] = e;
          }
        }
        aliveCount = kept;
        repairOrder();
      }
      return eta;
    }

    /** Step 2.a-c of Fig. 5 (with the δ-port rule and the repair): every running share. */
    private void assignShares() {
      for (int x = 0; x < aliveCount; x++) {
        share[alive[x]] = 0;
      }
      for (int o = 0; o < orderCount; o++) {
        int v = order[o];
        int from = start[v];
        int to = from + degree[v];
        double free = capacity[v];
        int unshared = 0;
        for (int a = from; a < to; a++) {
          double s = share[adjacent[a]];
          if (s > 0) {
            free -= s;
          } else {
            unshared++;
          }
        }
        if (free < 0 || (free == 0 && unshared > 0)) {
          // The paper's rule over-commits v (see the class comment): equal shares at v instead.
          double equal = Math.min(1.0, capacity[v] / degree[v]);
          for (int a = from; a < to; a++) {
            int e = adjacent[a];
            share[e] = share[e] > 0 ? Math.min(share[e], equal) : equal;
          }
        } else if (unshared > 0) {
          double each = Math.min(1.0, free / unshared);
          for (int a = from; a < to; a++) {
            int e = adjacent[a];
            if (share[e] == 0) {
              share[e] = each;
            }
          }
        }
      }
    }

    /** Removes finished transfer e from node v's segment, keeping the index order. */
    private void remove(int e, int v) {
      int from = start[v];
      int to = from + degree[v];
      int a = from;
      while (adjacent[a] != e) {
        a++;
      }
      System.arraycopy(adjacent, a + 1, adjacent, a, to - a - 1);
      degree[v]--;
      moved[v] = true;
    }

    /**
     * Restores the visiting order after degrees dropped: nodes without running transfers leave it,
     * the others whose degree dropped move towards the end (their deg/δ only decreased).
     */
    private void repairOrder() {
      int kept = 0;
      for (int o = 0; o < orderCount; o++) {
        int v = order[o];
        if (degree[v] > 0) {
          order[kept++] = v;
        } else {
          moved[v] = false;
        }
      }
      orderCount = kept;
      // Walk from the end so that a moved node slides past nodes already in their final place.
      for (int o = orderCount - 1; o >= 0; o--) {
        int v = order[o];
        if (!moved[v]) {
          continue;
        }
        moved[v] = false;
        int p = o;
        while (p + 1 < orderCount && before(order[p + 1], v)) {
          order[p] = order[p + 1];
          p++;
        }
        order[p] = v;
      }
    }
  }
}
