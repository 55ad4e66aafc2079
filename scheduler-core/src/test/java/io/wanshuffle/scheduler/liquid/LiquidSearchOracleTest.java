package io.wanshuffle.scheduler.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.jgrapht.alg.color.BrownBacktrackColoring;
import org.junit.jupiter.api.Test;

/** The exact search against JGraphT's exact colouring (Brown's backtracking) on random traffics. */
class LiquidSearchOracleTest {

  @Test
  void optimalLengthIsTheChromaticNumberOfTheConflictGraph() {
    Random rnd = new Random(5);
    int liquid = 0;
    int notLiquid = 0;
    for (int round = 0; round < 300; round++) {
      int links = 3 + rnd.nextInt(6);
      int n = 2 + rnd.nextInt(12);
      int[][] tr = new int[n][];
      for (int t = 0; t < n; t++) {
        int len = 2 + rnd.nextInt(2);
        tr[t] = new int[len];
        for (int x = 0; x < len; x++) {
          tr[t][x] = rnd.nextInt(links);
        }
      }
      Traffic traffic = Traffic.ofLinkIds(tr, links);
      LiquidSearch.Result r = LiquidSearch.solve(traffic, Duration.ofSeconds(30));
      r.schedule().validate();
      assertTrue(r.schedule().optimal());
      int chi =
          new BrownBacktrackColoring<>(ConflictGraphColoring.conflictGraph(traffic))
              .getChromaticNumber();
      assertEquals(chi, r.schedule().length(), "round " + round);
      assertTrue(r.schedule().length() <= r.dsaturLength());
      LiquidSchedule found = LiquidSearch.findLiquid(traffic);
      if (chi == traffic.duration()) {
        assertEquals(LiquidSearch.Outcome.LIQUID, r.outcome());
        found.validate();
        assertEquals(chi, found.length());
        liquid++;
      } else {
        assertEquals(LiquidSearch.Outcome.OPTIMAL_NOT_LIQUID, r.outcome());
        assertEquals(null, found);
        notLiquid++;
      }
    }
    assertTrue(liquid > 10 && notLiquid >= 10, liquid + " liquid, " + notLiquid + " not");
  }

  @Test
  void timeLimitReturnsTheBestScheduleFound() {
    // a zero time limit still returns a valid (DSatur) schedule
    int[][] tr = new int[5][];
    for (int i = 0; i < 5; i++) {
      tr[i] = new int[] {i, (i + 1) % 5};
    }
    Traffic t = Traffic.ofLinkIds(tr, 5);
    LiquidSearch.Result r = LiquidSearch.solve(t, Duration.ZERO);
    r.schedule().validate();
    assertEquals(3, r.schedule().length());
  }

  @Test
  void trafficAboveTheSearchLimitGetsDsatur() {
    int copies = LiquidSearch.SEARCH_LIMIT / 5 + 1;
    int[][] tr = new int[copies * 5][];
    for (int c = 0; c < copies; c++) {
      for (int i = 0; i < 5; i++) {
        tr[c * 5 + i] = new int[] {c * 5 + i, c * 5 + (i + 1) % 5};
      }
    }
    Traffic t = Traffic.ofLinkIds(tr, copies * 5);
    LiquidSearch.Result r = LiquidSearch.solve(t, Duration.ofSeconds(10));
    assertEquals(LiquidSearch.Outcome.TOO_LARGE, r.outcome());
    r.schedule().validate();
    assertEquals(3, r.schedule().length());
    assertTrue(!r.schedule().optimal());
  }
}
