package io.wanshuffle.spark.coordinator.demand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.network.PlanningParameters;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A stage is told task-bound when its demands get their ports whenever they ask and no shared link
 * is held at its window: its flows are few and far between (the links idle), or its demands never
 * wait. A stage whose links stay busy, or whose demands wait for ports, is not.
 */
class StageWaitsTest {
  private static final Function<String, String> CLUSTER = h -> h.substring(0, 1);
  private static final StageRef STAGE = new StageRef(4, 0);
  private long now = 1_000_000;
  private final FlowLeases leases =
      new FlowLeases(
          new LiveParameters(
              PlanningParameters.of(LinkModel.kpbs(2, h -> 1, CLUSTER, 1_000_000), 0.05, "auto")),
          CLUSTER,
          () -> now);
  private final StageWaits waits = new StageWaits();

  /** {@code n} grants one after another, each flow open for {@code flowMs} of every 1 s. */
  private void grants(int n, long flowMs, boolean waited) {
    for (int i = 0; i < n; i++) {
      waits.granted(STAGE, waited, now);
      leases.open("a1", "b1");
      now += flowMs;
      leases.close("a1", "b1");
      now += 1000 - flowMs;
    }
  }

  @Test
  void aStageOfFewFlowsThatNeverWaitIsTaskBound() {
    grants(19, 100, false);
    assertEquals(List.of(), waits.taskBound(now, leases), "19 grants: too few to tell");
    grants(1, 100, false);
    List<StageWaits.TaskBound> t = waits.taskBound(now, leases);
    assertEquals(1, t.size());
    assertEquals(STAGE, t.get(0).stage());
    assertEquals(0.05, t.get(0).busiest(), 0.01, "one flow of two, a tenth of the time");
    assertTrue(t.get(0).reason().startsWith("ungated: not network-bound"), t.get(0).reason());
    assertEquals(List.of(), waits.taskBound(now, leases), "told once");
  }

  @Test
  void aStageWhoseDemandsWaitForPortsIsNot() {
    grants(17, 100, false);
    grants(3, 100, true);
    assertEquals(List.of(), waits.taskBound(now, leases), "3 of the last 20 waited");
  }

  @Test
  void aStageThatKeepsTheBackboneBusyIsNot() {
    for (int i = 0; i < 20; i++) {
      waits.granted(STAGE, false, now);
      leases.open("a1", "b1");
      leases.open("a2", "b2");
      now += 1000;
      leases.close("a1", "b1");
      leases.close("a2", "b2");
    }
    assertEquals(List.of(), waits.taskBound(now, leases), "the backbone at its window throughout");
  }

  @Test
  void aShortStageIsNotToldBeforeTenSeconds() {
    for (int i = 0; i < 40; i++) {
      waits.granted(STAGE, false, now);
      now += 100;
    }
    assertEquals(List.of(), waits.taskBound(now, leases), "4 s");
  }
}
