package io.wanshuffle.it.demo;

import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Side-by-side figures of runs of the same job (default shuffle and wan-shuffle): reduce-stage
 * time, shuffle fetch wait, bytes across the backbone, achieved backbone throughput against the
 * physical limit, TCP retransmissions.
 */
public final class Comparison {
  private Comparison() {}

  /**
   * Figures of one measured run.
   *
   * @param name run name
   * @param reduceSeconds reduce-stage wall time, s
   * @param fetchWaitSeconds sum over reduce tasks of shuffle fetch wait, s
   * @param cpuSeconds sum over reduce tasks of their threads' CPU time ({@link
   *     RunResult#reduceCpuSeconds()}), s
   * @param matrixCrossBytes shuffle bytes from A hosts to B hosts ({@link
   *     RunResult#trafficMatrix()}: exact per host from the task metrics)
   * @param backboneBytes bytes A to B on the backbone interface during the reduce stage (-1 when
   *     not shaped)
   * @param meanBitsPerSecond backbone bytes x 8 / reduce time (-1 when not shaped)
   * @param peakBitsPerSecond highest 1 s backbone rate during the run (-1 when not shaped)
   * @param physicalLimitSeconds max(total bytes / backbone rate, max host bytes / NIC rate) of
   *     {@link RunResult#trafficMatrix()}, s
   * @param retransPercent TCP segments retransmitted by A hosts, % of sent; by all hosts for a run
   *     across the backbone both ways (-1 when not shaped)
   */
  public record Figures(
      String name,
      double reduceSeconds,
      double fetchWaitSeconds,
      double cpuSeconds,
      long matrixCrossBytes,
      long backboneBytes,
      double meanBitsPerSecond,
      double peakBitsPerSecond,
      double physicalLimitSeconds,
      double retransPercent) {}

  /**
   * @param name run name
   * @param run the driver's run result
   * @param trace backbone recording around the driver run, or null
   * @param spec testbed spec (rates)
   * @return the figures
   */
  public static Figures of(String name, RunResult run, BackboneTrace trace, TestbedSpec spec) {
    double secs = run.reduceSeconds();
    long bb = -1;
    double mean = -1;
    double peak = -1;
    double retrans = -1;
    boolean bothWays = bothWays(run, spec);
    if (trace != null) {
      // one way: A to B and the A hosts' segments; both ways: both directions and every host's
      // segments
      List<BackboneTrace.Direction> ways =
          bothWays
              ? List.of(BackboneTrace.Direction.values())
              : List.of(BackboneTrace.Direction.A_TO_B);
      bb = 0;
      peak = 0;
      long sent = 0;
      long lost = 0;
      for (BackboneTrace.Direction d : ways) {
        bb += trace.bytes(d, run.reduceStageStartMs(), run.reduceStageEndMs());
        peak = Math.max(peak, trace.peakBitsPerSecond(d, 1000));
        sent += trace.sentSegments(d);
        lost += trace.retransmittedSegments(d);
      }
      mean = bb * 8 / Math.max(secs, 1e-3) / ways.size();
      retrans = sent == 0 ? 0 : 100.0 * lost / sent;
    }
    return new Figures(
        name,
        secs,
        run.fetchWaitMs() / 1000.0,
        run.reduceCpuSeconds(),
        run.matrixTotal(),
        bb,
        mean,
        peak,
        bothWays
            ? physicalLimitBothWaysSeconds(run.trafficMatrix(), spec)
            : physicalLimitSeconds(run.trafficMatrix(), spec),
        retrans);
  }

  /**
   * The physical limit of a cross-cluster shuffle: max(total bytes / backbone rate, max per-host
   * bytes / NIC rate).
   *
   * @param bytes {@code [senders][receivers]} bytes
   * @param spec rates
   * @return seconds
   */
  public static double physicalLimitSeconds(long[][] bytes, TestbedSpec spec) {
    return Math.max(
        total(bytes) / spec.backboneBytesPerSecond(),
        maxHostBytes(bytes) / spec.nicBytesPerSecond());
  }

  /**
   * @return whether the run shuffled between all hosts (A's then B's) rather than from A to B
   */
  static boolean bothWays(RunResult run, TestbedSpec spec) {
    return run.senders().equals(run.receivers())
        && run.senders().size() == spec.nodesA() + spec.nodesB();
  }

  /**
   * The physical limit of a shuffle between all hosts of both clusters: max(A-to-B bytes / backbone
   * rate, B-to-A bytes / backbone rate, max bytes a host sends or receives / NIC rate); the
   * backbone and the NICs are full duplex and shaped each way.
   *
   * @param bytes {@code [A + B][A + B]} bytes, A's hosts first
   * @param spec rates and host counts
   * @return seconds
   */
  public static double physicalLimitBothWaysSeconds(long[][] bytes, TestbedSpec spec) {
    double limit = maxHostBytes(bytes) / spec.nicBytesPerSecond();
    for (long[][] way : directions(bytes, spec.nodesA())) {
      limit = Math.max(limit, total(way) / spec.backboneBytesPerSecond());
    }
    return limit;
  }

  /**
   * @param bytes {@code [A + B][A + B]} bytes between all hosts, A's hosts first
   * @param nA hosts in cluster A
   * @return the A-to-B block ({@code [A][B]}) and the B-to-A block ({@code [B][A]}), copied
   */
  public static List<long[][]> directions(long[][] bytes, int nA) {
    int n = bytes.length;
    return List.of(block(bytes, 0, nA, nA, n), block(bytes, nA, n, 0, nA));
  }

  private static long[][] block(long[][] m, int r0, int r1, int c0, int c1) {
    long[][] out = new long[r1 - r0][];
    for (int i = r0; i < r1; i++) {
      out[i - r0] = java.util.Arrays.copyOfRange(m[i], c0, c1);
    }
    return out;
  }

  private static double total(long[][] m) {
    return java.util.Arrays.stream(m).flatMapToLong(java.util.Arrays::stream).sum();
  }

  /**
   * @return the most bytes one host sends (row sum) or receives (column sum)
   */
  private static double maxHostBytes(long[][] bytes) {
    double maxHost = 0;
    double[] col = new double[bytes.length == 0 ? 0 : bytes[0].length];
    for (long[] row : bytes) {
      double r = 0;
      for (int j = 0; j < row.length; j++) {
        r += row[j];
        col[j] += row[j];
      }
      maxHost = Math.max(maxHost, r);
    }
    for (double c : col) {
      maxHost = Math.max(maxHost, c);
    }
    return maxHost;
  }

  /**
   * @param figures runs to put side by side
   * @param shaped whether the backbone is shaped (otherwise backbone rows say so)
   * @return table rows: metric name then one cell per run
   */
  public static List<List<String>> rows(List<Figures> figures, boolean shaped) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(row("reduce stage (s)", figures, f -> fmt("%.2f", f.reduceSeconds())));
    rows.add(
        row(
            "shuffle fetch wait, sum over tasks (s)",
            figures,
            f -> fmt("%.2f", f.fetchWaitSeconds())));
    rows.add(row("reduce tasks' CPU time, sum (s)", figures, f -> fmt("%.2f", f.cpuSeconds())));
    rows.add(
        row(
            "shuffle bytes A→B, task metrics (MB)",
            figures,
            f -> fmt("%.1f", f.matrixCrossBytes() / 1e6)));
    rows.add(row("physical limit (s)", figures, f -> fmt("%.2f", f.physicalLimitSeconds())));
    rows.add(
        row(
            "reduce stage / physical limit",
            figures,
            f -> fmt("%.2f", f.reduceSeconds() / Math.max(f.physicalLimitSeconds(), 1e-9))));
    if (shaped) {
      rows.add(
          row(
              "backbone bytes A→B in reduce stage (MB)",
              figures,
              f -> fmt("%.1f", f.backboneBytes() / 1e6)));
      rows.add(
          row(
              "backbone throughput, mean (Mbit/s)",
              figures,
              f -> fmt("%.1f", f.meanBitsPerSecond() / 1e6)));
      rows.add(
          row(
              "backbone throughput, peak 1 s (Mbit/s)",
              figures,
              f -> fmt("%.1f", f.peakBitsPerSecond() / 1e6)));
      rows.add(
          row("TCP retransmitted segments (%)", figures, f -> fmt("%.2f", f.retransPercent())));
    } else {
      rows.add(row("backbone", figures, f -> "not shaped (loopback)"));
    }
    return rows;
  }

  private static List<String> row(
      String name, List<Figures> fs, java.util.function.Function<Figures, String> cell) {
    List<String> r = new ArrayList<>();
    r.add(name);
    fs.forEach(f -> r.add(cell.apply(f)));
    return r;
  }

  static String fmt(String f, double v) {
    return String.format(Locale.ROOT, f, v);
  }

  /**
   * Renders rows as a fixed-width text table.
   *
   * @param header column headings
   * @param rows rows of cells
   * @return the table text
   */
  public static String text(List<String> header, List<List<String>> rows) {
    int[] w = new int[header.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (List<String> r : all) {
      for (int i = 0; i < r.size(); i++) {
        w[i] = Math.max(w[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (List<String> r : all) {
      for (int i = 0; i < r.size(); i++) {
        String c = r.get(i);
        sb.append(
            i == 0 ? String.format("%-" + w[i] + "s", c) : String.format("  %" + w[i] + "s", c));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  static Class<?> pluginClass() {
    try {
      return Class.forName(PluginSettings.WAN_SHUFFLE_MANAGER);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }
}
