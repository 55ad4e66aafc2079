package io.wanshuffle.bench.liquid;

import io.wanshuffle.scheduler.liquid.LiquidSchedule;
import io.wanshuffle.scheduler.liquid.LiquidSearch;
import io.wanshuffle.scheduler.liquid.RoundRobin;
import io.wanshuffle.scheduler.liquid.Traffic;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The comparison of the liquid-schedules paper's annex (Fig. 11) and sec. 4 on sub-topologies of
 * the Swiss-T1 K-ring ({@link SwissT1Ring}): for each sub-topology, the frames of the DSatur
 * colouring against the frames of the liquid search, and the search time.
 *
 * <p>Substitute for the paper's 363 sub-topologies (one per distinct liquid throughput, which the
 * paper does not list): a seeded uniform sample of distinct allocations of 0..4 nodes per switch
 * (at least 2 nodes), identified up to the order of the nodes in front of a switch only.
 */
final class KRingComparison {
  /**
   * One sub-topology's outcome.
   *
   * @param nodes nodes per switch
   * @param transfers number of transfers (nodes²)
   * @param lambda Λ, the bottleneck load
   * @param dsatur frames of the DSatur colouring
   * @param search frames of the search's schedule
   * @param outcome what the search proved
   * @param seconds search wall time (includes the DSatur colouring it starts from)
   * @param roundRobin frames of the topology-unaware round-robin schedule (sec. 1.1)
   * @param cpuSeconds CPU time of the search thread (the machine may be shared: wall time then
   *     includes waiting for a core)
   */
  record Row(
      int[] nodes,
      int transfers,
      int lambda,
      int dsatur,
      int search,
      LiquidSearch.Outcome outcome,
      double seconds,
      int roundRobin,
      double cpuSeconds) {}

  /** Round robin over the all-to-all of {@link SwissT1Ring#allToAll}: transfer a>b has id a·n+b. */
  static int roundRobin(Traffic t, int nodes) {
    int[][] grid = new int[nodes][nodes];
    for (int a = 0; a < nodes; a++) {
      for (int b = 0; b < nodes; b++) {
        grid[a][b] = a * nodes + b;
      }
    }
    LiquidSchedule rr = RoundRobin.schedule(t, grid);
    rr.validate();
    return rr.length();
  }

  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private KRingComparison() {}

  /**
   * @param samples number of distinct sub-topologies
   * @param seed random seed
   * @param timeLimit search time limit per sub-topology
   * @return one row per sub-topology
   */
  static List<Row> run(int samples, long seed, Duration timeLimit) {
    // warm up the JIT on a few sub-topologies of another seed, so that times are steady-state
    Random warm = new Random(seed ^ 0x5DEECE66DL);
    for (int i = 0; i < 5; i++) {
      int[] nodes = new int[SwissT1Ring.SWITCHES];
      for (int s = 0; s < nodes.length; s++) {
        nodes[s] = 1 + warm.nextInt(SwissT1Ring.NODES_PER_SWITCH);
      }
      LiquidSearch.solve(SwissT1Ring.allToAll(nodes), timeLimit);
    }
    Random rnd = new Random(seed);
    Set<String> seen = new HashSet<>();
    List<Row> rows = new ArrayList<>();
    while (rows.size() < samples) {
      int[] nodes = new int[SwissT1Ring.SWITCHES];
      int total = 0;
      for (int s = 0; s < nodes.length; s++) {
        nodes[s] = rnd.nextInt(SwissT1Ring.NODES_PER_SWITCH + 1);
        total += nodes[s];
      }
      if (total < 2 || !seen.add(Arrays.toString(nodes))) {
        continue;
      }
      Traffic t = SwissT1Ring.allToAll(nodes);
      long cpu0 = CPU.getCurrentThreadCpuTime();
      LiquidSearch.Result r = LiquidSearch.solve(t, timeLimit);
      double cpu = (CPU.getCurrentThreadCpuTime() - cpu0) / 1e9;
      LiquidSchedule s = r.schedule();
      s.validate();
      rows.add(
          new Row(
              nodes,
              t.size(),
              t.duration(),
              r.dsaturLength(),
              s.length(),
              r.outcome(),
              r.nanos() / 1e9,
              roundRobin(t, total),
              cpu));
    }
    return rows;
  }
}
