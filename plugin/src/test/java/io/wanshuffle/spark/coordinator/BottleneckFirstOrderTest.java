package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.List;
import org.junit.jupiter.api.Test;

class BottleneckFirstOrderTest {
  /**
   * Plan (2 x 3): step 1 = {a0 -> b0, a1 -> b1}, step 2 = {a0 -> b2, a1 -> b0 (first piece)},
   * step 3 = {a1 -> b0 (second piece)}. Receiver b0 carries 900 of the 1000 bytes still to move at
   * one port, so its transfers go first; the second piece of a1 -> b0 is not listed again.
   */
  @Test
  void busiestPortFirstThenBothPortsThenPlanOrder() {
    long[][] bytes = {{300, 50, 50}, {600, 10, 0}};
    List<Step> plan = List.of(
        Step.of(List.of(new Transfer(0, 0, 0.3), new Transfer(1, 1, 0.01))),
        Step.of(List.of(new Transfer(0, 2, 0.05), new Transfer(1, 0, 0.3))),
        Step.of(List.of(new Transfer(1, 0, 0.3))));
    List<Transfer> order = order(plan, bytes, Platform.onePort(2, 0, 2, 3));
    // loads: a0 400, a1 610, b0 900, b1 60, b2 50
    assertEquals(List.of(new Transfer(1, 0, 0.3), new Transfer(0, 0, 0.3),
        new Transfer(1, 1, 0.01), new Transfer(0, 2, 0.05)), order);
  }

  /** δ divides a port's load: a receiver with two NICs' worth of ports is less of a bottleneck. */
  @Test
  void deltaSharesAPortsLoad() {
    long[][] bytes = {{500, 0}, {0, 300}};
    List<Step> plan = List.of(Step.of(List.of(new Transfer(0, 0, 0.5), new Transfer(1, 1, 0.3))));
    assertEquals(new Transfer(0, 0, 0.5),
        order(plan, bytes, Platform.onePort(2, 0, 2, 2)).get(0));
    assertEquals(new Transfer(1, 1, 0.3),
        order(plan, bytes, Platform.of(2, 0, new int[] {2, 1}, new int[] {2, 1})).get(0));
  }

  /** The ranked transfers without pending tasks, in order. */
  private static List<Transfer> order(List<Step> plan, long[][] bytes, Platform platform) {
    return BottleneckFirstOrder.ranked(plan, bytes, platform, new double[platform.senders()],
        new double[platform.receivers()]).stream().map(BottleneckFirstOrder.Ranked::transfer).toList();
  }
}
