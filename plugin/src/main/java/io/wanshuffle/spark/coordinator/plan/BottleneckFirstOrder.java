package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * The order in which pipelined steps hand a plan's transfers to free ports: bottleneck ports first.
 * A transfer's priority is the load of its busier port (the bytes still to move at that sender or
 * receiver, plus the expected bytes of tasks still to launch there ({@link PendingTasks}), divided
 * by its δ), then the sum of both ports' loads; ties keep the plan's order. The first piece of each
 * (sender, receiver) pair in the plan is the one considered, since a pair is granted at most once
 * at a time.
 *
 * <p>Why: the plan comes from a KPBS scheduler (GGP/OGGP/...), whose cost model charges every step
 * β plus its longest transfer, so the order of its steps says nothing about which port will be the
 * last to finish once steps overlap. List scheduling that keeps the most-loaded ports busy
 * (Graham's list scheduling with a critical-path priority; the busiest port's load is the W(G) term
 * of the η lower bound in Cohen, Jeannot, Padoy, Wagner, "Messages Scheduling for Parallel Data
 * Redistribution between Clusters", sec. 5) stops a heavily loaded receiver from being left with
 * its transfers in sequence at the end of the stage while the other ports idle.
 *
 * <p>Staggered task ends. While tasks are still to launch, the order has three groups: transfers
 * whose busier port is urgent (its load within {@value #STAGGER_SLACK} of the stage's lower bound
 * max(busiest port's load, all bytes / k)), by load; then transfers to a receiver with tasks still
 * to launch, the receiver whose running tasks have the fewest bytes left first (shortest remaining
 * first); then the others, by load. Why: a receiver's next task starts only when its running task
 * has read its last records and ended, and needs a while before its first request; ranking by load
 * alone lets every receiver's task read its last byte at the same time while the backbone idles
 * until the next tasks request. The urgent group keeps the ports the stage's end depends on first;
 * with no task left to launch (the last wave) the order is by load only, so the last tasks end
 * together. Measurements: docs/benchmarks/2026-11-22-coordinator-port-order.md. O(T log T) for T
 * transfers in the plan.
 */
public final class BottleneckFirstOrder {
  /**
   * While tasks are still to launch, a port is urgent when its load is within this share of the
   * stage's lower bound (the busiest port's load, or all bytes over k); see the class comment.
   */
  static final double STAGGER_SLACK = 0.15;

  private BottleneckFirstOrder() {}

  /**
   * A transfer and its priority.
   *
   * @param transfer the plan's first piece of a (sender, receiver) pair
   * @param load the load of its busier port, bytes per port (δ)
   */
  public record Ranked(Transfer transfer, double load) {}

  /**
   * @param steps the plan's steps, in plan order
   * @param bytes bytes still to move, sender x receiver, indexed like the plan's transfers
   * @param platform the platform the plan was made for: its δ per sender and receiver divide the
   *     ports' loads
   * @param pendingSend per sender, expected bytes of tasks not launched yet ({@code senders()})
   * @param pendingReceive per receiver, expected bytes of tasks not launched yet ({@code
   *     receivers()})
   * @return one ranked transfer per (sender, receiver) pair of the plan, highest priority first
   */
  public static List<Ranked> ranked(
      List<Step> steps,
      long[][] bytes,
      Platform platform,
      double[] pendingSend,
      double[] pendingReceive) {
    int n = 0;
    for (long[] row : bytes) {
      for (long b : row) {
        n += b != 0 ? 1 : 0;
      }
    }
    int[] nzRow = new int[n];
    int[] nzCol = new int[n];
    long[] nzBytes = new long[n];
    int e = 0;
    for (int i = 0; i < bytes.length; i++) {
      for (int j = 0; j < bytes[i].length; j++) {
        if (bytes[i][j] != 0) {
          nzRow[e] = i;
          nzCol[e] = j;
          nzBytes[e++] = bytes[i][j];
        }
      }
    }
    return ranked(steps, nzRow, nzCol, nzBytes, platform, pendingSend, pendingReceive);
  }

  /**
   * As {@link #ranked(List, long[][], Platform, double[], double[])}, with the bytes given as their
   * non-zero cells: O(non-zeros + T log T).
   *
   * @param steps the plan's steps, in plan order
   * @param nzRow the rows of the non-zero cells of the bytes still to move (sender x receiver,
   *     indexed like the plan's transfers), row-major order
   * @param nzCol their columns
   * @param nzBytes their bytes
   * @param platform the platform the plan was made for
   * @param pendingSend per sender, expected bytes of tasks not launched yet
   * @param pendingReceive per receiver, expected bytes of tasks not launched yet
   * @return one ranked transfer per (sender, receiver) pair of the plan, highest priority first
   */
  public static List<Ranked> ranked(
      List<Step> steps,
      int[] nzRow,
      int[] nzCol,
      long[] nzBytes,
      Platform platform,
      double[] pendingSend,
      double[] pendingReceive) {
    int rows = platform.senders();
    int cols = platform.receivers();
    double[] senderLoad = pendingSend.clone();
    double[] receiverLoad = pendingReceive.clone();
    // bytes of the receivers' registered (running) tasks, per port
    double[] running = new double[cols];
    double total = Arrays.stream(pendingReceive).sum();
    boolean tasksToLaunch = Arrays.stream(pendingReceive).anyMatch(p -> p > 0);
    // row-major over the non-zeros: the same sums as over every cell
    for (int e = 0; e < nzRow.length; e++) {
      int i = nzRow[e];
      int j = nzCol[e];
      senderLoad[i] += nzBytes[e];
      receiverLoad[j] += nzBytes[e];
      running[j] += nzBytes[e];
      total += nzBytes[e];
    }
    double bound = total / platform.k();
    for (int i = 0; i < rows; i++) {
      senderLoad[i] /= platform.senderPorts(i);
      bound = Math.max(bound, senderLoad[i]);
    }
    for (int j = 0; j < cols; j++) {
      receiverLoad[j] /= platform.receiverPorts(j);
      running[j] /= platform.receiverPorts(j);
      bound = Math.max(bound, receiverLoad[j]);
    }
    Set<Long> seen = new HashSet<>();
    List<Transfer> firstPieces = new ArrayList<>();
    for (Step step : steps) {
      for (Transfer t : step.transfers()) {
        if (seen.add((long) t.src() * cols + t.dst())) {
          firstPieces.add(t);
        }
      }
    }
    ToDoubleFunction<Transfer> load = t -> Math.max(senderLoad[t.src()], receiverLoad[t.dst()]);
    double urgentFrom = bound * (1 - STAGGER_SLACK);
    // 2: an urgent port; 1: a receiver with tasks still to launch (its running task's end starts
    // the next one);
    // 0: the others. Without tasks to launch every transfer is in one group.
    ToIntFunction<Transfer> group =
        t ->
            !tasksToLaunch
                ? 0
                : load.applyAsDouble(t) >= urgentFrom ? 2 : pendingReceive[t.dst()] > 0 ? 1 : 0;
    // within group 1 the receiver whose running tasks have the fewest bytes left comes first
    ToDoubleFunction<Transfer> rank =
        t -> group.applyAsInt(t) == 1 ? -running[t.dst()] : load.applyAsDouble(t);
    Comparator<Transfer> bothPorts =
        Comparator.comparingDouble(t -> senderLoad[t.src()] + receiverLoad[t.dst()]);
    // List.sort is stable: equal priorities keep the plan's order
    firstPieces.sort(
        Comparator.comparingInt(group)
            .thenComparingDouble(rank)
            .thenComparing(bothPorts)
            .reversed());
    List<Ranked> out = new ArrayList<>();
    for (Transfer t : firstPieces) {
      out.add(new Ranked(t, load.applyAsDouble(t)));
    }
    return out;
  }
}
