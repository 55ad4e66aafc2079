package io.wanshuffle.bench.coordinator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns what the simulated tasks saw ({@link FlowLog}) and what the driver measured ({@link
 * DriverProbe}) into a {@link BenchResult}, and checks the coordinator's contract on the flows:
 * every task granted all its bytes, and at no instant more flows on a link than its capacity.
 *
 * <p>Grant latency: the flows' ends (ports handed back) and starts (a grant arrived) are matched in
 * time order, first in first out, per sending site (the backbone side the flows share): a start
 * takes the oldest end not yet taken and counts the time between them. Only ends while tasks were
 * still being launched count, so that a freed port had demand waiting for it (at the stage's tail a
 * port idles for want of demand, not for the coordinator). The latency after the first wave counts
 * only ends after the R-th task ended (R tasks run at once): the stage's start, where all R tasks
 * register together and the JVMs are cold, left out.
 */
final class RunAnalysis {
  private RunAnalysis() {}

  /**
   * @param stage the stage run
   * @param platform its links
   * @param log the flows and tallies of every task
   * @param probe the driver's plans and heap
   * @param cpuNanos the driver's CPU time, ns
   * @param load the load average at start and end
   * @return the figures
   */
  static BenchResult result(
      StageSpec stage,
      BenchPlatform platform,
      FlowLog log,
      DriverProbe probe,
      long cpuNanos,
      String load) {
    BenchConfig c = stage.config();
    long[] taskEnds = log.taskEnds();
    long firstWaveEnd = taskEnds.length >= c.running() ? taskEnds[c.running() - 1] : Long.MAX_VALUE;
    Latencies all = latencies(stage, log);
    double[] latency = all.since(Long.MIN_VALUE);
    double[] afterFirstWave = all.since(firstWaveEnd);
    double[] plans = probe.planMs();
    Arrays.sort(latency);
    Arrays.sort(afterFirstWave);
    long firstStart = Long.MAX_VALUE;
    for (int i = 0; i < log.size(); i++) {
      firstStart = Math.min(firstStart, log.start(i));
    }
    double firstGrant =
        firstStart != Long.MAX_VALUE && log.firstLaunchNanos != Long.MAX_VALUE
            ? (firstStart - log.firstLaunchNanos) / 1e9
            : 0;
    Arrays.sort(plans);
    double makespan =
        log.lastEndNanos > log.firstLaunchNanos
            ? (log.lastEndNanos - log.firstLaunchNanos) / 1e9
            : 0;
    double bound = platform.lowerBoundSeconds();
    return new BenchResult(
        c.mode(),
        c.hosts(),
        c.sites(),
        c.racks(),
        c.tasks(),
        c.running(),
        c.blocks(),
        c.skew(),
        c.k(),
        c.algorithm(),
        percentile(latency, 50),
        percentile(latency, 99),
        latency.length == 0 ? 0 : latency[latency.length - 1],
        latency.length,
        percentile(afterFirstWave, 99),
        firstGrant,
        percentile(plans, 50),
        percentile(plans, 99),
        plans.length,
        (double) log.messages / c.tasks(),
        (double) log.expiredPolls / c.tasks(),
        cpuNanos / 1e9,
        probe.peakHeapBytes() / (1024.0 * 1024),
        makespan,
        bound,
        bound > 0 ? makespan / bound : 0,
        probe.steps(),
        probe.flows(),
        log.finished,
        log.ungated + log.failures,
        violations(platform, log).size(),
        load,
        c.warmupTasks(),
        Double.isNaN(probe.lastPlanBetaSeconds()) ? -1 : probe.lastPlanBetaSeconds() * 1000);
  }

  /**
   * @param sorted ascending values
   * @param p percentile, 0..100
   * @return the nearest-rank percentile, 0 when empty
   */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /**
   * @param since only flows that ended at or after this {@code System.nanoTime()} count ({@link
   *     Long#MIN_VALUE}: all)
   * @return the grant latencies, ms (see the class comment)
   */
  static double[] grantLatenciesMs(StageSpec stage, FlowLog log, long since) {
    return latencies(stage, log).since(since);
  }

  /**
   * The grant latencies of a run with when each one's port was freed, in the order they were
   * measured.
   *
   * @param freedNanos per latency, when its port was freed, {@code System.nanoTime()}
   * @param ms per latency, ms
   */
  record Latencies(long[] freedNanos, double[] ms) {
    /**
     * @param nanos only ports freed at or after this count ({@link Long#MIN_VALUE}: all)
     * @return those latencies, ms
     */
    double[] since(long nanos) {
      double[] out = new double[ms.length];
      int m = 0;
      for (int i = 0; i < ms.length; i++) {
        if (freedNanos[i] >= nanos) {
          out[m++] = ms[i];
        }
      }
      return Arrays.copyOf(out, m);
    }
  }

  /**
   * @return every grant latency of the run (see the class comment) with when its port was freed
   */
  private static Latencies latencies(StageSpec stage, FlowLog log) {
    int n = log.size();
    // events: 2 per flow, sorted by time with ends before starts at the same instant
    long[] t = new long[2 * n];
    long[] order = new long[2 * n];
    for (int i = 0; i < n; i++) {
      t[2 * i] = log.end(i);
      t[2 * i + 1] = log.start(i);
    }
    Integer[] idx = new Integer[2 * n];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(
        idx,
        (a, b) -> {
          int c = Long.compare(t[a], t[b]);
          return c != 0 ? c : Integer.compare(a & 1, b & 1);
        });
    for (int i = 0; i < idx.length; i++) {
      order[i] = idx[i];
    }
    List<ArrayDeque<Long>> free = new ArrayList<>();
    for (int s = 0; s < stage.config().sites(); s++) {
      free.add(new ArrayDeque<>());
    }
    double[] out = new double[n];
    long[] freedAt = new long[n];
    int m = 0;
    for (long e : order) {
      int flow = (int) (e >> 1);
      int site = stage.siteOf(log.src(flow));
      if ((e & 1) == 0) {
        if (t[(int) e] <= log.lastLaunchNanos) {
          free.get(site).addLast(t[(int) e]);
        }
      } else if (!free.get(site).isEmpty()) {
        long freed = free.get(site).pollFirst();
        freedAt[m] = freed;
        out[m++] = (t[(int) e] - freed) / 1e6;
      }
    }
    return new Latencies(Arrays.copyOf(freedAt, m), Arrays.copyOf(out, m));
  }

  /**
   * @return per link whose capacity was exceeded, one line naming it, the flows and the instant
   */
  static List<String> violations(BenchPlatform platform, FlowLog log) {
    int n = log.size();
    Integer[] idx = new Integer[2 * n];
    long[] t = new long[2 * n];
    for (int i = 0; i < n; i++) {
      t[2 * i] = log.end(i);
      t[2 * i + 1] = log.start(i);
      idx[2 * i] = 2 * i;
      idx[2 * i + 1] = 2 * i + 1;
    }
    Arrays.sort(
        idx,
        (a, b) -> {
          int c = Long.compare(t[a], t[b]);
          return c != 0 ? c : Integer.compare(a & 1, b & 1);
        });
    int[] used = new int[platform.linkCount()];
    boolean[] reported = new boolean[used.length];
    List<String> out = new ArrayList<>();
    for (int e : idx) {
      int flow = e >> 1;
      int[] route = platform.route(log.src(flow), log.dst(flow));
      boolean start = (e & 1) == 1;
      for (int l : route) {
        used[l] += start ? 1 : -1;
        if (start && used[l] > platform.capacity(l) && !reported[l]) {
          reported[l] = true;
          out.add(
              platform.linkName(l)
                  + " held "
                  + used[l]
                  + " flows, capacity "
                  + platform.capacity(l));
        }
      }
    }
    return out;
  }
}
