package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.spark.capture.NetworkFigures;
import io.wanshuffle.spark.capture.StageCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasuredRowsTest {
  private static StageCapture stage(NetworkFigures n) {
    return new StageCapture(
            "app",
            3,
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
            5000,
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
  void theDefaultsPhaseComesFromTheBackboneAndThePluginsFromItsCapture() {
    // 8 Mbit/s backbone: 50 kB per 100 ms (50 %) from 1200 to 1700 ms, 1 % control traffic else
    List<BackboneTrace.Sample> s = new ArrayList<>();
    long a = 0;
    for (long t = 1000; t <= 3000; t += 100) {
      s.add(new BackboneTrace.Sample(t, a, 0));
      a += t >= 1200 && t < 1700 ? 50_000 : 1_000;
    }
    BackboneTrace trace = new BackboneTrace(null, null, s, 8_000_000);
    MeasuredRows.Run dflt = new MeasuredRows.Run(new Captured(List.of()), trace, 1000, 3000);
    MeasuredRows.Run plugin =
        new MeasuredRows.Run(
            new Captured(
                List.of(
                    stage(
                        new NetworkFigures(
                            0.0421,
                            Map.of(
                                "backbone.out[/A]",
                                25e6,
                                "backbone.in[/B]",
                                24e6,
                                "nic.up[a1]",
                                12e6),
                            40,
                            4.5,
                            4.25,
                            4.875,
                            "gated",
                            2,
                            12_500_000,
                            0.05)))),
            trace,
            1000,
            3000);
    MeasuredRows.Run loopback = new MeasuredRows.Run(new Captured(List.of()), null, 1000, 3000);
    List<List<String>> rows = MeasuredRows.of(List.of(dflt, plugin, loopback));
    assertEquals(
        List.of("measured: cross-site transfer phase (s)", "0.50", "4.88", "-"), rows.get(0));
    assertEquals(List.of("4.50 / 4.25", "-"), rows.get(1).subList(2, 4));
    assertEquals("-", rows.get(1).get(1));
    // the slowest backbone side, in Mbit/s
    assertEquals(List.of("-", "0.042 / 192", "-"), rows.get(2).subList(1, 4));
  }
}
