package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The prediction of a captured stage's transfer phase as the driver makes it when the stage starts
 * ({@link PredictionReplay}): the estimate over the application's warm-up stage (about 20 flows,
 * half of them their host pair's first), the stage's traffic by reduce task and sending host, the
 * testbed's links (3 + 3 hosts, NICs 100 Mbit/s, backbone 200 Mbit/s, k 2), against the phase
 * measured on the testbed.
 */
class CapturedPredictionTest {
  private static final List<String> CELLS =
      List.of(
          "prediction-uniform-rtt0",
          "prediction-zipf-rtt0",
          "prediction-trace-rtt0",
          "prediction-uniform-rtt40",
          "prediction-zipf-rtt40",
          "prediction-trace-rtt40");

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "prediction-uniform-rtt0",
        "prediction-zipf-rtt0",
        "prediction-trace-rtt0",
        "prediction-uniform-rtt40",
        "prediction-zipf-rtt40",
        "prediction-trace-rtt40"
      })
  void theScheduledPhaseIsPredictedWithinTenPercent(String cell) {
    PredictionReplay.Stage s = PredictionReplay.fixture(cell);
    double predicted = s.predict(0.05).scheduledSeconds();
    assertEquals(
        s.measuredPhase(),
        predicted,
        0.10 * s.measuredPhase(),
        cell + ": predicted " + predicted + " s with " + s.estimate().describe());
  }

  @Test
  void theMedianErrorOverTheCellsIsAFewPercent() {
    List<Double> errors = new ArrayList<>();
    for (String cell : CELLS) {
      PredictionReplay.Stage s = PredictionReplay.fixture(cell);
      errors.add(Math.abs(s.predict(0.05).scheduledSeconds() / s.measuredPhase() - 1));
    }
    double median = Robust.median(errors.stream().mapToDouble(Double::doubleValue).toArray());
    assertTrue(median <= 0.05, "median |error| " + median + " of " + errors);
  }

  @Test
  void atFortyMillisecondsTheWarmUpsFirstFlowsLeadLongerThanItsLaterOnes() {
    for (String cell : List.of("prediction-zipf-rtt40", "prediction-trace-rtt40")) {
      NetworkEstimate e = PredictionReplay.fixture(cell).estimate();
      assertTrue(e.rampSeconds() > 0.04 && e.rampSeconds() < 0.15, cell + ": " + e.describe());
      assertTrue(e.firstRampSeconds() > 2 * e.rampSeconds(), cell + ": " + e.describe());
    }
  }
}
