package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RouteDemandTest {
  /**
   * The demo's shape, one way: senders a1..a4 (rack0: a1, a2; rack1: a3, a4) to receivers b1..b4
   * (likewise), every pair with demand. Link ids: 0 backbone.out, 1 backbone.in, 2-3 the A rack
   * uplinks, 4-5 the B rack downlinks, 6-9 the senders' NICs, 10-13 the receivers' NICs.
   */
  private static RouteDemand demoShape() {
    String[] names = new String[14];
    int[] windows = new int[14];
    names[0] = "backbone.out[/A]";
    names[1] = "backbone.in[/B]";
    windows[0] = 2;
    windows[1] = 2;
    for (int r = 0; r < 2; r++) {
      names[2 + r] = "rack.uplink[/A/rack" + r + "]";
      names[4 + r] = "rack.downlink[/B/rack" + r + "]";
      windows[2 + r] = 1;
      windows[4 + r] = 1;
    }
    for (int h = 0; h < 4; h++) {
      names[6 + h] = "nic.up[a" + (h + 1) + "]";
      names[10 + h] = "nic.down[b" + (h + 1) + "]";
      windows[6 + h] = 1;
      windows[10 + h] = 1;
    }
    List<int[]> routes = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      for (int d = 0; d < 4; d++) {
        routes.add(new int[] {6 + s, 2 + s / 2, 0, 1, 4 + d / 2, 10 + d});
      }
    }
    long[] bytes = new long[routes.size()];
    java.util.Arrays.fill(bytes, 1 << 20);
    return new RouteDemand(names, windows, routes.toArray(new int[0][]), bytes);
  }

  @Test
  void withEveryShareWholeEveryFlowWantedIsUsable() {
    RouteDemand d = demoShape();
    int[] whole = new int[d.linkCount()];
    for (int l = 0; l < whole.length; l++) {
      whole[l] = d.window(l);
    }
    int[] u = d.usable(whole);
    for (int l = 0; l < whole.length; l++) {
      assertEquals(d.wanted(l), u[l], d.name(l));
    }
    assertEquals(2, u[0], "two rack uplinks of one flow each feed the backbone");
  }

  @Test
  void theBackboneIsUnusableWithoutARackUplinkAndHalfUsableWithOne() {
    RouteDemand d = demoShape();
    int[] shares = new int[d.linkCount()];
    for (int l = 0; l < shares.length; l++) {
      shares[l] = d.window(l);
    }
    shares[2] = 0;
    shares[3] = 0;
    assertEquals(0, d.usable(shares)[0], "both A rack uplinks held by another application");
    assertEquals(0, d.usable(shares)[10], "nor the receivers' NICs");
    shares[3] = 1;
    int[] u = d.usable(shares);
    assertEquals(1, u[0], "one rack uplink: one backbone flow");
    assertEquals(
        1, u[2], "rack0's uplink: its own share does not count, the rest of its routes fit");
    assertEquals(1, u[3]);
    assertEquals(0, u[6] + u[7], "rack0's senders' NICs: their uplink is not ours");
    assertEquals(1, u[8], "rack1's are usable");
  }

  /**
   * Random routes and shares against an exhaustive search of the host pairs one link may hold at
   * once: the usable flows are never more than can be held (no share overstated), and never 0 where
   * one flow could be held (no link left for an application that could use it).
   */
  @Test
  void openFlowsStayWantedAndUsableAndTakeRoomOnTheirLinks() {
    RouteDemand plain = demoShape();
    int n = plain.linkCount();
    String[] names = new String[n];
    int[] windows = new int[n];
    for (int l = 0; l < n; l++) {
      names[l] = plain.name(l);
      windows[l] = plain.window(l);
    }
    int[] open = new int[n];
    for (int l : new int[] {6, 2, 0, 1, 4, 10}) {
      open[l] = 1; // a1 -> b1 is open
    }
    // only a3 -> b3 left to fetch: rack1 and the backbone
    RouteDemand d =
        new RouteDemand(
            names, windows, new int[][] {{8, 3, 0, 1, 5, 12}}, new long[] {1 << 20}, open);
    assertEquals(1, d.wanted(6), "a1's NIC: no pair left, its open flow still wanted");
    assertEquals(2, d.wanted(0), "the backbone: one open flow and one pair");
    int[] u = d.usable(windows.clone());
    assertEquals(1, u[6]);
    assertEquals(2, u[0]);
    assertEquals(0, d.wanted(7), "a2's NIC: nothing");
    Map<String, LinkDemand> demand = d.demand();
    assertEquals(new LinkDemand(0, 1, 0, 1, 1), demand.get("nic.up[a1]"), "held, nothing to plan");
    assertEquals(new LinkDemand(1 << 20, 2, 0, 2, 1), demand.get("backbone.out[/A]"));
    assertEquals(null, demand.get("nic.up[a2]"), "no route, no open flow: no demand");
    int[] shares = windows.clone();
    shares[0] = 1;
    shares[1] = 1;
    assertEquals(
        0, d.usable(shares)[3], "the open flow holds the share's one backbone flow: rack1 waits");
  }

  @Test
  void neverMoreThanCanBeHeldAndNeverNoneWhereOneFits() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 400; trial++) {
      int links = 3 + rnd.nextInt(5);
      int pairs = 1 + rnd.nextInt(9);
      String[] names = new String[links];
      int[] windows = new int[links];
      int[] shares = new int[links];
      int[] open = new int[links];
      for (int l = 0; l < links; l++) {
        names[l] = "l" + l;
        windows[l] = 1 + rnd.nextInt(3);
        shares[l] = rnd.nextInt(windows[l] + 1);
        open[l] = trial % 2 == 0 ? 0 : rnd.nextInt(Math.min(shares[l], 1) + 1);
      }
      int[][] routes = new int[pairs][];
      long[] bytes = new long[pairs];
      for (int e = 0; e < pairs; e++) {
        List<Integer> on = new ArrayList<>();
        for (int l = 0; l < links; l++) {
          if (rnd.nextInt(3) == 0) {
            on.add(l);
          }
        }
        if (on.isEmpty()) {
          on.add(rnd.nextInt(links));
        }
        routes[e] = on.stream().mapToInt(Integer::intValue).toArray();
        bytes[e] = 1 + rnd.nextInt(1000);
      }
      RouteDemand d = new RouteDemand(names, windows, routes, bytes, open);
      int[] u = d.usable(shares);
      for (int l = 0; l < links; l++) {
        int best = Math.min(d.wanted(l), open[l] + mostHeld(routes, windows, shares, open, l));
        assertTrue(u[l] <= best, "trial " + trial + " link " + l + ": " + u[l] + " > " + best);
        assertTrue(
            best == 0 || u[l] >= Math.min(best, open[l] + 1),
            "trial " + trial + " link " + l + ": " + u[l] + ", best " + best);
        assertTrue(u[l] <= d.wanted(l));
      }
    }
  }

  /**
   * The most pairs through {@code link} held at once besides the open flows, within the shares (the
   * link's window).
   */
  private static int mostHeld(int[][] routes, int[] windows, int[] shares, int[] open, int link) {
    int best = 0;
    for (int mask = 1; mask < 1 << routes.length; mask++) {
      int[] held = new int[windows.length];
      boolean ok = true;
      for (int e = 0; e < routes.length && ok; e++) {
        if ((mask >> e & 1) == 0) {
          continue;
        }
        boolean through = false;
        for (int l : routes[e]) {
          through |= l == link;
        }
        ok = through;
        for (int l : routes[e]) {
          held[l]++;
          ok &= held[l] + open[l] <= (l == link ? windows[l] : shares[l]);
        }
      }
      if (ok) {
        best = Math.max(best, Integer.bitCount(mask));
      }
    }
    return best;
  }

  @Test
  void markUsableSetsEachLinksUsableFlowsFromTheFirstPass() {
    RouteDemand d =
        new RouteDemand(
            new String[] {"backbone.out[/A]", "nic.up[a1]", "nic.up[a2]"},
            new int[] {2, 1, 1},
            new int[][] {{0, 1}, {0, 2}},
            new long[] {5, 7});
    Map<String, LinkDemand> demand =
        Map.of(
            "backbone.out[/A]", new LinkDemand(12, 2),
            "nic.up[a1]", new LinkDemand(5, 1),
            "nic.up[a2]", new LinkDemand(7, 1),
            "elsewhere", new LinkDemand(1, 1));
    Map<String, LinkDemand> marked =
        d.markUsable(demand, (link, window) -> link.equals("nic.up[a2]") ? 0 : window);
    assertEquals(1, marked.get("backbone.out[/A]").flowsUsable(), "a2's NIC is not ours");
    assertEquals(1, marked.get("nic.up[a1]").flowsUsable());
    assertEquals(1, marked.get("nic.up[a2]").flowsUsable(), "its own share does not count");
    assertEquals(1, marked.get("elsewhere").flowsUsable(), "not on these routes: all usable");
    assertEquals(2, marked.get("backbone.out[/A]").flowsWanted());
  }

  @Test
  void badShapesAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RouteDemand(new String[] {"a"}, new int[] {1, 2}, new int[0][], new long[0]));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new RouteDemand(new String[] {"a"}, new int[] {1}, new int[][] {{3}}, new long[] {1}));
    RouteDemand d = new RouteDemand(new String[] {"a"}, new int[] {1}, new int[0][], new long[0]);
    assertThrows(IllegalArgumentException.class, () -> d.usable(new int[2]));
    assertArrayEquals(new int[] {0}, d.usable(new int[] {0}));
  }
}
