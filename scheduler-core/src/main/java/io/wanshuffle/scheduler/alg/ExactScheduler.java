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
 * so this solver refuses instances with more than {@link #MAX_TRANSFERS} non-zero entries or more
 * than {@link #MAX_MATCHINGS} maximal valid matchings, and gives up (also with an {@link
 * IllegalArgumentException}) when its search exceeds {@link #MAX_SEARCH_NODES} nodes or {@link
 * #MAX_LP_SOLVES} linear programs (about a second).
 *
 * <p>Method. With preemption, every step of an optimal schedule can be taken to be a
 * <em>maximal</em> valid matching (an edge added to a step with a piece of 0 costs nothing) and no
 * matching needs to appear twice (two steps with the same matching merge into one, saving β). Hence
 * OPT = min over sets S of maximal valid matchings of β·|S| + LP(S), where LP(S) = min Σ d_s
 * subject to Σ_{s ∋ e} d_s ≥ w(e) for every edge e and d ≥ 0 ({@link CoverLp}, Apache Commons Math
 * simplex). An optimal basic LP solution uses at most m(G) matchings, so |S| ≤ m(G) when β &gt; 0.
 * The sets are searched by branch and bound (include/exclude each matching in a fixed order), with
 * the bound β·max(|S| + η_s(uncovered edges), η_s) + LP(all matchings): the uncovered edges need at
 * least ⌈|U|/k⌉ and ⌈deg_U(v)/δ(v)⌉ more steps, and no set transmits faster than all matchings
 * together (the η_d side). A covering set is priced with LP(S) only when β·|S| plus a packing bound
 * on LP(S) (edges no two of which share a matching of S) can beat the incumbent. The first
 * incumbent is the support of LP(all).
 *
 * <p>Complexity: exponential (2^m(G) to enumerate the matchings, then a search over their subsets,
 * capped as above). Instances with a small β relative to the amounts are the hardest (many steps
 * are affordable, so many sets must be priced).
 */
public final class ExactScheduler implements StepScheduler {
  /** The name the registry and the CLI use. */
  public static final String NAME = "exact";

  /** Largest number of transfers (non-zero matrix entries) the solver accepts. */
  public static final int MAX_TRANSFERS = 12;

  /** Largest number of maximal valid matchings (candidate steps) the solver accepts. */
  public static final int MAX_MATCHINGS = 64;

  /** Largest number of branch-and-bound nodes the solver visits before it gives up. */
  public static final long MAX_SEARCH_NODES = 1_000_000;

  /** Largest number of linear programs the search solves before it gives up. */
  public static final long MAX_LP_SOLVES = 10_000;

  /**
   * Smallest non-zero amount the solver accepts, relative to the largest: its linear programs work
   * on amounts divided by the largest, with a precision of about 1e-9, so a transfer below this is
   * lost in their rounding (and below 1e-308 relative it becomes 0).
   */
  public static final double MIN_RELATIVE_AMOUNT = 1e-9;

  /** Relative gap under which a branch cannot improve the incumbent. */
  private static final double PRUNE = 1e-9;

  /**
   * @return {@value #NAME}
   */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix amounts in seconds, senders x receivers
   * @param platform k, β, δ; shape must match
   * @return true if the instance is within {@link #MAX_TRANSFERS}, {@link #MIN_RELATIVE_AMOUNT} and
   *     {@link #MAX_MATCHINGS}; {@link #schedule} may still give up on it after {@link
   *     #MAX_SEARCH_NODES} search nodes or {@link #MAX_LP_SOLVES} linear programs
   * @throws IllegalArgumentException if the shapes differ
   */
  public boolean accepts(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    if (matrix.nonZeroCount() > MAX_TRANSFERS) {
      return false;
    }
    Graph g = new Graph(matrix);
    return g.smallestRelative() >= MIN_RELATIVE_AMOUNT
        && MaximalMatchings.of(g.src, g.dst, platform, MAX_MATCHINGS) != null;
  }

  /**
   * Computes an optimal schedule.
   *
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k, β (seconds), δ per node; shape must match the matrix
   * @return a valid schedule of minimum cost Σ(β + duration) (up to floating-point rounding of the
   *     simplex, about 1e-9 relative); empty for an all-zero matrix
   * @throws IllegalArgumentException if the shapes differ, the matrix has more than {@link
   *     #MAX_TRANSFERS} non-zero entries or an amount below {@link #MIN_RELATIVE_AMOUNT} x the
   *     largest, its graph has more than {@link #MAX_MATCHINGS} maximal valid matchings, or the
   *     search needs more than {@link #MAX_SEARCH_NODES} nodes or {@link #MAX_LP_SOLVES} linear
   *     programs
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
          "exact solver takes at most "
              + MAX_TRANSFERS
              + " transfers (non-zero matrix entries), "
              + "this "
              + matrix.rows()
              + " x "
              + matrix.cols()
              + " matrix has "
              + m
              + "; use another algorithm");
    }
    Graph g = new Graph(matrix);
    double smallest = g.smallestRelative();
    if (smallest < MIN_RELATIVE_AMOUNT) {
      throw new IllegalArgumentException(
          "exact solver needs every non-zero amount at least "
              + MIN_RELATIVE_AMOUNT
              + " x the largest (the precision of its linear programs); this matrix's"
              + " smallest is "
              + smallest
              + " x the largest "
              + matrix.maxAmount()
              + " s; use another algorithm");
    }
    int[] masks = MaximalMatchings.of(g.src, g.dst, platform, MAX_MATCHINGS);
    if (masks == null) {
      throw new IllegalArgumentException(
          "exact solver takes at most "
              + MAX_MATCHINGS
              + " maximal valid matchings (candidate "
              + "steps), this instance ("
              + m
              + " transfers, k = "
              + platform.k()
              + ") has more; use another algorithm");
    }
    double scale = matrix.maxAmount();
    double[] w = new double[m];
    for (int e = 0; e < m; e++) {
      w[e] = g.amount[e] / scale;
    }
    Search s =
        new Search(
            masks,
            w,
            g,
            platform,
            new CoverLp(w),
            platform.beta() / scale,
            LowerBound.of(matrix, platform).etaS());
    s.run();
    return build(g, s.masks, s.bestSet, s.bestSize, s.bestD, scale);
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
        for (int x = 0; x < matrix.rowDegree(i); x++) {
          src[e] = i;
          dst[e] = matrix.nonZeroCol(i, x);
          amount[e] = matrix.nonZeroAmount(i, x);
          e++;
        }
      }
    }

    /**
     * @return the smallest amount divided by the largest (1 without edges)
     */
    double smallestRelative() {
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      for (double a : amount) {
        min = Math.min(min, a);
        max = Math.max(max, a);
      }
      return max > 0 ? min / max : 1;
    }
  }

  /** Branch and bound over sets of maximal matchings, amounts normalised by the largest one. */
  private static final class Search {
    /** The maximal matchings in search order; bestSet and bestD index this array. */
    final int[] masks;

    private final CoverLp lp;
    private final double beta;
    private final long etaS;
    private final int edges;
    private final int all;
    private final int[] suffixUnion;
    private final double[] weight;
    private final int[] byWeight;
    private final int k;
    private final int[] src;
    private final int[] dst;
    private final int[] senderPorts;
    private final int[] receiverPorts;
    private final int[] senderLoad;
    private final int[] receiverLoad;
    private final int[] chosen;
    private final double lpAll;
    private final String instance;
    private long nodes;
    private long lpSolves;
    double best = Double.POSITIVE_INFINITY;
    int[] bestSet;
    int bestSize;
    double[] bestD;

    Search(
        int[] unordered,
        double[] w,
        Graph g,
        Platform platform,
        CoverLp lp,
        double beta,
        long etaS) {
      this.lp = lp;
      this.weight = w;
      this.beta = beta;
      this.etaS = etaS;
      this.edges = w.length;
      this.all = (1 << edges) - 1;
      this.k = platform.k();
      this.src = g.src;
      this.dst = g.dst;
      this.instance = edges + " transfers, " + unordered.length + " maximal matchings, k = " + k;
      senderPorts = new int[platform.senders()];
      receiverPorts = new int[platform.receivers()];
      for (int i = 0; i < senderPorts.length; i++) {
        senderPorts[i] = platform.senderPorts(i);
      }
      for (int j = 0; j < receiverPorts.length; j++) {
        receiverPorts[j] = platform.receiverPorts(j);
      }
      senderLoad = new int[senderPorts.length];
      receiverLoad = new int[receiverPorts.length];
      byWeight =
          IntStream.range(0, edges)
              .boxed()
              .sorted(Comparator.comparingDouble(e -> -w[e]))
              .mapToInt(Integer::intValue)
              .toArray();
      int n = unordered.length;
      int[] everything = IntStream.range(0, n).toArray();
      // LP(all): no set of matchings transmits faster. Its support is the first incumbent.
      double[] d = lp.solve(unordered, everything, n);
      lpAll = CoverLp.sum(d);
      // Search order: matchings LP(all) uses most first, so good sets are met early.
      Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
      Arrays.sort(
          order,
          Comparator.<Integer>comparingDouble(x -> -d[x])
              .thenComparingInt(x -> -Integer.bitCount(unordered[x])));
      masks = new int[n];
      double[] dOrdered = new double[n];
      for (int x = 0; x < n; x++) {
        masks[x] = unordered[order[x]];
        dOrdered[x] = d[order[x]];
      }
      suffixUnion = new int[n + 1];
      for (int x = n - 1; x >= 0; x--) {
        suffixUnion[x] = suffixUnion[x + 1] | masks[x];
      }
      chosen = new int[n];
      int[] support = IntStream.range(0, n).filter(x -> dOrdered[x] > 0).toArray();
      offer(support, support.length, dOrdered);
    }

    void run() {
      search(0, 0, 0);
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

    private boolean beatsIncumbent(double bound) {
      return bound < best - PRUNE * best;
    }

    /** Lower bound on the cost of every set that extends S (size, covered) by later matchings. */
    private double bound(int size, int covered) {
      return beta * Math.max(size + stepsToCover(all & ~covered), etaS) + lpAll;
    }

    /**
     * η_s of the uncovered edges U: at least ⌈|U|/k⌉ more steps, and ⌈deg_U(v)/δ(v)⌉ for every node
     * v.
     */
    private int stepsToCover(int uncovered) {
      if (uncovered == 0) {
        return 0;
      }
      Arrays.fill(senderLoad, 0);
      Arrays.fill(receiverLoad, 0);
      int need = (Integer.bitCount(uncovered) + k - 1) / k;
      for (int rest = uncovered; rest != 0; rest &= rest - 1) {
        int e = Integer.numberOfTrailingZeros(rest);
        int ps = senderPorts[src[e]];
        int pr = receiverPorts[dst[e]];
        need = Math.max(need, (++senderLoad[src[e]] + ps - 1) / ps);
        need = Math.max(need, (++receiverLoad[dst[e]] + pr - 1) / pr);
      }
      return need;
    }

    /**
     * A lower bound on LP(S) for S = chosen[0..size): edges no two of which share a matching of S
     * need Σ w(e) seconds (each one's matchings run for it alone). Greedy, heaviest edge first.
     */
    private double packing(int size) {
      int blocked = 0;
      double sum = 0;
      for (int e : byWeight) {
        if ((blocked & (1 << e)) == 0) {
          sum += weight[e];
          for (int x = 0; x < size; x++) {
            if ((masks[chosen[x]] & (1 << e)) != 0) {
              blocked |= masks[chosen[x]];
            }
          }
        }
      }
      return sum;
    }

    /**
     * Decides matching idx (include, then exclude).
     *
     * @param idx next matching to decide
     * @param size |S| (chosen[0..size))
     * @param covered edges S covers
     */
    private void search(int idx, int size, int covered) {
      if (++nodes > MAX_SEARCH_NODES) {
        throw new IllegalArgumentException(
            "exact solver gave up after "
                + MAX_SEARCH_NODES
                + " search nodes on this instance ("
                + instance
                + "); use another algorithm");
      }
      if (idx == masks.length || (covered | suffixUnion[idx]) != all) {
        return;
      }
      int withIdx = covered | masks[idx];
      if ((beta == 0 || size + 1 <= edges) && beatsIncumbent(bound(size + 1, withIdx))) {
        chosen[size] = idx;
        if (withIdx == all && beatsIncumbent(beta * (size + 1) + packing(size + 1))) {
          if (++lpSolves > MAX_LP_SOLVES) {
            throw new IllegalArgumentException(
                "exact solver gave up after "
                    + MAX_LP_SOLVES
                    + " linear programs on this instance ("
                    + instance
                    + "); use another algorithm");
          }
          offer(chosen, size + 1, lp.solve(masks, chosen, size + 1));
        }
        search(idx + 1, size + 1, withIdx);
      }
      if (beatsIncumbent(bound(size, covered))) {
        search(idx + 1, size, covered);
      }
    }
  }
}
