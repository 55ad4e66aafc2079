package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkCapacitySplit;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code liquid}: weighted, preemptive KPBS steps on a topology in which no link carries more flows
 * than its capacity, each step chosen to keep the bottleneck links busy. It carries the idea of
 * liquid schedules (Gabrielyan and Hersch, liquid-schedules paper, sec. 3: every time frame uses
 * every bottleneck) over to weighted transfers and multi-flow links.
 *
 * <p>Each step: a pair's priority is 2·max over its links of load(l)/c(l) divided by the largest
 * such ratio (the bottleneck links) plus its remaining amount over the largest remaining amount;
 * {@link StepChooser} picks a capacity-respecting set of pairs of maximum Σ (1 + priority) (an
 * integral min-cost flow on host / rack / cluster trees); the step lasts the minimum, median or
 * maximum remaining amount of the chosen pairs (one schedule is built per rule) and every chosen
 * pair sends min(remaining, duration). The cheapest of these schedules is kept, together with two
 * other candidates: a schedule derived from the registered {@code auto} algorithm (rack-blind; OGGP
 * and DGGP while {@code auto} is not registered) whose steps are split, first fit by decreasing
 * amount, until no link is overloaded, and (with a network) {@link SortedBatching} on every link of
 * the network, which fills each step from every rack with traffic where splitting a rack-blind step
 * of k flows from one rack would double the steps. On a network with only NIC and backbone links
 * (or without a network) the split schedule is auto's own, so {@code liquid} never costs more than
 * {@code auto} there.
 *
 * <p>Cost: at most m steps per rule (each step completes a pair), each a min-cost flow on O(links +
 * pairs) vertices for m ≤ {@value #FLOW_LIMIT} transfers, a greedy pass in priority order (O(pairs
 * log pairs)) up to {@value #OWN_STEPS_LIMIT}; above that only the two other candidates are
 * computed (still valid for every link, no longer bottleneck-driven). The result is valid for the
 * platform ({@link Schedule#validate}) and for the network ({@link
 * io.wanshuffle.scheduler.topology.LinkCapacityValidator}).
 */
public final class LiquidStepScheduler implements StepScheduler {
  private static final double EPS = 1e-12;

  /** Up to this many transfers (non-zero entries) steps are chosen by min-cost flow. */
  static final int FLOW_LIMIT = 1_000;

  /** Up to this many transfers the scheduler builds its own steps (greedy above FLOW_LIMIT). */
  static final int OWN_STEPS_LIMIT = 20_000;

  private final LinkNetwork network;
  private final boolean withRackBlind;

  /** A liquid scheduler without a topology: the links are the platform's NICs and backbone. */
  public LiquidStepScheduler() {
    this(null);
  }

  /**
   * @param network the links of the matrices this scheduler will get (rows = senders, columns =
   *     receivers), or null for the platform's NICs and backbone only
   */
  public LiquidStepScheduler(LinkNetwork network) {
    this(network, true);
  }

  private LiquidStepScheduler(LinkNetwork network, boolean withRackBlind) {
    this.network = network;
    this.withRackBlind = withRackBlind;
  }

  /**
   * For measurements: only the flow-chosen steps (the three duration rules), without the split
   * rack-blind candidate, so that benchmarks can tell what the bottleneck-driven steps give alone.
   * Its schedules are valid but may cost more than {@code auto}'s.
   *
   * @param network as for {@link #LiquidStepScheduler(LinkNetwork)}
   * @return the scheduler
   */
  public static LiquidStepScheduler flowStepsOnly(LinkNetwork network) {
    return new LiquidStepScheduler(network, false);
  }

  @Override
  public String name() {
    return "liquid";
  }

  /**
   * @param matrix amounts in seconds at base speed
   * @param platform k, β, δ (also enforced: steps respect them and the network's capacities)
   * @return the cheapest schedule found, valid for the platform and every link capacity
   * @throws IllegalArgumentException if the shapes of matrix, platform and network differ
   */
  @Override
  public Schedule schedule(TrafficMatrix matrix, Platform platform) {
    platform.requireShape(matrix);
    int transfers = matrix.nonZeroCount();
    if (transfers == 0) {
      return new Schedule(List.of());
    }
    List<String> candidates = withRackBlind ? rackBlindCandidates() : List.of();
    boolean ownSteps = transfers <= OWN_STEPS_LIMIT || candidates.isEmpty();
    if (network == null && !ownSteps) {
      // NIC and backbone links only: auto's schedule is valid as it is
      return Algorithms.byName(candidates.get(0)).schedule(matrix, platform);
    }
    LinkNetwork net =
        network == null ? LinkNetwork.flat(platform) : network.constrainedBy(platform);
    net.requireShape(matrix);
    Schedule best = null;
    if (ownSteps) {
      StepChooser chooser = new StepChooser(net, transfers <= FLOW_LIMIT);
      for (DurationRule rule : DurationRule.values()) {
        best = cheaper(best, build(matrix, platform.beta(), net, chooser, rule), platform.beta());
      }
    }
    if (withRackBlind && network != null) {
      best = cheaper(best, SortedBatching.schedule(matrix, platform, net), platform.beta());
    }
    for (String name : candidates) {
      Schedule blind =
          LinkCapacitySplit.split(Algorithms.byName(name).schedule(matrix, platform), net);
      if (best == null || blind.cost(platform.beta()) <= best.cost(platform.beta())) {
        best = blind;
      }
    }
    return best;
  }

  private static Schedule cheaper(Schedule best, Schedule s, double beta) {
    return best == null || s.cost(beta) < best.cost(beta) ? s : best;
  }

  /**
   * @return the registered KPBS algorithms whose (split) schedules are candidates: {@code auto}
   *     when it is registered, else OGGP and DGGP where registered
   */
  static List<String> rackBlindCandidates() {
    List<String> names = Algorithms.names();
    if (names.contains("auto")) {
      return List.of("auto");
    }
    List<String> c = new ArrayList<>();
    for (String n : List.of("oggp", "dggp")) {
      if (names.contains(n)) {
        c.add(n);
      }
    }
    return c;
  }

  /** How long a step lasts, from the remaining amounts of its chosen pairs. */
  enum DurationRule {
    MIN,
    MEDIAN,
    MAX
  }

  static Schedule build(
      TrafficMatrix m, double beta, LinkNetwork net, StepChooser chooser, DurationRule rule) {
    int rows = m.rows();
    int cols = m.cols();
    int pairs = rows * cols;
    double[] rem = m.toRowMajor();
    int[][] routes = new int[pairs][];
    for (int p = 0; p < pairs; p++) {
      routes[p] = net.route(p / cols, p % cols);
    }
    double scale = m.maxAmount();
    double[] load = new double[net.linkCount()];
    double[] weight = new double[pairs];
    boolean[] enabled = new boolean[pairs];
    List<Step> steps = new ArrayList<>();
    int left = m.nonZeroCount();
    while (left > 0) {
      Arrays.fill(load, 0);
      double maxRem = 0;
      for (int p = 0; p < pairs; p++) {
        enabled[p] = rem[p] > 0;
        if (enabled[p]) {
          maxRem = Math.max(maxRem, rem[p]);
        }
      }
      // loads in units of the largest remaining amount: only their ratios matter, and sums of
      // amounts
      // near Double.MAX_VALUE would overflow
      for (int p = 0; p < pairs; p++) {
        if (enabled[p]) {
          for (int l : routes[p]) {
            load[l] += rem[p] / maxRem;
          }
        }
      }
      double maxRatio = 0;
      for (int l = 0; l < load.length; l++) {
        load[l] /= net.capacity(l);
        maxRatio = Math.max(maxRatio, load[l]);
      }
      for (int p = 0; p < pairs; p++) {
        if (enabled[p]) {
          double r = 0;
          for (int l : routes[p]) {
            r = Math.max(r, load[l]);
          }
          weight[p] = 2 * (r / maxRatio) + rem[p] / maxRem;
        }
      }
      boolean[] chosen = chooser.choose(weight, enabled);
      double[] amounts = new double[pairs];
      int n = 0;
      for (int p = 0; p < pairs; p++) {
        if (chosen[p]) {
          amounts[n++] = rem[p];
        }
      }
      if (n == 0) {
        throw new IllegalStateException("no pair fits a step; a link has capacity 0");
      }
      double[] a = Arrays.copyOf(amounts, n);
      Arrays.sort(a);
      double d =
          switch (rule) {
            case MIN -> a[0];
            case MEDIAN -> a[(n - 1) / 2];
            case MAX -> a[n - 1];
          };
      List<Transfer> ts = new ArrayList<>();
      double longest = 0;
      for (int p = 0; p < pairs; p++) {
        if (!chosen[p]) {
          continue;
        }
        double send;
        if (rem[p] <= d + EPS * scale) {
          send = rem[p];
          rem[p] = 0;
          left--;
        } else {
          send = d;
          rem[p] -= d;
        }
        longest = Math.max(longest, send);
        ts.add(new Transfer(p / cols, p % cols, send));
      }
      steps.add(new Step(longest, ts));
    }
    return new Schedule(steps);
  }

  @Override
  public String toString() {
    return "liquid" + (network == null ? "" : " on " + network);
  }
}
