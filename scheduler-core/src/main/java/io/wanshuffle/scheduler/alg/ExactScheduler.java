package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * An exact KPBS solver for tiny instances (preemptive, δ-port, at most k transfers per step), used
 * to measure the optimality gaps of the other algorithms. KPBS is NP-hard (GGP/OGGP paper sec. 4),
 * so this solver refuses instances larger than {@link #MAX_TRANSFERS} non-zero entries or with more
 * than {@link #MAX_MATCHINGS} maximal valid matchings.
 *
 * <p>Method. With preemption, every step of an optimal schedule can be taken to be a
 * <em>maximal</em> valid matching (an edge added to a step with a piece of 0 costs nothing) and no
 * matching needs to appear twice (two steps with the same matching merge into one, saving β).
 * Hence OPT = min over sets S of maximal valid matchings of β·|S| + LP(S), where LP(S) = min Σ d_s
 * subject to Σ_{s ∋ e} d_s ≥ w(e) for every edge e and d ≥ 0 ({@link CoverLp}, Apache Commons Math
 * simplex). The sets are searched by branch and bound over the matchings in a fixed order
 * (include/exclude), pruning with β·max(|S|, η_s) + LP(S ∪ matchings still undecided), which bounds
 * every completion (the second term is an η_d-style bound: LP over a superset can only be
 * smaller). An optimal basic LP solution uses at most m(G) matchings, so |S| ≤ m(G) when β &gt; 0.
 * The first incumbent is the support of LP(all maximal matchings).
 *
 * <p>Complexity: exponential (2^m(G) matchings enumerated, then a search over their subsets with an
 * LP per node); fine for the limits above.
 */
public final class ExactScheduler implements StepScheduler {
  /** The name the registry and the CLI use. */
  public static final String NAME = "exact";

  /** Largest number of transfers (non-zero matrix entries) the solver accepts. */
  public static final int MAX_TRANSFERS = 12;

  /** Largest number of maximal valid matchings (candidate steps) the solver accepts. */
  public static final int MAX_MATCHINGS = 60;

  /** Relative gap under which a branch cannot improve the incumbent. */
  private static final double PRUNE = 1e-9;

  /** @return {@value #NAME} */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix amounts in seconds, senders x receivers
   * @param platform k, β, δ; shape must match
   * @return true if {@link #schedule} takes this instance (within {@link #MAX_TRANSFERS} and {@link
   *     #MAX_MATCHINGS})
   * @throws IllegalArgumentException if the shapes differ
   */
  public boolean accepts(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    if (matrix.nonZeroCount() > MAX_TRANSFERS) {
      return false;
    }
    Graph g = new Graph(matrix);
    return MaximalMatchings.of(g.src, g.dst, platform, MAX_MATCHINGS) != null;
  }

  /**
   * Computes an optimal schedule.
   *
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k, β (seconds), δ per node; shape must match the matrix
   * @return a valid schedule of minimum cost Σ(β + duration) (up to floating-point rounding of the
   *     simplex, about 1e-9 relative); empty for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ, the matrix has more than {@link
   *     #MAX_TRANSFERS} non-zero entries, or its graph has more than {@link #MAX_MATCHINGS} maximal
   *     valid matchings
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    int m = matrix.nonZeroCount();
    if (m == 0) {
      return new Schedule(List.of());
    }
    if (m > MAX_TRANSFERS) {
      throw new IllegalArgumentException(
          "exact solver takes at most " + MAX_TRANSFERS + " transfers (non-zero matrix entries), "
              + "this " + matrix.rows() + " x " + matrix.cols() + " matrix has " + m
              + "; use another algorithm");
    }
    Graph g = new Graph(matrix);
    int[] masks = MaximalMatchings.of(g.src, g.dst, platform, MAX_MATCHINGS);
    if (masks == null) {
      throw new IllegalArgumentException(
          "exact solver takes at most " + MAX_MATCHINGS + " maximal valid matchings (candidate "
              + "steps), this instance (" + m + " transfers, k = " + platform.k()
              + ") has more; use another algorithm");
    }
    double scale = matrix.maxAmount();
    double[] w = new double[m];
    for (int e = 0; e < m; e++) {
      w[e] = g.amount[e] / scale;
    }
    Search s = new Search(masks, new CoverLp(w), platform.beta() / scale,
        LowerBound.of(matrix, platform).etaS(), m);
    s.run();
    return build(g, masks, s.bestSet, s.bestSize, s.bestD, scale);
  }

  /** Turns the chosen matchings and their durations into steps, splitting each amount. */
  private static Schedule build(
      Graph g, int[] masks, int[] set, int size, double[] dNormalised, double scale) {
    int m = g.src.length;
    double[] left = g.amount.clone();
    double[] duration = new double[size];
    double[][] piece = new double[size][m];
    for (int x = 0; x < size; x++) {
      duration[x] = dNormalised[set[x]] * scale;
      for (int e = 0; e < m; e++) {
        if ((masks[set[x]] & (1 << e)) != 0 && left[e] > 0) {
          piece[x][e] = Math.min(duration[x], left[e]);
          left[e] -= piece[x][e];
        }
      }
    }
    for (int e = 0; e < m; e++) {
      if (left[e] > 0) {
        // simplex rounding left a sliver: give it to the longest step holding e.
        int host = -1;
        for (int x = 0; x < size; x++) {
          if ((masks[set[x]] & (1 << e)) != 0 && (host < 0 || duration[x] > duration[host])) {
            host = x;
          }
        }
        piece[host][e] += left[e];
        duration[host] = Math.max(duration[host], piece[host][e]);
      }
    }
    List<Step> steps = new ArrayList<>(size);
    for (int x = 0; x < size; x++) {
      List<Transfer> transfers = new ArrayList<>();
      for (int e = 0; e < m; e++) {
        if (piece[x][e] > 0) {
          transfers.add(new Transfer(g.src[e], g.dst[e], piece[x][e]));
        }
      }
      if (!transfers.isEmpty()) {
        steps.add(new Step(duration[x], transfers));
      }
    }
    return new Schedule(steps);
  }

  /** The non-zero entries of a matrix as edges, row-major. */
  private static final class Graph {
    final int[] src;
    final int[] dst;
    final double[] amount;

    Graph(TrafficMatrix matrix) {
      int m = matrix.nonZeroCount();
      src = new int[m];
      dst = new int[m];
      amount = new double[m];
      int e = 0;
      for (int i = 0; i < matrix.rows(); i++) {
        for (int j = 0; j < matrix.cols(); j++) {
          if (matrix.amount(i, j) > 0) {
            src[e] = i;
            dst[e] = j;
            amount[e] = matrix.amount(i, j);
            e++;
          }
        }
      }
    }
  }

  /** Branch and bound over sets of maximal matchings, amounts normalised by the largest one. */
  private static final class Search {
    private final int[] masks;
    private final CoverLp lp;
    private final double beta;
    private final long etaS;
    private final int edges;
    private final int all;
    private final int[] suffixUnion;
    private final int[] chosen;
    double best = Double.POSITIVE_INFINITY;
    int[] bestSet;
    int bestSize;
    double[] bestD;

    Search(int[] unordered, CoverLp lp, double beta, long etaS, int edges) {
      this.lp = lp;
      this.beta = beta;
      this.etaS = etaS;
      this.edges = edges;
      this.all = edges == 31 ? -1 >>> 1 : (1 << edges) - 1;
      // Order: matchings the LP over all of them uses most come first, so good sets are met early.
      int[] everything = IntStream.range(0, unordered.length).toArray();
      double[] d = lp.solve(unordered, everything, everything.length);
      Integer[] order = IntStream.range(0, unordered.length).boxed().toArray(Integer[]::new);
      Arrays.sort(order, Comparator.<Integer>comparingDouble(x -> -d[x])
          .thenComparingInt(x -> -Integer.bitCount(unordered[x])));
      masks = new int[unordered.length];
      double[] dOrdered = new double[unordered.length];
      for (int x = 0; x < order.length; x++) {
        masks[x] = unordered[order[x]];
        dOrdered[x] = d[order[x]];
      }
      suffixUnion = new int[masks.length + 1];
      for (int x = masks.length - 1; x >= 0; x--) {
        suffixUnion[x] = suffixUnion[x + 1] | masks[x];
      }
      chosen = new int[masks.length];
      // Incumbent: the support of LP(all).
      int[] support = IntStream.range(0, masks.length).filter(x -> dOrdered[x] > 0).toArray();
      offer(support, support.length, dOrdered);
      root = dOrdered;
    }

    private final double[] root;

    void run() {
      search(0, 0, 0, CoverLp.sum(root), root);
    }

    private void offer(int[] set, int size, double[] d) {
      double cost = beta * size + CoverLp.sum(d);
      if (cost < best) {
        best = cost;
        bestSet = Arrays.copyOf(set, size);
        bestSize = size;
        bestD = d;
      }
    }

    private boolean hopeless(double bound) {
      return bound >= best - PRUNE * best;
    }

    private double bound(int size, int covered, double lpBound) {
      long steps = Math.max(size + (covered == all ? 0 : 1), etaS);
      return beta * steps + lpBound;
    }

    /**
     * @param idx next matching to decide
     * @param size |S| (chosen[0..size))
     * @param covered edges S covers
     * @param lpBound LP(S ∪ masks[idx..])
     * @param sol a solution of that LP, indexed like masks
     */
    private void search(int idx, int size, int covered, double lpBound, double[] sol) {
      if (idx == masks.length || (covered | suffixUnion[idx]) != all) {
        return;
      }
      int withIdx = covered | masks[idx];
      if ((beta == 0 || size + 1 <= edges) && !hopeless(bound(size + 1, withIdx, lpBound))) {
        chosen[size] = idx;
        if (withIdx == all) {
          offer(chosen, size + 1, lp.solve(masks, chosen, size + 1));
        }
        search(idx + 1, size + 1, withIdx, lpBound, sol);
      }
      if ((covered | suffixUnion[idx + 1]) != all) {
        return;
      }
      double[] without = sol;
      double withoutBound = lpBound;
      if (sol[idx] > 0) {
        int[] use = new int[size + masks.length - idx - 1];
        System.arraycopy(chosen, 0, use, 0, size);
        for (int x = idx + 1; x < masks.length; x++) {
          use[size + x - idx - 1] = x;
        }
        without = lp.solve(masks, use, use.length);
        withoutBound = CoverLp.sum(without);
      }
      if (!hopeless(bound(size, covered, withoutBound))) {
        search(idx + 1, size, covered, withoutBound, without);
      }
    }
  }
}
