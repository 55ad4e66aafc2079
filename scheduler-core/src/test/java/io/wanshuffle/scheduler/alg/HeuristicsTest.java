package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-checked behaviour of the heuristics on weights and on degrees (GGP/OGGP paper, sec. 7). */
class HeuristicsTest {
  private static Schedule run(
      io.wanshuffle.scheduler.StepScheduler s, TrafficMatrix m, Platform p) {
    Schedule schedule = s.schedule(m, p);
    schedule.validate(m, p);
    return schedule;
  }

  /**
   * A perfect matching of amounts 4, 3, 2, 1 with k = 2: keep the two heaviest (4, 3) for 3 s, then
   * (2, 1 left of 4) for 1 s, then (1 left of 2, 1) for 1 s: 5 s = P/k in 3 steps.
   */
  @Test
  void heuristicOnWeightsKeepsTheHeaviestKEdges() {
    TrafficMatrix m =
        TrafficMatrix.of(new double[][] {{4, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 1}});
    Platform p = Platform.onePort(2, 1.0, 4, 4);
    Schedule s = run(new HeuristicOnWeights(), m, p);
    assertEquals(3, s.stepCount());
    assertEquals(List.of(3.0, 1.0, 1.0), s.steps().stream().map(Step::duration).toList());
    assertEquals(
        List.of(new Transfer(0, 0, 3), new Transfer(1, 1, 3)), s.steps().get(0).transfers());
    assertEquals(5.0 + 3 * 1.0, s.cost(1.0), 1e-12);
  }

  /**
   * The maximum matching of [[5, 0], [3, 2]] is {0->0, 1->1}, unique: step 1 lasts 2 s (the
   * lightest kept edge); then 0->0 (3 left) and 1->0 (3) conflict at receiver 0: two more steps.
   */
  @Test
  void heuristicOnWeightsStepLastsAsLongAsTheLightestKeptEdge() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{5, 0}, {3, 2}});
    Schedule s = run(new HeuristicOnWeights(), m, Platform.onePort(2, 1.0, 2, 2));
    assertEquals(
        List.of(new Transfer(0, 0, 2), new Transfer(1, 1, 2)), s.steps().get(0).transfers());
    assertEquals(3, s.stepCount());
    assertEquals(2 + 3 + 3 + 3 * 1.0, s.cost(1.0), 1e-12);
  }

  /**
   * k = 1, matching {0->0 (9 s, both ends of degree 1), 1->1 (1 s, sender of degree 2)}: on weights
   * the 9 s transfer goes first, on degrees the busy sender's transfer does.
   */
  @Test
  void heuristicOnDegreesServesBusyNodesFirst() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{9, 0, 0}, {0, 1, 1}});
    Platform p = Platform.onePort(1, 1.0, 2, 3);
    Schedule byWeight = run(new HeuristicOnWeights(), m, p);
    Schedule byDegree = run(new HeuristicOnDegrees(), m, p);
    assertEquals(List.of(new Transfer(0, 0, 9)), byWeight.steps().get(0).transfers());
    Transfer first = byDegree.steps().get(0).transfers().get(0);
    assertEquals(1, first.src());
    assertEquals(1.0, first.amount());
    assertEquals(3, byDegree.stepCount());
  }

  /** δ-port: a sender with δ = 3 and k = 3 sends to its three receivers in the same step. */
  @Test
  void heuristicsUseDeltaPorts() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{2, 2, 2}});
    Platform p = Platform.of(3, 1.0, new int[] {3}, new int[] {1, 1, 1});
    for (var h : List.of(new HeuristicOnWeights(), new HeuristicOnDegrees())) {
      Schedule s = run(h, m, p);
      assertEquals(1, s.stepCount(), h.name());
      assertEquals(3, s.steps().get(0).transfers().size(), h.name());
      assertEquals(3.0, s.cost(1.0), 1e-12, h.name());
      // With δ = 2 the same sender needs two steps.
      Schedule two = run(h, m, Platform.of(3, 1.0, new int[] {2}, new int[] {1, 1, 1}));
      assertEquals(2, two.stepCount(), h.name());
      assertTrue(two.steps().stream().allMatch(st -> st.transfers().size() <= 2), h.name());
    }
  }

  /** Amounts that do not subtract exactly in binary floating point still finish in m steps. */
  @Test
  void floatingPointResiduesDoNotCreateExtraSteps() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{0.1 + 0.2, 0}, {0, 0.3}});
    for (var h : List.of(new HeuristicOnWeights(), new HeuristicOnDegrees())) {
      Schedule s = run(h, m, Platform.onePort(2, 1.0, 2, 2));
      assertEquals(1, s.stepCount(), h.name());
    }
  }
}
