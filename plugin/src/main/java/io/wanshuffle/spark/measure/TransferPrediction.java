package io.wanshuffle.spark.measure;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.estimate.BruteForceEstimator;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Predicts a stage's cross-site transfer phase (first cross-site fetch request to last cross-site
 * byte) from the measured network ({@link NetworkEstimate}), twice: as the plugin runs its plan and
 * as Spark's default would run it. Where a link was not measured, its configured rate stands (its
 * capacity in flows times the base speed of the {@link LinkModel}); where β was not measured, the
 * configured β.
 *
 * <ul>
 *   <li><b>Scheduled</b> ({@link #scheduled}): the plan's transfers, in plan order, are
 *       list-scheduled on the links as the coordinator's pipelined steps run them: a transfer
 *       starts as soon as every link of its route has a free flow (capacity from the link model),
 *       earlier transfers first, and takes β + bytes / its per-flow rate (the smallest over its
 *       links of the measured rate over the link's capacity in flows). The prediction is the time
 *       the last one ends. The coordinator hands a freed port to the next flow at once, so this is
 *       a pipelined sum rather than the KPBS cost Σ(β + longest transfer of the step) (GGP/OGGP
 *       paper, Cohen, Jeannot, Padoy, Wagner, sec. 2). A plan of more than {@value #MAX_SIMULATED}
 *       transfers is not simulated: its transfers' times summed and divided by k stand instead.
 *   <li><b>Default</b> ({@link #bruteForce}): η_o, the brute-force estimate of every transfer
 *       started at once with the transport sharing fairly (redistribution-prediction paper, Wagner
 *       and Jeannot, INRIA RR-5361, sec. 3.1; scheduler-core's {@link BruteForceEstimator}), with
 *       the measured base speed (the median over measured NICs of rate / capacity in flows) and the
 *       measured k (the slowest measured backbone side's rate over that base speed), plus the ramp
 *       once (every flow opens at the same time).
 * </ul>
 */
public final class TransferPrediction {
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
   * Both predictions of a plan; a host the link model cannot route gives {@link
   * Prediction#UNKNOWN}.
   *
   * @param senders the plan's row hosts
   * @param receivers its column hosts
   * @param residualBytes {@code [i][j]}: the bytes it plans, senders x receivers
   * @param plan its transfers in plan order
   * @param est the measured network
   * @param model the links
   * @param configuredBeta β when none was measured, seconds
   * @return {@link #scheduled} and {@link #bruteForce}
   */
  public static Prediction of(
      List<String> senders,
      List<String> receivers,
      long[][] residualBytes,
      List<PlannedFlow> plan,
      NetworkEstimate est,
      LinkModel model,
      double configuredBeta) {
    try {
      return new Prediction(
          scheduled(plan, est, model, configuredBeta),
          bruteForce(senders, receivers, residualBytes, est, model));
    } catch (RuntimeException e) {
      return Prediction.UNKNOWN;
    }
  }

  /**
   * @param plan the plan's transfers in plan order (steps in order, each step's transfers in order)
   * @param est the measured network
   * @param model the links, their capacities and the configured base speed
   * @param configuredBeta β to use when {@code est} has none, seconds
   * @return the predicted transfer phase, seconds; 0 for an empty plan
   */
  public static double scheduled(
      List<PlannedFlow> plan, NetworkEstimate est, LinkModel model, double configuredBeta) {
    double beta = est.hasBeta() ? est.betaSeconds() : configuredBeta;
    int n = plan.size();
    if (n == 0) {
      return 0;
    }
    int[][] routes = new int[n][];
    double[] seconds = new double[n];
    for (int i = 0; i < n; i++) {
      PlannedFlow f = plan.get(i);
      routes[i] = model.route(f.srcHost(), f.dstHost());
      double rate = Double.MAX_VALUE;
      for (int l : routes[i]) {
        rate = Math.min(rate, perFlowRate(l, est, model));
      }
      seconds[i] = beta + f.bytes() / rate;
    }
    if (n > MAX_SIMULATED) {
      double sum = 0;
      for (double s : seconds) {
        sum += s;
      }
      return sum / Math.max(1, model.k());
    }
    return listSchedule(routes, seconds, model);
  }

  /** Makespan of the transfers started in order whenever all their links have a free flow. */
  private static double listSchedule(int[][] routes, double[] seconds, LinkModel model) {
    int n = seconds.length;
    int[] used = new int[model.linkCount()];
    double[] endOf = new double[n];
    boolean[] started = new boolean[n];
    boolean[] running = new boolean[n];
    int done = 0;
    double now = 0;
    double makespan = 0;
    while (done < n) {
      for (int i = 0; i < n; i++) {
        if (!started[i] && fits(routes[i], used, model)) {
          started[i] = true;
          running[i] = true;
          endOf[i] = now + seconds[i];
          for (int l : routes[i]) {
            used[l]++;
          }
        }
      }
      double next = Double.MAX_VALUE;
      for (int i = 0; i < n; i++) {
        if (running[i]) {
          next = Math.min(next, endOf[i]);
        }
      }
      now = next;
      for (int i = 0; i < n; i++) {
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
    return makespan;
  }

  private static boolean fits(int[] route, int[] used, LinkModel model) {
    for (int l : route) {
      if (used[l] >= model.capacity(l)) {
        return false;
      }
    }
    return true;
  }

  /** A flow's rate on link l: its measured rate over its capacity in flows, else the base speed. */
  private static double perFlowRate(int link, NetworkEstimate est, LinkModel model) {
    double r = est.rate(model.name(link));
    return r > 0 ? r / model.capacity(link) : model.baseSpeed();
  }

  /**
   * @param senders row hosts
   * @param receivers column hosts
   * @param bytes {@code [i][j]}: bytes from {@code senders[i]} to {@code receivers[j]}
   * @param est the measured network
   * @param model the links (δ of each host, configured k and base speed)
   * @return η_o with the measured base speed and k, plus the measured ramp, seconds; 0 when no
   *     bytes move
   */
  public static double bruteForce(
      List<String> senders,
      List<String> receivers,
      long[][] bytes,
      NetworkEstimate est,
      LinkModel model) {
    double b = measuredBaseSpeed(est, model);
    int k = measuredK(est, model, b);
    double[][] sec = new double[senders.size()][receivers.size()];
    boolean any = false;
    for (int i = 0; i < sec.length; i++) {
      for (int j = 0; j < sec[i].length; j++) {
        sec[i][j] = bytes[i][j] / b;
        any |= bytes[i][j] > 0;
      }
    }
    if (!any) {
      return 0;
    }
    int[] sd = new int[senders.size()];
    for (int i = 0; i < sd.length; i++) {
      sd[i] = Math.max(1, model.sendPorts(senders.get(i)));
    }
    int[] rd = new int[receivers.size()];
    for (int j = 0; j < rd.length; j++) {
      rd[j] = Math.max(1, model.receivePorts(receivers.get(j)));
    }
    return BruteForceEstimator.estimate(TrafficMatrix.of(sec), Platform.of(k, 0, sd, rd))
        + est.rampSeconds();
  }

  /**
   * @return the median over measured NIC links of rate / capacity in flows, bytes/s; the configured
   *     base speed when no NIC was measured
   */
  static double measuredBaseSpeed(NetworkEstimate est, LinkModel model) {
    List<Double> v = new ArrayList<>();
    for (int l = 0; l < model.linkCount(); l++) {
      double r = est.rate(model.name(l));
      if (model.isNic(l) && r > 0) {
        v.add(r / model.capacity(l));
      }
    }
    if (v.isEmpty()) {
      return model.baseSpeed();
    }
    return Robust.median(v.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * @return the slowest measured backbone side's rate over the base speed b, rounded, at least 1;
   *     the configured k when no backbone side was measured
   */
  static int measuredK(NetworkEstimate est, LinkModel model, double b) {
    double slowest = Double.MAX_VALUE;
    for (int l = 0; l < model.linkCount(); l++) {
      double r = est.rate(model.name(l));
      if ((model.isBackboneIn(l) || model.isBackboneOut(l)) && r > 0) {
        slowest = Math.min(slowest, r);
      }
    }
    if (slowest == Double.MAX_VALUE) {
      return model.k();
    }
    return (int) Math.max(1, Math.round(slowest / b));
  }
}
