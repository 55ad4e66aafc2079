package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;

/** The step contract of one captured stage, as the loopback-cluster tests check it. */
final class GatedStages {
  private GatedStages() {}

  /**
   * Asserts that every cross-cluster byte the stage registered was fetched, in granted steps (no
   * flow with step 0, i.e. ungated, unless the coordinator ungated the stage while it ran because
   * its tasks, not the network, set its pace: {@code spark.wanshuffle.gate.ungateTaskBound}, the
   * decision recorded in the capture), and that no host held more than {@code delta} gated flows at
   * once.
   *
   * @param c the stage's capture
   * @param delta ports per host (δ)
   * @return the stage's flow overlap, for the caller's check of k
   */
  static FlowOverlap assertGatedWithinDelta(StageCapture c, int delta) {
    assertEquals(
        c.totalRegisteredBytes(),
        c.totalRealisedBytes(),
        "every registered cross-cluster byte fetched, stage " + c.stageId());
    boolean ungatedWhileRunning = c.network().decision().startsWith("ungated: not network-bound");
    for (FlowCapture f : c.flows()) {
      assertTrue(
          f.stepId() > 0 || ungatedWhileRunning,
          "ungated cross-cluster flow " + f + " (decision: " + c.network().decision() + ")");
    }
    assertFalse(c.steps().isEmpty(), "stage " + c.stageId() + " had steps");
    FlowOverlap o = FlowOverlap.of(c.flows().stream().filter(f -> f.stepId() > 0).toList());
    o.maxPerSender().values().forEach(v -> assertTrue(v <= delta, "δ per sender: " + o));
    o.maxPerReceiver().values().forEach(v -> assertTrue(v <= delta, "δ per receiver: " + o));
    return o;
  }
}
