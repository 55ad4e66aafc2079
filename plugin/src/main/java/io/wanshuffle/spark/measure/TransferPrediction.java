package io.wanshuffle.spark.measure;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.estimate.LinkFairShareEstimator;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Predicts a stage's cross-site transfer phase (first cross-site fetch request to last cross-site
 * byte) from the measured network ({@link NetworkEstimate}), twice: as the plugin runs it and as
 * Spark's default would run it ({@link #ofStage}). The input is the stage's whole traffic: one flow
 * per reduce task and sending host, the registered tasks' and those still expected. Where a link
 * was not measured, its configured rate stands (its capacity in flows times the base speed of the
 * {@link LinkModel}); where β was not measured, the configured β.
 *
 * <ul>
 *   <li><b>Scheduled</b> ({@link #pipelined}): the stage's transfers are run on the links as the
 *       coordinator's pipelined steps run them: a transfer starts as soon as every link of its
 *       route has a free flow (capacity from the link model), and of the transfers that fit, the
 *       one on the most-loaded link first (a link's load: the seconds its transfers not started yet
 *       still need at its rate), as the coordinator ranks ports by their residual demand when it
 *       re-plans; it takes β + bytes / its per-flow rate (the smallest over its links of the
 *       measured rate over the link's capacity in flows). With β measured, a transfer takes only
 *       the grant delay of β, and the ramp of a flow on a reused connection (the request's round
 *       trip and what is left of TCP's ramp) is added once: with predicted hand-over a port's next
 *       flow is requested ahead of the previous flow's last byte, so only the first flows wait for
 *       it. The prediction is the time the last one ends. The coordinator hands a freed port to the
 *       next flow at once, so this is a pipelined sum rather than the KPBS cost Σ(β + longest
 *       transfer of the step) (GGP/OGGP paper, Cohen, Jeannot, Padoy, Wagner, sec. 2). {@link
 *       #scheduled} runs a plan in its given order instead. More than {@value #MAX_SIMULATED}
 *       transfers (counting each {@link PlannedFlow}'s {@code transfers}) are not simulated: their
 *       times summed and divided by k stand instead.
 *   <li><b>Default</b> ({@link #fairShare}): η_o, every host pair's bytes started at once with the
 *       transport sharing every link max-min fairly (redistribution-prediction paper, Wagner and
 *       Jeannot, INRIA RR-5361, sec. 3.1; scheduler-core's {@link LinkFairShareEstimator}) at the
 *       measured rates, plus a new connection's ramp once (every flow opens at the same time, from
 *       TCP's initial window).
 * </ul>
 */
public final class TransferPrediction {
  /**
   * Fewest flows on reused connections a link's rate must be measured over to replace the model's
   * rate (as {@link ConfiguredValueCheck#MIN_FLOWS}).
   */
  public static final int MIN_FLOWS = ConfiguredValueCheck.MIN_FLOWS;

  /** Largest plan the list schedule simulates (O(T²) in its transfers T). */
  public static final int MAX_SIMULATED = 5000;

  private TransferPrediction() {}

  /**
   * Both predictions of one plan.
   *
   * @param scheduledSeconds as the plugin runs the plan, seconds (NaN: unknown)
   * @param defaultSeconds as Spark's default would run its matrix, seconds (NaN: unknown)
   */
  public record Prediction(double scheduledSeconds, double defaultSeconds) {
    /** Neither prediction known. */
    public static final Prediction UNKNOWN = new Prediction(Double.NaN, Double.NaN);
  }

  /**
   * Both predictions of a stage's whole cross-site traffic; a host the link model cannot route
   * gives {@link Prediction#UNKNOWN}.
   *
   * @param flows the stage's flows: one per task (registered or expected) and sending host, bytes
   * @param est the measured network
   * @param model the links
   * @param configuredBeta β when none was measured, seconds
   * @return {@link #pipelined} of the flows, ties in {@link #bottleneckFirst} order, and {@link
   *     #fairShare} of their matrix
   */
  public static Prediction ofStage(
      List<PlannedFlow> flows, NetworkEstimate est, LinkModel model, double configuredBeta) {
    try {
      return new Prediction(
          pipelined(bottleneckFirst(flows, est, model), est, model, configuredBeta),
          fairShare(flows, est, model));
    } catch (RuntimeException e) {
      return Prediction.UNKNOWN;
    }
  }

  /**
   * Orders flows as the coordinator's pipelined steps favour them: the flows on the most-loaded
   * link first. A link's load is the seconds its flows' bytes need at its rate (measured, else
   * configured); a flow's key is the largest load over its route; ties go to the larger flow, then
   * to the given order.
   *
   * @param flows flows in any order
   * @param est the measured network
   * @param model the links
   * @return the same flows, most-loaded route first
   */
  public static List<PlannedFlow> bottleneckFirst(
      List<PlannedFlow> flows, NetworkEstimate est, LinkModel model) {
    int n = flows.size();
    int[][] routes = new int[n][];
    for (int i = 0; i < n; i++) {
      routes[i] = model.route(flows.get(i).srcHost(), flows.get(i).dstHost());
    }
    double[] load = new double[model.linkCount()];
    for (int i = 0; i < n; i++) {
      for (int l : routes[i]) {
        load[l] += flows.get(i).bytes() / (perFlowRate(l, est, model) * model.capacity(l));
      }
    }
    double[] key = new double[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
      for (int l : routes[i]) {
        key[i] = Math.max(key[i], load[l]);
      }
    }
    java.util.Arrays.sort(
        order,
        (a, b) -> {
          int c = Double.compare(key[b], key[a]);
          return c != 0 ? c : Long.compare(flows.get(b).bytes(), flows.get(a).bytes());
        });
    List<PlannedFlow> out = new ArrayList<>(n);
    for (int i : order) {
      out.add(flows.get(i));
    }
    return out;
  }

  /**
   * @param plan the plan's transfers in plan order (steps in order, each step's transfers in
   *     order); an entry of several transfers runs as one, its transfers back to back
   * @param est the measured network
   * @param model the links, their capacities and the configured base speed
   * @param configuredBeta β to use when {@code est} has none, seconds
   * @return the predicted transfer phase, seconds (class doc): per transfer the measured grant
   *     delay (or the configured β) plus its bytes at its per-flow rate, list-scheduled, plus the
   *     measured ramp once; 0 for an empty plan
   */
  public static double scheduled(
      List<PlannedFlow> plan, NetworkEstimate est, LinkModel model, double configuredBeta) {
    double beta = est.hasBeta() ? est.grantDelaySeconds() : configuredBeta;
    double once = est.hasBeta() ? est.rampSeconds() : 0;
    int n = plan.size();
    if (n == 0) {
      return 0;
    }
    int[][] routes = new int[n][];
    double[] seconds = new double[n];
    long transfers = 0;
    for (int i = 0; i < n; i++) {
      PlannedFlow f = plan.get(i);
      routes[i] = model.route(f.srcHost(), f.dstHost());
      double rate = Double.MAX_VALUE;
      for (int l : routes[i]) {
        rate = Math.min(rate, perFlowRate(l, est, model));
      }
      seconds[i] = f.transfers() * beta + f.bytes() / rate;
      transfers += f.transfers();
    }
    if (transfers > MAX_SIMULATED) {
      double sum = 0;
      for (double s : seconds) {
        sum += s;
      }
      return sum / Math.max(1, model.k()) + once;
    }
    return listSchedule(routes, seconds, model) + once;
  }

  /**
   * A stage's transfers as the coordinator's pipelined steps run them: each time a flow of a link
   * frees, of the transfers whose links all have a free flow, the one on the most-loaded link (a
   * link's load: the seconds its transfers not started yet still need at its rate; a transfer's
   * key: its route's loads, largest first, compared in that order, so that of two transfers on the
   * same bottleneck the one whose other links have more left goes first) starts first, ties to the
   * given order; otherwise as {@link #scheduled}: each takes the grant delay (or the configured β)
   * plus its bytes at its per-flow rate, and the measured ramp is added once. Ranking by the load
   * still to come rather than in a fixed order keeps a link that has much left from waiting behind
   * transfers of links that have little, as the coordinator re-plans the residual demand whenever a
   * step ends.
   *
   * @param flows the stage's transfers, ties ranked in this order ({@link #bottleneckFirst} gives
   *     the coordinator's)
   * @param est the measured network
   * @param model the links, their capacities and the configured base speed
   * @param configuredBeta β to use when {@code est} has none, seconds
   * @return the predicted transfer phase, seconds; 0 without transfers; beyond {@value
   *     #MAX_SIMULATED} transfers, {@link #scheduled}'s sum over k
   */
  public static double pipelined(
      List<PlannedFlow> flows, NetworkEstimate est, LinkModel model, double configuredBeta) {
    int n = flows.size();
    long transfers = 0;
    for (PlannedFlow f : flows) {
      transfers += f.transfers();
    }
    if (n == 0 || transfers > MAX_SIMULATED) {
      return scheduled(flows, est, model, configuredBeta);
    }
    double beta = est.hasBeta() ? est.grantDelaySeconds() : configuredBeta;
    double once = est.hasBeta() ? est.rampSeconds() : 0;
    int[][] routes = new int[n][];
    double[] seconds = new double[n];
    double[][] onLink = new double[n][];
    for (int i = 0; i < n; i++) {
      PlannedFlow f = flows.get(i);
      routes[i] = model.route(f.srcHost(), f.dstHost());
      onLink[i] = new double[routes[i].length];
      double rate = Double.MAX_VALUE;
      for (int r = 0; r < routes[i].length; r++) {
        int l = routes[i][r];
        rate = Math.min(rate, perFlowRate(l, est, model));
        onLink[i][r] = f.bytes() / linkRate(l, est, model);
      }
      seconds[i] = f.transfers() * beta + f.bytes() / rate;
    }
    double[] load = new double[model.linkCount()]; // after routing: the routes' links have ids
    for (int i = 0; i < n; i++) {
      for (int r = 0; r < routes[i].length; r++) {
        load[routes[i][r]] += onLink[i][r];
      }
    }
    int longest = 0;
    for (int[] r : routes) {
      longest = Math.max(longest, r.length);
    }
    double[] key = new double[longest];
    double[] bestKey = new double[longest];
    int[] used = new int[load.length];
    Ends ends = new Ends(n);
    // the transfers of one host pair share their route and key: only the first not started of
    // each pair (in the given order) is a candidate, so a start scans the pairs, not the transfers
    Map<String, Integer> pairOf = new HashMap<>();
    List<List<Integer>> pairs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      PlannedFlow f = flows.get(i);
      int p = pairOf.computeIfAbsent(f.srcHost() + "\n" + f.dstHost(), k -> pairs.size());
      if (p == pairs.size()) {
        pairs.add(new ArrayList<>());
      }
      pairs.get(p).add(i);
    }
    int[] next = new int[pairs.size()];
    while (ends.done < n) {
      while (true) {
        int best = -1;
        int bestPair = -1;
        for (int p = 0; p < pairs.size(); p++) {
          if (next[p] == pairs.get(p).size()) {
            continue;
          }
          int i = pairs.get(p).get(next[p]);
          if (!fits(routes[i], used, model)) {
            continue;
          }
          loadsLargestFirst(routes[i], load, key);
          if (best < 0 || before(key, bestKey) || (!before(bestKey, key) && i < best)) {
            best = i;
            bestPair = p;
            double[] t = bestKey;
            bestKey = key;
            key = t;
          }
        }
        if (best < 0) {
          break;
        }
        next[bestPair]++;
        ends.start(best, seconds[best], routes[best], used);
        for (int r = 0; r < routes[best].length; r++) {
          load[routes[best][r]] -= onLink[best][r];
        }
      }
      ends.next(routes, used);
    }
    return ends.makespan + once;
  }

  /** Writes the loads of a route's links into {@code out}, largest first, then zeros to its end. */
  private static void loadsLargestFirst(int[] route, double[] load, double[] out) {
    java.util.Arrays.fill(out, 0);
    for (int r = 0; r < route.length; r++) {
      double v = load[route[r]];
      int j = r;
      while (j > 0 && out[j - 1] < v) {
        out[j] = out[j - 1];
        j--;
      }
      out[j] = v;
    }
  }

  /** True when key a ranks before key b: the first load that differs is larger in a. */
  private static boolean before(double[] a, double[] b) {
    for (int j = 0; j < a.length; j++) {
      if (a[j] != b[j]) {
        return a[j] > b[j];
      }
    }
    return false;
  }

  /**
   * The simulated clock of a list schedule: which transfers started and run, when each ends, the
   * transfers ended and the last end so far (seconds).
   */
  private static final class Ends {
    final boolean[] started;
    final boolean[] running;
    final double[] endOf;
    int done;
    double now;
    double makespan;

    Ends(int n) {
      started = new boolean[n];
      running = new boolean[n];
      endOf = new double[n];
    }

    /** Starts transfer i now for {@code seconds}, holding a flow on each link of its route. */
    void start(int i, double seconds, int[] route, int[] used) {
      started[i] = true;
      running[i] = true;
      endOf[i] = now + seconds;
      for (int l : route) {
        used[l]++;
      }
    }

    /** Moves to the soonest end of a running transfer and ends every transfer ending then. */
    void next(int[][] routes, int[] used) {
      double soonest = Double.MAX_VALUE;
      for (int i = 0; i < running.length; i++) {
        if (running[i]) {
          soonest = Math.min(soonest, endOf[i]);
        }
      }
      now = soonest;
      for (int i = 0; i < running.length; i++) {
        if (running[i] && endOf[i] <= now) {
          running[i] = false;
          done++;
          makespan = Math.max(makespan, endOf[i]);
          for (int l : routes[i]) {
            used[l]--;
          }
        }
      }
    }
  }

  /** Makespan of the transfers started in order whenever all their links have a free flow. */
  private static double listSchedule(int[][] routes, double[] seconds, LinkModel model) {
    int n = seconds.length;
    int[] used = new int[model.linkCount()];
    Ends ends = new Ends(n);
    while (ends.done < n) {
      for (int i = 0; i < n; i++) {
        if (!ends.started[i] && fits(routes[i], used, model)) {
          ends.start(i, seconds[i], routes[i], used);
        }
      }
      ends.next(routes, used);
    }
    return ends.makespan;
  }

  private static boolean fits(int[] route, int[] used, LinkModel model) {
    for (int l : route) {
      if (used[l] >= model.capacity(l)) {
        return false;
      }
    }
    return true;
  }

  /** A flow's rate on link l: {@link #linkRate} over the link's capacity in flows. */
  private static double perFlowRate(int link, NetworkEstimate est, LinkModel model) {
    return linkRate(link, est, model) / model.capacity(link);
  }

  /**
   * The rate the prediction gives a link: its measured rate when measured over at least {@value
   * #MIN_FLOWS} flows on reused connections ({@link LinkRate#reusedFlows}), at most the link
   * model's rate (capacity in flows x base speed: the configured rate, or the one {@code auto}
   * adopted); the model's rate otherwise. A measured rate is what the link delivered to its flows,
   * so below the model's rate it is a slower link than configured (or one its flows were held back
   * from); above it, it is not a capacity the link has shown to the plugin's flows, and a few
   * flows' sharing estimate can be far off. A host pair's first flow opens its connection and
   * spends part of its time in TCP's slow start, below its share: a sample of few flows, many of
   * them first flows (an application's first gated stage), reads the link low, while the stages
   * that follow run on the open connections.
   *
   * @param link a link id of the model
   * @param est the measured network
   * @param model the links
   * @return bytes/s, &gt; 0
   */
  static double linkRate(int link, NetworkEstimate est, LinkModel model) {
    double modelRate = (double) model.capacity(link) * model.baseSpeed();
    if (!measured(link, est, model)) {
      return modelRate;
    }
    return Math.min(est.rates().get(model.name(link)).bytesPerSecond(), modelRate);
  }

  /**
   * @param link a link id of the model
   * @param est the measured network
   * @param model the links
   * @return true when its measurement counts: measured over at least {@value #MIN_FLOWS} flows on
   *     reused connections ({@link #linkRate})
   */
  private static boolean measured(int link, NetworkEstimate est, LinkModel model) {
    LinkRate r = est.rates().get(model.name(link));
    return r != null && r.reusedFlows() >= MIN_FLOWS && r.bytesPerSecond() > 0;
  }

  /**
   * Spark's default on a stage's traffic: every host pair's bytes as one transfer, all started at
   * once, the transport sharing every link of the link model max-min fairly ({@link
   * LinkFairShareEstimator}: η_o of the redistribution-prediction paper, Wagner and Jeannot, INRIA
   * RR-5361, sec. 3.1, with max-min fairness over NICs, rack links and backbone sides), each link
   * at its measured rate (its configured rate when not measured), one transfer at most at the
   * measured base speed, plus once the measured ramp of a host pair's first flow ({@link
   * NetworkEstimate#firstRampSeconds}): every flow starts at once with its window at TCP's initial
   * window, as on a new connection (a connection idle since its last fetch restarts slow start, RFC
   * 2861).
   *
   * @param flows the stage's flows; flows of the same host pair add up
   * @param est the measured network
   * @param model the links
   * @return seconds; 0 when no bytes move
   */
  public static double fairShare(List<PlannedFlow> flows, NetworkEstimate est, LinkModel model) {
    Map<String, Integer> rows = new LinkedHashMap<>();
    Map<String, Integer> cols = new LinkedHashMap<>();
    for (PlannedFlow f : flows) {
      if (f.bytes() > 0) {
        rows.putIfAbsent(f.srcHost(), rows.size());
        cols.putIfAbsent(f.dstHost(), cols.size());
      }
    }
    if (rows.isEmpty()) {
      return 0;
    }
    long[][] bytes = new long[rows.size()][cols.size()];
    for (PlannedFlow f : flows) {
      if (f.bytes() > 0) {
        bytes[rows.get(f.srcHost())][cols.get(f.dstHost())] += f.bytes();
      }
    }
    int[][][] route = new int[rows.size()][cols.size()][];
    for (Map.Entry<String, Integer> s : rows.entrySet()) {
      for (Map.Entry<String, Integer> d : cols.entrySet()) {
        if (bytes[s.getValue()][d.getValue()] > 0) {
          route[s.getValue()][d.getValue()] = model.route(s.getKey(), d.getKey());
        }
      }
    }
    double b = measuredBaseSpeed(est, model); // after routing: the routes' links have their ids
    double[][] sec = new double[rows.size()][cols.size()];
    LinkNetwork.Builder net = new LinkNetwork.Builder(rows.size(), cols.size());
    Map<Integer, Integer> idOf = new HashMap<>();
    List<Double> capacity = new ArrayList<>();
    for (int i = 0; i < sec.length; i++) {
      for (int j = 0; j < sec[i].length; j++) {
        if (bytes[i][j] == 0) {
          continue;
        }
        sec[i][j] = bytes[i][j] / b;
        List<Integer> up = new ArrayList<>();
        List<Integer> down = new ArrayList<>();
        for (int l : route[i][j]) {
          Integer id = idOf.get(l);
          if (id == null) {
            id = net.addLink(model.name(l), model.capacity(l));
            idOf.put(l, id);
            capacity.add(perFlowRate(l, est, model) * model.capacity(l) / b);
          }
          (model.isSenderSide(l) ? up : down).add(id);
        }
        net.route(
            i,
            j,
            up.stream().mapToInt(Integer::intValue).toArray(),
            down.stream().mapToInt(Integer::intValue).toArray());
      }
    }
    int[] sd = new int[rows.size()];
    java.util.Arrays.fill(sd, 1);
    int[] rd = new int[cols.size()];
    java.util.Arrays.fill(rd, 1);
    LinkNetwork network = net.build(Math.max(1, model.k()), sd, rd, Math.round(b));
    return LinkFairShareEstimator.estimate(
            TrafficMatrix.of(sec),
            network,
            capacity.stream().mapToDouble(Double::doubleValue).toArray())
        + est.firstRampSeconds();
  }

  /**
   * @return the median over NIC links measured over at least {@value #MIN_FLOWS} flows of {@link
   *     #linkRate} / capacity in flows, bytes/s; the configured base speed when no NIC was measured
   */
  static double measuredBaseSpeed(NetworkEstimate est, LinkModel model) {
    List<Double> v = new ArrayList<>();
    for (int l = 0; l < model.linkCount(); l++) {
      if (model.isNic(l) && measured(l, est, model)) {
        v.add(perFlowRate(l, est, model));
      }
    }
    if (v.isEmpty()) {
      return model.baseSpeed();
    }
    return Robust.median(v.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
