package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.spark.capture.NetworkFigures;
import io.wanshuffle.spark.capture.StageCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunNetworkTest {
  private static StageCapture stage(int id, long endMs, NetworkFigures n) {
    return new StageCapture(
            "app",
            id,
            0,
            new int[] {0},
            "auto",
            2,
            100,
            200,
            List.of("a1", "b1"),
            new long[][] {{0, 1}, {0, 0}},
            new long[][] {{0, 1}, {0, 0}},
            0,
            endMs,
            List.of(),
            List.of(),
            List.of(),
            0,
            List.of(),
            List.of(),
            List.of(),
            null)
        .withNetwork(n);
  }

  @Test
  void theStagesPhasesAndPredictionsAddUpAndTheLastMeasurementStands() {
    RunNetwork r =
        RunNetwork.fromCaptures(
            List.of(
                stage(
                    5,
                    9000,
                    new NetworkFigures(0.2, Map.of("x", 2.0), 8, 2, 3, 2.5, "gated", 2, 100, 0.2)),
                stage(
                    3,
                    5000,
                    new NetworkFigures(
                        0.1, Map.of("x", 1.0), 4, 1, Double.NaN, 1.5, "gated", 2, 100, 0.1)),
                stage(7, 9500, NetworkFigures.NONE)));
    assertEquals(4.0, r.transferPhaseSeconds(), 1e-12);
    assertEquals(3.0, r.predictedScheduledSeconds(), 1e-12);
    assertEquals(3.0, r.predictedDefaultSeconds(), 1e-12);
    assertEquals(0.2, r.betaSeconds(), 0);
    assertEquals(Map.of("x", 2.0), r.measuredRates());
    assertEquals(
        RunNetwork.NONE, RunNetwork.fromCaptures(List.of(stage(1, 1, NetworkFigures.NONE))));
  }

  @Test
  void withoutACaptureTheBackbonesBusyIntervalsInTheWindowsGiveThePhase() {
    // 8 Mbit/s backbone (1 MB/s): intervals of 100 ms; control traffic of 1 kB per interval
    // (10 kB/s, 1 %) everywhere, 50 kB per interval (50 %) from 1200 to 1700 ms A to B
    List<BackboneTrace.Sample> s = new ArrayList<>();
    long a = 0;
    long b = 0;
    for (long t = 1000; t <= 3000; t += 100) {
      s.add(new BackboneTrace.Sample(t, a, b));
      a += t >= 1200 && t < 1700 ? 50_000 : 1_000;
      b += 1_000;
    }
    BackboneTrace trace = new BackboneTrace(null, null, s, 8_000_000);
    assertEquals(0.5, RunNetwork.fromBackbone(trace, List.of(new long[] {1000, 3000})), 1e-12);
    assertNull(RunNetwork.fromBackbone(trace, List.of(new long[] {2000, 3000})), "control only");
  }
}
