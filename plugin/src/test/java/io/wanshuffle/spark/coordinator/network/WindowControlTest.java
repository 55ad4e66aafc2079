package io.wanshuffle.spark.coordinator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Windows moved by the flows a link carries, on synthetic flow records: two clusters of three
 * hosts, a backbone of 2 flows per side (200 Mbit/s at a base speed of 100 Mbit/s), NICs of 1 flow.
 * Flows are opened in the leases over their time, so that the links' occupancy is what the
 * coordinator held.
 */
class WindowControlTest {
  private static final double MBIT = 1e6 / 8;
  private static final long B = (long) (100 * MBIT);
  private static final Function<String, String> CLUSTER = h -> h.substring(0, 1).toUpperCase();

  private long now = 1_000_000;
  private final LinkModel model = LinkModel.kpbs(2, h -> 1, CLUSTER, B);
  private final LiveParameters params =
      new LiveParameters(PlanningParameters.of(model, 0.05, "auto"));
  private final FlowLeases leases = new FlowLeases(params, CLUSTER, () -> now);
  private final List<WindowChange> told = new ArrayList<>();
  private int moved;
  private final WindowControl control =
      new WindowControl(params, leases, () -> now, told::add, () -> moved++);

  /** {@code n} flows a_i -> b_i side by side for one second, each at {@code mbit}. */
  private void round(int n, double mbit) {
    long start = now;
    for (int i = 1; i <= n; i++) {
      assertTrue(leases.fits("a" + i, "b" + i), "a" + i + " -> b" + i + " within the window");
      leases.open("a" + i, "b" + i);
    }
    now += 1000;
    for (int i = 1; i <= n; i++) {
      leases.close("a" + i, "b" + i);
    }
    for (int i = 1; i <= n; i++) {
      long bytes = (long) (mbit * MBIT);
      control.onTransferRealised(
          new TransferRecord(
              7,
              new StageRef(1, 0),
              0,
              i,
              "b" + i,
              List.of("a" + i),
              new long[] {bytes},
              start,
              now,
              now));
    }
    now += 10;
  }

  private int backboneWindow() {
    int out = model.route("a1", "b1")[1];
    return params.current().facts().window(out);
  }

  @Test
  void flowsHeldByTheirNicsRaiseTheBackbonesWindowAndTheLeasesAdmitTheThirdFlow() {
    assertFalse(thirdFitsBesideTwo(), "at capacity, a third flow does not fit");
    round(2, 88);
    round(2, 88);
    assertEquals(3, backboneWindow(), told.toString());
    assertTrue(thirdFitsBesideTwo(), "the leases admit a third flow");
    assertEquals(2, moved, "both sides moved, each voiding the plan");
    assertTrue(told.size() >= 1 && told.get(0).link().startsWith("backbone."), told.toString());
    assertEquals(2, told.get(0).capacity());
    assertEquals(3, told.get(0).to());
    round(3, 66); // three flows now fit side by side, and fill the link
    assertEquals(3, backboneWindow(), "the rise raised the throughput: it stays");
  }

  @Test
  void aBackboneThatDropsToAQuarterOfItsRateHasThatRateInForceAtItsCapacityWithinAFewSeconds() {
    round(2, 88);
    round(2, 88);
    assertEquals(3, backboneWindow());
    round(3, 66);
    long dropAt = now;
    round(3, 16.7);
    round(3, 16.7);
    assertEquals(2, backboneWindow(), "back to its capacity of 2, not below: " + told);
    assertTrue(now - dropAt <= 5_000, "within 5 s of the drop: " + (now - dropAt) + " ms");
    WindowChange last = told.get(told.size() - 1);
    assertEquals(50 * MBIT, last.rateBytesPerSecond(), 2 * MBIT, "planned at its new rate");
    assertTrue(last.reason().startsWith("slowed"), last.reason());
  }

  private boolean thirdFitsBesideTwo() {
    leases.open("a1", "b1");
    leases.open("a2", "b2");
    boolean third = leases.fits("a3", "b3");
    leases.close("a1", "b1");
    leases.close("a2", "b2");
    return third;
  }
}
