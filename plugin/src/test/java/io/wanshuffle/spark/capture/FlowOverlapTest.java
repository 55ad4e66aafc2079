package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FlowOverlapTest {
  static FlowCapture f(String src, String dst, long start, long end) {
    return new FlowCapture(1, 1, 0, 0, 1, src, dst, 10, start, end, end);
  }

  /**
   * A flow handed on before its last block arrived (predicted hand-over) holds its ports until the
   * hand-over: the next flow on a port it shared does not overlap it in the contract's count, but
   * does on the wire.
   */
  @Test
  void aFlowHandedOnBeforeItsEndHoldsItsPortsUntilTheHandOver() {
    FlowCapture ahead = new FlowCapture(1, 1, 0, 0, 1, "a", "x", 10, 0, 100, 80);
    FlowCapture next = f("b", "x", 85, 200);
    assertEquals(1, FlowOverlap.of(List.of(ahead, next)).maxPairs());
    assertEquals(Map.of("x", 1), FlowOverlap.of(List.of(ahead, next)).maxPerReceiver());
    assertEquals(2, FlowOverlap.onTheWire(List.of(ahead, next)).maxPairs());
    assertEquals(Map.of("x", 2), FlowOverlap.onTheWire(List.of(ahead, next)).maxPerReceiver());
    // a hand-over time outside [start, end] (not known) counts until the end
    FlowCapture unknown = new FlowCapture(1, 1, 0, 0, 1, "a", "x", 10, 0, 100, 0);
    assertEquals(2, FlowOverlap.of(List.of(unknown, next)).maxPairs());
  }

  @Test
  void touchingIntervalsDoNotOverlapAndSamePairCountsOnce() {
    FlowOverlap o =
        FlowOverlap.of(
            List.of(
                f("a", "x", 0, 10),
                f("a", "x", 5, 12),
                f("b", "y", 10, 20),
                f("c", "y", 12, 13),
                f("d", "z", 7, 7)));
    // [0,12) a->x (two tasks, one flow), [10,20) b->y, [12,13) c->y: at most 2 at once
    assertEquals(2, o.maxPairs());
    assertEquals(Map.of("a", 1, "b", 1, "c", 1), o.maxPerSender());
    assertEquals(Map.of("x", 1, "y", 2), o.maxPerReceiver());
  }

  @Test
  void matchesABruteForceCountAtEveryMillisecond() {
    Random rnd = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<FlowCapture> flows = new ArrayList<>();
      int n = 1 + rnd.nextInt(12);
      for (int i = 0; i < n; i++) {
        long s = rnd.nextInt(50);
        flows.add(f("s" + rnd.nextInt(3), "r" + rnd.nextInt(3), s, s + rnd.nextInt(15)));
      }
      int bruteMax = 0;
      Map<String, Integer> bruteSend = new TreeMap<>();
      for (long t = 0; t < 70; t++) {
        Set<String> open = new HashSet<>();
        for (FlowCapture x : flows) {
          if (x.startMs() <= t && t < x.endMs()) {
            open.add(x.srcHost() + ">" + x.dstHost());
          }
        }
        bruteMax = Math.max(bruteMax, open.size());
        Map<String, Integer> perSender = new TreeMap<>();
        for (String p : open) {
          perSender.merge(p.substring(0, p.indexOf('>')), 1, Integer::sum);
        }
        perSender.forEach((h, c) -> bruteSend.merge(h, c, Math::max));
      }
      FlowOverlap o = FlowOverlap.of(flows);
      assertEquals(bruteMax, o.maxPairs(), flows.toString());
      assertEquals(bruteSend, o.maxPerSender(), flows.toString());
    }
  }
}
