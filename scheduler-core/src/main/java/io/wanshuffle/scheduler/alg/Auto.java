package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.InvalidScheduleException;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code auto}, our default: a portfolio that keeps the cheapest valid schedule among several
 * candidates, each improved by {@link Compaction}. Candidates:
 *
 * <ul>
 *   <li>OGGP (GGP/OGGP paper, Fig. 9) as published, so that auto never costs more than OGGP;
 *   <li>DGGP on δ-port platforms (DGGP paper, Fig. 5);
 *   <li>{@link LoadGreedy} with its three duration rules (wins on node-bound instances, where the
 *       busiest nodes must work in every step);
 *   <li>{@link SortedBatching}, largest-first batches of k without preemption (wins on
 *       backbone-bound instances, where OGGP's virtual nodes cost extra steps);
 *   <li>{@link PreemptiveBatching}, the same on transfers cut into pieces of a searched length
 *       (wins on backbone-bound instances with heavy-tailed amounts, where whole transfers leave
 *       most of a step's flows idle);
 *   <li>the exact solver ({@link ExactScheduler}) when the instance is tiny enough for it;
 *   <li>each of them after {@link Compaction}, which moves pieces into idle slots of other steps
 *       and removes or shortens steps.
 * </ul>
 *
 * <p>Size rule (speed): the load-aware greedy runs up to {@link #GREEDY_LIMIT} transfers (up to
 * {@link #MEDIAN_GREEDY_LIMIT} with the median rule only); OGGP and DGGP are run while the instance
 * has at most {@link #PEELING_LIMIT} transfers (non-zero entries), or when its peeling work
 * estimate is at most {@link #PEELING_WORK_LIMIT} and it is not backbone-bound, or up to {@link
 * #GAP_PEELING_LIMIT} transfers when the batchings leave more than {@link #PEELING_GAP} of η
 * (heavy-tailed amounts); otherwise (large backbone-bound instances, e.g. hundreds of hosts per
 * side and k ≪ n, where peeling takes seconds) auto keeps the batchings (whole and preemptive) plus
 * compaction. The "never worse than OGGP" guarantee holds whenever OGGP runs; for the other case
 * see docs/scheduler-algorithms.md for the measured comparison (batching is better than OGGP
 * there).
 */
public final class Auto implements StepScheduler {
  /** Name in {@link Algorithms}. */
  public static final String NAME = "auto";

  /** Auto runs the peeling algorithms up to this many transfers, whatever the instance. */
  public static final int PEELING_LIMIT = 6_000;

  /**
   * Above {@link #PEELING_LIMIT}, auto still runs OGGP/DGGP on instances that are not
   * backbone-bound when η_s·(senders + receivers), a proxy for the peeling work (about η_s peels,
   * each repairing up to one matched edge per node), is at most this. Node-bound instances (k close
   * to the node count) peel in few steps and OGGP beats batching there; backbone-bound ones (P/k
   * and m/k dominate η) are batched better and faster.
   */
  public static final long PEELING_WORK_LIMIT = 1_000_000;

  /**
   * Above {@link #PEELING_LIMIT}, auto runs {@link PreemptiveBatching} only when whole-transfer
   * batching and the greedy leave more than this share of η between their cheapest schedule and η,
   * and OGGP/DGGP (up to {@link #GAP_PEELING_LIMIT} transfers, whatever the peeling work estimate)
   * when all batchings do. With amounts of one order of magnitude batching comes within 0.3 % of η
   * on backbone-bound instances; with heavy-tailed amounts it does not (300 x 300, about 27,000
   * Pareto(1.2) amounts, k = 40, β = 0.01 s, four instances: whole batching 1.06-1.69 η, preemptive
   * batching 1.004-1.30 η, OGGP 1.003-1.005 η).
   */
  public static final double PEELING_GAP = 0.01;

  /**
   * Most transfers for which auto runs OGGP/DGGP because the batchings are more than {@link
   * #PEELING_GAP} above η. OGGP's time grows with the transfers more than with the peeling work
   * estimate: on heavy-tailed instances (Pareto(1.2), 30 % of the pairs) about 0.25 s at 27,000
   * transfers, 1 s at 75,000 and 7 s at 300,000; on a dense uniform 500 x 500 (250,000) 6.5 s
   * (docs/benchmarks/scheduler-speed.md has the dense case).
   */
  public static final int GAP_PEELING_LIMIT = 100_000;

  /**
   * Largest transfer count for which auto also runs {@link LoadGreedy} (O(steps · m log m): about
   * 0.1 s at 1000 transfers, seconds beyond).
   */
  public static final int GREEDY_LIMIT = 1000;

  /**
   * Up to this many transfers auto still runs {@link LoadGreedy} with the median rule (the best of
   * the three on the large Facebook-trace instances; a few tenths of a second at 5000 transfers).
   */
  public static final int MEDIAN_GREEDY_LIMIT = 6000;

  /** Compaction work budget per transfer above {@link #PEELING_LIMIT} (keeps large plans fast). */
  static final long COMPACTION_WORK_PER_TRANSFER = 20;

  /**
   * Largest transfer count for which auto also runs the exact solver (its branch and bound can take
   * seconds near {@link ExactScheduler#MAX_TRANSFERS}; the plugin re-plans at every step).
   */
  public static final int EXACT_LIMIT = 6;

  @Override
  public String name() {
    return NAME;
  }

  /**
   * @param matrix seconds at base speed
   * @param platform k, β, δ
   * @return the cheapest of the candidates (valid; ties keep the earlier candidate)
   * @throws IllegalArgumentException if shapes differ
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    int nz = matrix.nonZeroCount();
    if (nz == 0) {
      return new Schedule(List.of());
    }
    List<Schedule> raw = new ArrayList<>();
    LowerBound lb = LowerBound.of(matrix, platform);
    long peelWork = lb.etaS() * (matrix.rows() + matrix.cols());
    if (nz <= GREEDY_LIMIT) {
      for (LoadGreedy.Rule r : LoadGreedy.Rule.values()) {
        raw.add(LoadGreedy.schedule(matrix, platform, r));
      }
    } else if (nz <= MEDIAN_GREEDY_LIMIT) {
      raw.add(LoadGreedy.schedule(matrix, platform, LoadGreedy.Rule.MEDIAN));
    }
    Schedule whole = SortedBatching.schedule(matrix, platform);
    raw.add(whole);
    double closeToEta = (1 + PEELING_GAP) * lb.eta();
    if (nz <= PEELING_LIMIT || cheapest(raw, platform) > closeToEta) {
      Schedule cut = PreemptiveBatching.schedule(matrix, platform, whole);
      if (cut != whole) {
        raw.add(cut);
      }
    }
    boolean peel =
        nz <= PEELING_LIMIT
            || (peelWork <= PEELING_WORK_LIMIT && !backboneBound(matrix, platform))
            || (nz <= GAP_PEELING_LIMIT && cheapest(raw, platform) > closeToEta);
    if (peel) {
      raw.add(new Oggp().schedule(matrix, platform));
      if (!platform.isOnePort()) {
        raw.add(new Dggp().schedule(matrix, platform));
      }
    }
    ExactScheduler exact = new ExactScheduler();
    if (nz <= EXACT_LIMIT && exact.accepts(matrix, platform)) {
      try {
        raw.add(exact.schedule(matrix, platform));
      } catch (RuntimeException e) {
        // A failing candidate must not fail auto: the others still give a valid schedule.
      }
    }
    long budget = nz <= PEELING_LIMIT ? 100L * nz + 100_000 : COMPACTION_WORK_PER_TRANSFER * nz;
    List<Schedule> all = new ArrayList<>();
    for (Schedule s : raw) {
      all.add(s);
      all.add(Compaction.improve(s, platform, budget));
    }
    // Cheapest first (stable: ties keep the earlier candidate); validate until one passes.
    double beta = platform.beta();
    all.sort(java.util.Comparator.comparingDouble(s -> s.cost(beta)));
    for (Schedule s : all) {
      if (isValid(s, matrix, platform)) {
        return s;
      }
    }
    throw new IllegalStateException("no candidate schedule is valid for " + matrix);
  }

  /**
   * @return the smallest cost among {@code schedules}, seconds
   */
  private static double cheapest(List<Schedule> schedules, Platform platform) {
    double best = Double.POSITIVE_INFINITY;
    for (Schedule s : schedules) {
      best = Math.min(best, s.cost(platform.beta()));
    }
    return best;
  }

  /**
   * @return true when the backbone terms dominate both parts of η: P/k ≥ every w(v)/δ(v) and ⌈m/k⌉
   *     ≥ every ⌈deg(v)/δ(v)⌉ (largest-first batching then reaches η closely)
   */
  static boolean backboneBound(TrafficMatrix m, Platform p) {
    int k = p.k();
    double perStep = m.total() / k;
    long steps = (m.nonZeroCount() + k - 1) / k;
    for (int i = 0; i < m.rows(); i++) {
      int d = p.senderPorts(i);
      if (m.rowSum(i) / d > perStep || (m.rowDegree(i) + d - 1) / d > steps) {
        return false;
      }
    }
    for (int j = 0; j < m.cols(); j++) {
      int d = p.receiverPorts(j);
      if (m.colSum(j) / d > perStep || (m.colDegree(j) + d - 1) / d > steps) {
        return false;
      }
    }
    return true;
  }

  private static boolean isValid(Schedule s, TrafficMatrix m, Platform p) {
    try {
      s.validate(m, p);
      return true;
    } catch (InvalidScheduleException e) {
      return false;
    }
  }
}
