package io.wanshuffle.scheduler.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The liquid-schedules paper's example (Gabrielyan, Hersch, sec. 1.1 and 3.1, Fig. 1-3 and 7): 25
 * transfers over 12 links.
 */
class PaperExampleTest {

  /** Transfer "Ti->Rj" uses l_i, l_(5+j), plus l12 (S1 -> S2) or l11 (S2 -> S1). */
  static Traffic paperTraffic() {
    Map<String, List<String>> x = new LinkedHashMap<>();
    for (int i = 1; i <= 5; i++) {
      for (int j = 1; j <= 5; j++) {
        boolean srcS1 = i <= 3;
        boolean dstS1 = j <= 3;
        String via = srcS1 == dstS1 ? null : (srcS1 ? "l12" : "l11");
        x.put(
            "T" + i + "->R" + j,
            via == null ? List.of("l" + i, "l" + (5 + j)) : List.of("l" + i, via, "l" + (5 + j)));
      }
    }
    return Traffic.of(x);
  }

  static int[][] grid(Traffic t) {
    int[][] g = new int[5][5];
    for (int x = 0; x < t.size(); x++) {
      String n = t.name(x);
      g[n.charAt(1) - '1'][n.charAt(5) - '1'] = x;
    }
    return g;
  }

  @Test
  void durationIsSixWithBottlenecksL11AndL12() {
    Traffic t = paperTraffic();
    assertEquals(25, t.size());
    assertEquals(6, t.duration());
    Set<String> b = new HashSet<>();
    for (int l : t.bottlenecks()) {
      b.add(t.linkName(l));
    }
    assertEquals(Set.of("l11", "l12"), b);
    assertEquals(25.0 / 6, t.liquidThroughput(), 1e-12);
  }

  @Test
  void searchFindsASixFrameLiquidScheduleOfTeams() {
    Traffic t = paperTraffic();
    LiquidSearch.Result r = LiquidSearch.solve(t, Duration.ofSeconds(10));
    LiquidSchedule s = r.schedule();
    s.validate();
    assertEquals(6, s.length());
    assertTrue(s.isLiquid());
    assertTrue(s.optimal());
    assertEquals(LiquidSearch.Outcome.LIQUID, r.outcome());
    // every frame is a team of the traffic remaining when it runs (Theorem 1), and so a team of X
    BitSet remaining = new BitSet();
    remaining.set(0, t.size());
    for (int[] f : s.frames()) {
      BitSet frame = new BitSet();
      for (int x : f) {
        frame.set(x);
      }
      assertTrue(t.isTeam(frame), "frame is a team of X");
      Traffic sub = t.subTraffic(remaining);
      BitSet inSub = new BitSet();
      int idx = 0;
      for (int x = remaining.nextSetBit(0); x >= 0; x = remaining.nextSetBit(x + 1), idx++) {
        if (frame.get(x)) {
          inSub.set(idx);
        }
      }
      assertTrue(sub.isTeam(inSub), "frame is a team of the reduced traffic");
      remaining.andNot(frame);
    }
  }

  @Test
  void exactSearchWithoutLimitFindsLiquidSchedule() {
    LiquidSchedule s = LiquidSearch.findLiquid(paperTraffic());
    s.validate();
    assertEquals(6, s.length());
  }

  @Test
  void roundRobinTakesSevenFrames() {
    Traffic t = paperTraffic();
    LiquidSchedule rr = RoundRobin.schedule(t, grid(t));
    rr.validate();
    assertEquals(7, rr.length());
    // phase 1 (T_i -> R_i) is one frame that leaves both bottlenecks idle (Fig. 2)
    BitSet first = new BitSet();
    for (int x : rr.frames().get(0)) {
      first.set(x);
    }
    assertEquals(5, first.cardinality());
    assertTrue(!t.isTeam(first));
  }

  @Test
  void fiveCycleHasNoLiquidScheduleAndSearchProvesIt() {
    // transfer i uses links i and i+1 (mod 5): every link carries 2, so Λ = 2, but the conflict
    // graph is an odd cycle C5, whose chromatic number is 3.
    int[][] links = new int[5][];
    for (int i = 0; i < 5; i++) {
      links[i] = new int[] {i, (i + 1) % 5};
    }
    Traffic t = Traffic.ofLinkIds(links, 5);
    assertEquals(2, t.duration());
    assertNull(LiquidSearch.findLiquid(t));
    LiquidSearch.Result r = LiquidSearch.solve(t, Duration.ofSeconds(10));
    assertEquals(LiquidSearch.Outcome.OPTIMAL_NOT_LIQUID, r.outcome());
    assertEquals(3, r.schedule().length());
    assertTrue(r.schedule().optimal());
    assertEquals(2, r.schedule().lowerBound());
    r.schedule().validate();
  }

  @Test
  void teamAndFullDefinitions() {
    Traffic t = paperTraffic();
    int[][] g = grid(t);
    BitSet a = new BitSet();
    // Fig. 7 frame 1: T1->R4, T2->R2, T3->R3, T4->R1, T5->R5
    for (int[] p : new int[][] {{0, 3}, {1, 1}, {2, 2}, {3, 0}, {4, 4}}) {
      a.set(g[p[0]][p[1]]);
    }
    assertTrue(t.isTeam(a));
    assertTrue(t.isFull(a));
    a.clear(g[2][2]);
    assertTrue(t.isTeam(a));
    assertTrue(!t.isFull(a), "T3->R3 could still join");
    int[] l = t.links(g[0][0]);
    assertEquals(List.of("l1", "l6"), List.of(t.linkName(l[0]), t.linkName(l[1])));
  }
}
