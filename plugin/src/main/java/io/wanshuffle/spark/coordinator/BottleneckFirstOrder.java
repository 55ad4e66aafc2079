package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order in which pipelined steps hand a plan's transfers to free ports: bottleneck ports
 * first. A transfer's priority is the load of its busier port (the bytes still to move at that
 * sender or receiver, plus the expected bytes of tasks still to launch there ({@link
 * PendingTasks}), divided by its δ), then the sum of both ports' loads; ties keep the plan's
 * order. The first piece of each (sender, receiver) pair in the plan is the one considered, since
 * a pair is granted at most once at a time.
 *
 * <p>Why: the plan comes from a KPBS scheduler (GGP/OGGP/...), whose cost model charges every step
 * β plus its longest transfer, so the order of its steps says nothing about which port will be
 * the last to finish once steps overlap. List scheduling that keeps the most-loaded ports busy
 * (Graham's list scheduling with a critical-path priority; the busiest port's load is the W(G)
 * term of the η lower bound in Cohen, Jeannot, Padoy, Wagner, "Messages Scheduling for Parallel
 * Data Redistribution between Clusters", sec. 5) stops a heavily loaded receiver from being left with
 * its transfers in sequence at the end of the stage while the other ports idle.
 * O(T log T) for T transfers in the plan.
 */
final class BottleneckFirstOrder {
  private BottleneckFirstOrder() {}

  /**
   * A transfer and its priority.
   *
   * @param transfer the plan's first piece of a (sender, receiver) pair
   * @param load the load of its busier port, bytes per port (δ)
   */
  record Ranked(Transfer transfer, double load) {}

  /**
   * @param steps the plan's steps, in plan order
   * @param bytes bytes still to move, sender x receiver, indexed like the plan's transfers
   * @param platform the platform the plan was made for: its δ per sender and receiver divide the
   *     ports' loads
   * @param pendingSend per sender, expected bytes of tasks not launched yet ({@code senders()})
   * @param pendingReceive per receiver, expected bytes of tasks not launched yet
   *     ({@code receivers()})
   * @return one ranked transfer per (sender, receiver) pair of the plan, highest priority first
   */
  static List<Ranked> ranked(List<Step> steps, long[][] bytes, Platform platform,
      double[] pendingSend, double[] pendingReceive) {
    int rows = platform.senders();
    int cols = platform.receivers();
    double[] senderLoad = pendingSend.clone();
    double[] receiverLoad = pendingReceive.clone();
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        senderLoad[i] += bytes[i][j];
        receiverLoad[j] += bytes[i][j];
      }
    }
    for (int i = 0; i < rows; i++) {
      senderLoad[i] /= platform.senderPorts(i);
    }
    for (int j = 0; j < cols; j++) {
      receiverLoad[j] /= platform.receiverPorts(j);
    }
    boolean[] seen = new boolean[rows * cols];
    List<Transfer> firstPieces = new ArrayList<>();
    for (Step step : steps) {
      for (Transfer t : step.transfers()) {
        int pair = t.src() * cols + t.dst();
        if (!seen[pair]) {
          seen[pair] = true;
          firstPieces.add(t);
        }
      }
    }
    Comparator<Transfer> busierPort = Comparator.comparingDouble(
        t -> Math.max(senderLoad[t.src()], receiverLoad[t.dst()]));
    Comparator<Transfer> bothPorts = Comparator.comparingDouble(
        t -> senderLoad[t.src()] + receiverLoad[t.dst()]);
    // List.sort is stable: equal priorities keep the plan's order
    firstPieces.sort(busierPort.thenComparing(bothPorts).reversed());
    List<Ranked> out = new ArrayList<>();
    for (Transfer t : firstPieces) {
      out.add(new Ranked(t, Math.max(senderLoad[t.src()], receiverLoad[t.dst()])));
    }
    return out;
  }
}
