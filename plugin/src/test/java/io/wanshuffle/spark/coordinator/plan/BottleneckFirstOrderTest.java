package io.wanshuffle.spark.coordinator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.List;
import org.junit.jupiter.api.Test;

class BottleneckFirstOrderTest {
  /**
   * Plan (2 x 3): step 1 = {a0 -> b0, a1 -> b1}, step 2 = {a0 -> b2, a1 -> b0 (first piece)}, step
   * 3 = {a1 -> b0 (second piece)}. Receiver b0 carries 900 of the 1000 bytes still to move at one
   * port, so its transfers go first; the second piece of a1 -> b0 is not listed again.
   */
  @Test
  void busiestPortFirstThenBothPortsThenPlanOrder() {
    long[][] bytes = {{300, 50, 50}, {600, 10, 0}};
    List<Step> plan =
        List.of(
            Step.of(List.of(new Transfer(0, 0, 0.3), new Transfer(1, 1, 0.01))),
            Step.of(List.of(new Transfer(0, 2, 0.05), new Transfer(1, 0, 0.3))),
            Step.of(List.of(new Transfer(1, 0, 0.3))));
    List<Transfer> order = order(plan, bytes, Platform.onePort(2, 0, 2, 3));
    // loads: a0 400, a1 610, b0 900, b1 60, b2 50
    assertEquals(
        List.of(
            new Transfer(1, 0, 0.3),
            new Transfer(0, 0, 0.3),
            new Transfer(1, 1, 0.01),
            new Transfer(0, 2, 0.05)),
        order);
  }

  /** δ divides a port's load: a receiver with two NICs' worth of ports is less of a bottleneck. */
  @Test
  void deltaSharesAPortsLoad() {
    long[][] bytes = {{500, 0}, {0, 300}};
    List<Step> plan = List.of(Step.of(List.of(new Transfer(0, 0, 0.5), new Transfer(1, 1, 0.3))));
    assertEquals(new Transfer(0, 0, 0.5), order(plan, bytes, Platform.onePort(2, 0, 2, 2)).get(0));
    assertEquals(
        new Transfer(1, 1, 0.3),
        order(plan, bytes, Platform.of(2, 0, new int[] {2, 1}, new int[] {2, 1})).get(0));
  }

  /**
   * Staggered task ends: 3 x 3 hosts, k = 2, each receiver running a task and with a task still to
   * launch. The running tasks have 270, 180 and 300 bytes left at b0, b1, b2: while no port is
   * urgent the receiver with the fewest bytes left comes first (by load alone b1 came last: its
   * load, 480, is the smallest); a receiver whose expected bytes make it urgent (within 15 % of the
   * stage's bound) comes before the others; with no task left to launch the order is by load.
   */
  @Test
  void tasksToLaunchStaggerTheReceiversUnlessAPortIsUrgent() {
    long[][] bytes = {{90, 60, 100}, {90, 60, 100}, {90, 60, 100}};
    List<Step> plan =
        List.of(
            Step.of(List.of(new Transfer(0, 0, 0.09), new Transfer(1, 1, 0.06))),
            Step.of(List.of(new Transfer(0, 1, 0.06), new Transfer(1, 2, 0.1))),
            Step.of(List.of(new Transfer(0, 2, 0.1), new Transfer(2, 0, 0.09))),
            Step.of(List.of(new Transfer(1, 0, 0.09), new Transfer(2, 1, 0.06))),
            Step.of(List.of(new Transfer(2, 2, 0.1))));
    Platform p = Platform.onePort(2, 0, 3, 3);
    double[] send = {300, 300, 300};
    // bound: all bytes (750 + 900) / k = 825, urgent from 701; loads b0 570, b1 480, b2 600
    assertEquals(
        List.of(1, 1, 1, 0, 0, 0, 2, 2, 2),
        receivers(plan, bytes, p, send, new double[] {300, 300, 300}));
    // b2 expects 900 more: load 1200 = the bound, urgent; then b1 by fewest bytes left, then b0
    assertEquals(
        List.of(2, 2, 2, 1, 1, 1, 0, 0, 0),
        receivers(plan, bytes, p, new double[] {500, 500, 500}, new double[] {300, 300, 900}));
    assertEquals(
        List.of(2, 2, 2, 0, 0, 0, 1, 1, 1),
        receivers(plan, bytes, p, new double[3], new double[3]),
        "the last wave: by load");
  }

  private static List<Integer> receivers(
      List<Step> plan,
      long[][] bytes,
      Platform platform,
      double[] pendingSend,
      double[] pendingReceive) {
    return BottleneckFirstOrder.ranked(plan, bytes, platform, pendingSend, pendingReceive).stream()
        .map(r -> r.transfer().dst())
        .toList();
  }

  /** The ranked transfers without pending tasks, in order. */
  private static List<Transfer> order(List<Step> plan, long[][] bytes, Platform platform) {
    return BottleneckFirstOrder.ranked(
            plan, bytes, platform, new double[platform.senders()], new double[platform.receivers()])
        .stream()
        .map(BottleneckFirstOrder.Ranked::transfer)
        .toList();
  }
}
