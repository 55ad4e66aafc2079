package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkLoadsTest {
  /** Two sites a and b, k = 2 flows of 100 B/s per backbone side, δ = 1 per host. */
  private static LinkModel model() {
    return LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 100);
  }

  private static StageCapture stage(List<FlowCapture> flows) {
    return new StageCapture(
        "app",
        1,
        0,
        new int[] {0},
        "auto",
        2,
        100,
        200,
        List.of("a1", "a2", "b1"),
        new long[][] {{0, 0, 600}, {0, 0, 200}, {0, 0, 0}},
        new long[][] {{0, 0, 600}, {0, 0, 200}, {0, 0, 0}},
        1000,
        9000,
        List.of(),
        List.of(
            new StepCapture(
                1,
                1,
                List.of(
                    new StepCapture.Grant("a1", "b1", 600), new StepCapture.Grant("a2", "b1", 200)),
                1000,
                5000,
                3000,
                false,
                800)),
        flows,
        0,
        List.of(),
        List.of(),
        List.of(),
        null);
  }

  @Test
  void spreadsEachFlowEvenlyOverItsFetchOnEveryLinkOfItsRoute() {
    // a1 -> b1: 600 bytes over [1000, 1600); a2 -> b1: 200 bytes over [1300, 1500)
    LinkLoads l =
        LinkLoads.of(
            model(),
            stage(
                List.of(
                    new FlowCapture(1, 1, 0, 0, 7, "a1", "b1", 600, 1000, 1600, 1600),
                    new FlowCapture(1, 1, 0, 0, 8, "a2", "b1", 200, 1300, 1500, 1500))));
    // the bottleneck is b1's NIC (800 bytes at one flow of 100 B/s: 8 s), then the sides
    assertEquals(
        List.of("backbone.in[/b]", "backbone.out[/a]", "nic.down[b1]"),
        l.series().stream().map(LinkSeries::link).toList());
    LinkSeries in = l.series().get(0);
    assertEquals(1000, in.startMs());
    assertEquals(LinkLoads.MIN_BIN_MS, in.binMs());
    assertArrayEquals(new long[] {100, 100, 100, 200, 200, 100}, in.bytes());
    assertEquals(2000.0, in.peakBytesPerSecond(), 1e-9);
    assertEquals(200, in.rateBytesPerSecond());
    LinkSeries nic = l.series().get(2);
    assertEquals(100, nic.rateBytesPerSecond());
    assertEquals(800, java.util.Arrays.stream(nic.bytes()).sum());
    assertEquals(8.0, l.links().get("nic.down[b1]").lowerBoundSeconds(), 1e-12);
    assertEquals(Map.of("a1", "/a", "a2", "/a", "b1", "/b"), l.hostPaths());
    assertEquals(List.of("/a", "/a", "/b"), l.pathsOf(List.of("a1", "a2", "b1")));
  }

  @Test
  void aLongStageHasAtMostMaxBinsAndKeepsEveryByte() {
    long start = 1_000_000;
    FlowCapture f = new FlowCapture(1, 1, 0, 0, 7, "a1", "b1", 1_000_003, start, start + 60_017, 0);
    LinkLoads l = LinkLoads.of(model(), stage(List.of(f)));
    for (LinkSeries s : l.series()) {
      assertTrue(s.bytes().length <= LinkLoads.MAX_BINS, s.toString());
      long sum = java.util.Arrays.stream(s.bytes()).sum();
      assertTrue(Math.abs(sum - 1_000_003) <= s.bytes().length, s + ": " + sum);
    }
  }

  @Test
  void noFlowsNoSeries() {
    LinkLoads l = LinkLoads.of(model(), stage(List.of()));
    assertEquals(List.of(), l.series());
    assertEquals(5, l.links().size(), l.links().keySet().toString());
    assertEquals(2, l.links().get("backbone.out[/a]").maxFlowsInAStep());
  }
}
