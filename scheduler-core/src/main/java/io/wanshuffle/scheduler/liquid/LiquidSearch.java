package io.wanshuffle.scheduler.liquid;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The exact liquid-schedule search of Gabrielyan and Hersch (liquid-schedules paper, sec. 3.1-3.2,
 * Fig. 8): a depth-first search whose nodes are sub-traffics and whose branches are the time frames
 * that may come next, with the paper's search-space reductions:
 *
 * <ul>
 *   <li>Theorems 1 and 2: the candidate frames at a node are the teams of the <em>current</em>
 *       sub-traffic (which has the original bottlenecks plus the ones that emerge), not the teams
 *       of the original traffic;
 *   <li>only <em>full</em> teams are candidates (every other transfer congests with the team);
 *   <li>full teams are enumerated by including or excluding one transfer at a time, cutting a
 *       branch as soon as it can no longer become a full team.
 * </ul>
 *
 * <p>Our additions, which keep the search exact: a team must first use each bottleneck, so the
 * enumeration branches on the uncovered bottleneck with the fewest candidate transfers;
 * sub-traffics proven dead are remembered; and when no liquid schedule exists the same search runs
 * for length Λ+1, Λ+2, ... (the frames must then use every link whose load equals the frames left),
 * so that a completed search also proves the DSatur colouring optimal or improves on it. The search
 * stops at the time limit and returns the best schedule found (at worst the {@link
 * ConflictGraphColoring#dsatur DSatur} one), with {@code optimal = false}.
 *
 * <p>Worst-case time is exponential in the number of transfers (optimal scheduling is graph
 * colouring, NP-hard); memory O(n·(n + links)/64) words plus the dead-node memo (at most 32 MB).
 */
public final class LiquidSearch {
  /** Words of memory (longs) the dead-node memo may hold: 4M longs = 32 MB. */
  private static final int MEMO_WORDS = 1 << 22;

  private final Traffic traffic;
  private final int n;
  private final int words;
  private final int linkCount;
  private final int[][] links;
  private final long[][] linkMask;
  private final long[][] conflicts;
  private long deadline;
  private long nodes;
  private final Set<Key> dead = new HashSet<>();
  private final Deque<long[]> frameStack = new ArrayDeque<>();

  private LiquidSearch(Traffic traffic) {
    this.traffic = traffic;
    this.n = traffic.size();
    this.words = (n + 63) >>> 6;
    this.linkCount = traffic.linkCount();
    this.links = traffic.linksRef();
    this.linkMask = new long[linkCount][words];
    for (int t = 0; t < n; t++) {
      for (int l : links[t]) {
        linkMask[l][t >>> 6] |= 1L << t;
      }
    }
    this.conflicts = new long[n][words];
    for (int t = 0; t < n; t++) {
      for (int l : links[t]) {
        or(conflicts[t], linkMask[l]);
      }
      conflicts[t][t >>> 6] &= ~(1L << t);
    }
  }

  /** What a search established. */
  public enum Outcome {
    /** A liquid schedule was found (length Λ). */
    LIQUID,
    /** No liquid schedule exists; the returned schedule is optimal (search completed). */
    OPTIMAL_NOT_LIQUID,
    /** The time limit passed first; the returned schedule is the best found. */
    TIME_LIMIT,
    /**
     * More than {@value LiquidSearch#SEARCH_LIMIT} transfers: the search's bit matrices would not
     * fit in memory; the returned schedule is DSatur's.
     */
    TOO_LARGE
  }

  /** Most transfers the exact search takes (its conflict matrix has n²/64 words). */
  public static final int SEARCH_LIMIT = 20_000;

  /**
   * The result of a search.
   *
   * @param schedule the best schedule found (never null)
   * @param outcome what the search proved
   * @param dsaturLength frames of the DSatur colouring the search started from
   * @param nanos wall time spent, nanoseconds
   * @param nodes search-tree nodes visited
   */
  public record Result(
      LiquidSchedule schedule, Outcome outcome, int dsaturLength, long nanos, long nodes) {}

  /**
   * Searches for a liquid schedule (and, if none exists, for an optimal one) within a time limit.
   *
   * @param traffic the traffic
   * @param timeLimit wall-clock limit; when it passes, the best schedule found is returned
   * @return the result; {@code schedule().optimal()} is true when the search finished
   */
  public static Result solve(Traffic traffic, Duration timeLimit) {
    long start = System.nanoTime();
    LiquidSchedule dsatur = ConflictGraphColoring.dsatur(traffic);
    int lambda = traffic.duration();
    if (dsatur.length() == lambda) {
      return new Result(dsatur, Outcome.LIQUID, dsatur.length(), System.nanoTime() - start, 0);
    }
    if (traffic.size() > SEARCH_LIMIT) {
      return new Result(dsatur, Outcome.TOO_LARGE, dsatur.length(), System.nanoTime() - start, 0);
    }
    LiquidSearch s = new LiquidSearch(traffic);
    long limit = timeLimit.toNanos();
    s.deadline = limit >= Long.MAX_VALUE - start ? Long.MAX_VALUE : start + limit;
    long[] all = new long[s.words];
    for (int t = 0; t < s.n; t++) {
      all[t >>> 6] |= 1L << t;
    }
    try {
      for (int len = lambda; len < dsatur.length(); len++) {
        s.dead.clear();
        s.frameStack.clear();
        if (s.dfs(all, len)) {
          LiquidSchedule found = new LiquidSchedule(traffic, s.frames(), lambda, true);
          return new Result(
              found,
              len == lambda ? Outcome.LIQUID : Outcome.OPTIMAL_NOT_LIQUID,
              dsatur.length(),
              System.nanoTime() - start,
              s.nodes);
        }
      }
    } catch (TimeUp e) {
      return new Result(
          dsatur, Outcome.TIME_LIMIT, dsatur.length(), System.nanoTime() - start, s.nodes);
    }
    LiquidSchedule proven = new LiquidSchedule(traffic, dsatur.frames(), lambda, true);
    return new Result(
        proven, Outcome.OPTIMAL_NOT_LIQUID, dsatur.length(), System.nanoTime() - start, s.nodes);
  }

  /**
   * Decides whether the traffic has a liquid schedule (length Λ), without a time limit.
   *
   * @param traffic the traffic, at most {@link #SEARCH_LIMIT} transfers
   * @return a liquid schedule, or null when none exists (the search proved it)
   * @throws IllegalArgumentException for a traffic above {@link #SEARCH_LIMIT} transfers
   */
  public static LiquidSchedule findLiquid(Traffic traffic) {
    if (traffic.size() > SEARCH_LIMIT) {
      throw new IllegalArgumentException(
          "traffic has "
              + traffic.size()
              + " transfers, more than"
              + " the search takes ("
              + SEARCH_LIMIT
              + ")");
    }
    LiquidSearch s = new LiquidSearch(traffic);
    s.deadline = Long.MAX_VALUE;
    long[] all = new long[s.words];
    for (int t = 0; t < s.n; t++) {
      all[t >>> 6] |= 1L << t;
    }
    return s.dfs(all, traffic.duration())
        ? new LiquidSchedule(traffic, s.frames(), traffic.duration(), true)
        : null;
  }

  private List<int[]> frames() {
    List<int[]> out = new ArrayList<>();
    for (long[] f : frameStack) {
      out.add(toIds(f));
    }
    return out;
  }

  private int[] toIds(long[] set) {
    int[] ids = new int[popcount(set)];
    int x = 0;
    for (int w = 0; w < words; w++) {
      long b = set[w];
      while (b != 0) {
        ids[x++] = (w << 6) + Long.numberOfTrailingZeros(b);
        b &= b - 1;
      }
    }
    return ids;
  }

  private static final class TimeUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TimeUp() {
      super(null, null, false, false);
    }
  }

  private record Key(long[] set, int framesLeft) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.framesLeft == framesLeft && Arrays.equals(k.set, set);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(set) * 31 + framesLeft;
    }
  }

  /**
   * Can sub-traffic {@code rest} be scheduled in {@code left} frames? On success the frames are on
   * {@link #frameStack}, first frame first.
   */
  private boolean dfs(long[] rest, int left) {
    if (isEmpty(rest)) {
      return true;
    }
    if (left <= 0) {
      return false;
    }
    tick();
    int maxLoad = 0;
    int[] load = new int[linkCount];
    for (int l = 0; l < linkCount; l++) {
      load[l] = popcountAnd(rest, linkMask[l]);
      maxLoad = Math.max(maxLoad, load[l]);
    }
    if (maxLoad > left) {
      return false;
    }
    if (maxLoad <= 1) {
      frameStack.push(rest.clone());
      return true;
    }
    Key key = new Key(rest.clone(), left);
    if (dead.contains(key)) {
      return false;
    }
    int tightCount = 0;
    int[] tight = new int[linkCount];
    for (int l = 0; l < linkCount; l++) {
      if (load[l] == left) {
        tight[tightCount++] = l;
      }
    }
    TeamVisitor visitor =
        team -> {
          long[] next = rest.clone();
          andNot(next, team);
          if (dfs(next, left - 1)) {
            frameStack.push(team.clone());
            return true;
          }
          return false;
        };
    int[] order = order(rest, load);
    long[] team = new long[words];
    long[] avail = rest.clone();
    if (coverTight(
        Arrays.copyOf(tight, tightCount), new boolean[linkCount], team, avail, order, visitor)) {
      return true;
    }
    if ((long) dead.size() * (words + 4) < MEMO_WORDS) {
      dead.add(key);
    }
    return false;
  }

  @FunctionalInterface
  private interface TeamVisitor {
    /**
     * @return true to stop the enumeration (a schedule was found)
     */
    boolean visit(long[] team);
  }

  /** Phase 1: choose one transfer on each tight link (bottleneck of the current sub-traffic). */
  private boolean coverTight(
      int[] tight, boolean[] covered, long[] team, long[] avail, int[] order, TeamVisitor v) {
    int best = -1;
    int bestCount = Integer.MAX_VALUE;
    for (int l : tight) {
      if (covered[l]) {
        continue;
      }
      int c = popcountAnd(avail, linkMask[l]);
      if (c < bestCount) {
        bestCount = c;
        best = l;
      }
    }
    if (best < 0) {
      return extendToFull(team, avail, new long[words], order, 0, v);
    }
    if (bestCount == 0) {
      return false;
    }
    long[] cands = and(avail, linkMask[best]);
    for (int t : order) {
      if ((cands[t >>> 6] & (1L << t)) != 0) {
        tick();
        long[] team2 = team.clone();
        team2[t >>> 6] |= 1L << t;
        long[] avail2 = avail.clone();
        andNot(avail2, conflicts[t]);
        avail2[t >>> 6] &= ~(1L << t);
        for (int l : links[t]) {
          covered[l] = true;
        }
        boolean stop = coverTight(tight, covered, team2, avail2, order, v);
        for (int l : links[t]) {
          covered[l] = false;
        }
        if (stop) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Transfers of {@code rest}, most constrained first: by decreasing total load of their links
   * (transfers on nearly tight links go into a frame early, which keeps later sub-traffics
   * schedulable); ties by id. A value-ordering heuristic: it changes which team is tried first,
   * never which teams are tried.
   */
  private int[] order(long[] rest, int[] load) {
    int[] ids = toIds(rest);
    long[] key = new long[ids.length];
    for (int x = 0; x < ids.length; x++) {
      long sum = 0;
      for (int l : links[ids[x]]) {
        sum += load[l];
      }
      key[x] = (-sum << 32) | ids[x];
    }
    Arrays.sort(key);
    for (int x = 0; x < ids.length; x++) {
      ids[x] = (int) (key[x] & 0xffffffffL);
    }
    return ids;
  }

  /**
   * Phase 2: extend a team to every full team containing it, by including or excluding the
   * remaining compatible transfers one at a time (sec. 3.2); {@code excluded} holds excluded
   * transfers that no team transfer blocks yet: each needs a later blocker.
   */
  private boolean extendToFull(
      long[] team, long[] avail, long[] excluded, int[] order, int pos, TeamVisitor v) {
    while (pos < order.length && (avail[order[pos] >>> 6] & (1L << order[pos])) == 0) {
      pos++;
    }
    if (pos == order.length) {
      return isEmpty(excluded) && v.visit(team);
    }
    int t = order[pos];
    tick();
    // include t
    long[] team2 = team.clone();
    team2[t >>> 6] |= 1L << t;
    long[] avail2 = avail.clone();
    andNot(avail2, conflicts[t]);
    avail2[t >>> 6] &= ~(1L << t);
    long[] excl2 = excluded.clone();
    andNot(excl2, conflicts[t]);
    if (stillBlockable(excl2, avail2) && extendToFull(team2, avail2, excl2, order, pos + 1, v)) {
      return true;
    }
    // exclude t: some later included transfer must block it
    long[] avail3 = avail.clone();
    avail3[t >>> 6] &= ~(1L << t);
    long[] excl3 = excluded.clone();
    excl3[t >>> 6] |= 1L << t;
    return stillBlockable(excl3, avail3) && extendToFull(team, avail3, excl3, order, pos + 1, v);
  }

  /** Every excluded, unblocked transfer still conflicts with some available one. */
  private boolean stillBlockable(long[] excluded, long[] avail) {
    for (int w = 0; w < words; w++) {
      long b = excluded[w];
      while (b != 0) {
        int e = (w << 6) + Long.numberOfTrailingZeros(b);
        b &= b - 1;
        if (popcountAnd(conflicts[e], avail) == 0) {
          return false;
        }
      }
    }
    return true;
  }

  private void tick() {
    if ((++nodes & 1023) == 0 && System.nanoTime() > deadline) {
      throw new TimeUp();
    }
  }

  private static boolean isEmpty(long[] s) {
    for (long x : s) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static int popcount(long[] s) {
    int c = 0;
    for (long x : s) {
      c += Long.bitCount(x);
    }
    return c;
  }

  private static int popcountAnd(long[] a, long[] b) {
    int c = 0;
    for (int i = 0; i < a.length; i++) {
      c += Long.bitCount(a[i] & b[i]);
    }
    return c;
  }

  private static long[] and(long[] a, long[] b) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] & b[i];
    }
    return r;
  }

  private static void or(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      a[i] |= b[i];
    }
  }

  private static void andNot(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      a[i] &= ~b[i];
    }
  }

  @Override
  public String toString() {
    return "LiquidSearch[" + traffic + "]";
  }
}
