package io.wanshuffle.bench.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.liquid.Traffic;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SwissT1RingTest {
  @Test
  void routingTableGivesPathsOfAtMostTwoHopsOverSixteenSwitchPairs() {
    Set<String> links = new HashSet<>();
    for (int s = 0; s < 8; s++) {
      for (int t = 0; t < 8; t++) {
        List<String> p = SwissT1Ring.switchPath(s, t);
        assertEquals(s == t ? 0 : (s + t) % 2 == 1 ? 1 : 2, p.size(), s + "->" + t);
        if (!p.isEmpty()) {
          assertTrue(p.get(0).startsWith("S" + (s + 1) + ">"));
          assertTrue(p.get(p.size() - 1).endsWith(">S" + (t + 1)));
        }
        links.addAll(p);
      }
    }
    assertEquals(32, links.size(), "K4,4: 16 cables, both directions");
  }

  @Test
  void fullMachineHas1024Transfers() {
    int[] all = {4, 4, 4, 4, 4, 4, 4, 4};
    Traffic t = SwissT1Ring.allToAll(all);
    assertEquals(1024, t.size());
    assertTrue(t.duration() >= 32, "a node's links carry 32 transfers");
  }
}
