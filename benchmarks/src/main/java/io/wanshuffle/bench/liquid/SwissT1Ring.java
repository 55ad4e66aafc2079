package io.wanshuffle.bench.liquid;

import io.wanshuffle.scheduler.liquid.Traffic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The network of the Swiss-T1 cluster as the liquid-schedules paper describes it (sec. 2, Fig. 4):
 * 8 crossbar switches forming a K-ring with static routing, up to 4 nodes in front of each switch,
 * each node one transmitting and one receiving processor, every link (full duplex, one link per
 * direction) of the same throughput. The routing table of Fig. 4 joins every odd switch directly to
 * every even one (a complete bipartite K4,4) and routes the other pairs through the intermediate
 * switch the table names.
 *
 * <p>A sub-topology is an allocation of 0..4 nodes per switch; its traffic is the all-to-all
 * exchange between the allocated nodes (a node also sends to itself, as in the paper's 32 x 32 =
 * 1024 transfers).
 */
final class SwissT1Ring {
  /** Switches of the ring. */
  static final int SWITCHES = 8;

  /** Most nodes in front of one switch. */
  static final int NODES_PER_SWITCH = 4;

  /** Fig. 4: VIA[s][t] = intermediate switch (1-based) from s to t, 0 = direct, -1 = same. */
  private static final int[][] VIA = {
    {-1, 0, 2, 0, 4, 0, 8, 0},
    {0, -1, 0, 7, 0, 3, 0, 5},
    {2, 0, -1, 0, 4, 0, 8, 0},
    {0, 7, 0, -1, 0, 7, 0, 3},
    {4, 0, 4, 0, -1, 0, 6, 0},
    {0, 3, 0, 7, 0, -1, 0, 1},
    {8, 0, 8, 0, 6, 0, -1, 0},
    {0, 5, 0, 3, 0, 1, 0, -1},
  };

  private SwissT1Ring() {}

  /**
   * @return the directed switch links from switch s to switch t (0-based), in path order
   */
  static List<String> switchPath(int s, int t) {
    List<String> p = new ArrayList<>();
    if (s == t) {
      return p;
    }
    int via = VIA[s][t];
    if (via == 0) {
      p.add("S" + (s + 1) + ">S" + (t + 1));
    } else {
      p.addAll(switchPath(s, via - 1));
      p.addAll(switchPath(via - 1, t));
    }
    return p;
  }

  /**
   * @param nodes nodes allocated in front of each switch (8 values in 0..4)
   * @return the all-to-all traffic between the allocated nodes: transfer "a>b" uses a's transmitter
   *     link, the switch links of the route and b's receiver link
   */
  static Traffic allToAll(int[] nodes) {
    List<int[]> hosts = new ArrayList<>();
    for (int s = 0; s < SWITCHES; s++) {
      for (int n = 0; n < nodes[s]; n++) {
        hosts.add(new int[] {s, n});
      }
    }
    Map<String, List<String>> x = new LinkedHashMap<>();
    for (int[] a : hosts) {
      for (int[] b : hosts) {
        String an = "n" + (a[0] + 1) + "." + a[1];
        String bn = "n" + (b[0] + 1) + "." + b[1];
        List<String> links = new ArrayList<>();
        links.add("tx:" + an);
        links.addAll(switchPath(a[0], b[0]));
        links.add("rx:" + bn);
        x.put(an + ">" + bn, links);
      }
    }
    return Traffic.of(x);
  }
}
