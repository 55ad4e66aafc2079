package io.wanshuffle.bench.liquid;

import io.wanshuffle.scheduler.liquid.LiquidSearch;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Markdown section of the K-ring comparison ({@link KRingComparison}). */
final class KRingReport {
  private KRingReport() {}

  static String markdown(List<KRingComparison.Row> rows, double timeLimit) {
    int n = rows.size();
    int liquid = 0;
    int provenNot = 0;
    int timedOut = 0;
    int dsaturLoses = 0;
    int dsaturLiquid = 0;
    int under01 = 0;
    double[] secs = new double[n];
    double[] cpu = new double[n];
    double rrGain = 0;
    int rrLonger = 0;
    int[] lossBuckets = new int[3];
    for (int i = 0; i < n; i++) {
      KRingComparison.Row r = rows.get(i);
      secs[i] = r.seconds();
      cpu[i] = r.cpuSeconds();
      rrGain += (double) r.roundRobin() / r.search();
      if (r.roundRobin() > r.search()) {
        rrLonger++;
      }
      if (r.outcome() == LiquidSearch.Outcome.LIQUID) {
        liquid++;
      } else if (r.outcome() == LiquidSearch.Outcome.OPTIMAL_NOT_LIQUID) {
        provenNot++;
      } else {
        timedOut++;
      }
      if (r.dsatur() == r.lambda()) {
        dsaturLiquid++;
      }
      if (r.dsatur() > r.search()) {
        dsaturLoses++;
        double loss = 1 - (double) r.search() / r.dsatur();
        lossBuckets[loss < 0.10 ? 1 : 2]++;
      } else {
        lossBuckets[0]++;
      }
      if (r.cpuSeconds() < 0.1) {
        under01++;
      }
    }
    Arrays.sort(secs);
    Arrays.sort(cpu);
    StringBuilder sb = new StringBuilder();
    sb.append("## 1. Swiss-T1 K-ring: DSatur against the liquid search\n\n");
    sb.append(
            "Liquid-schedules paper, sec. 2 and annex (Fig. 4, 11). Topology: 8 switches, routing")
        .append(" table of Fig. 4 (odd switches joined directly to even ones, other pairs through")
        .append(" the switch the table names), up to 4 nodes per switch, one transmitter and one")
        .append(" receiver link per node, all links equal. Traffic: all-to-all between the")
        .append(" allocated nodes (n² unit transfers). **Substitute** for the paper's 363")
        .append(" sub-topologies (one per distinct liquid throughput, not listed in the paper): ")
        .append(n)
        .append(" distinct allocations sampled uniformly from the 5^8, at least 2 nodes.")
        .append(" Search time limit ")
        .append(timeLimit)
        .append(" s (wall clock) per sub-topology;")
        .append(" times include the DSatur colouring the search starts from; CPU time is the")
        .append(
            " search thread's, wall time also counts waiting for a core on a shared machine.\n\n");
    sb.append("| measure | value | paper |\n| --- | --- | --- |\n");
    sb.append(row("sub-topologies", n, ""));
    sb.append(row("liquid schedule found by the search", pct(liquid, n), "all reported liquid"));
    sb.append(row("proven to have no liquid schedule (search finished)", pct(provenNot, n), "-"));
    sb.append(row("search stopped by the time limit", pct(timedOut, n), "-"));
    sb.append(row("DSatur already liquid", pct(dsaturLiquid, n), "74% no loss"));
    sb.append(row("DSatur loses frames against the search", pct(dsaturLoses, n), "26%"));
    sb.append(row("... loss below 10%", pct(lossBuckets[1], n), "18%"));
    sb.append(row("... loss 10% or more", pct(lossBuckets[2], n), "8% (10-20%)"));
    sb.append(
        row(
            "round robin needs more frames than the search",
            pct(rrLonger, n),
            "Fig. 6: liquid often 2x round robin"));
    sb.append(
        row(
            "mean round-robin frames / search frames (throughput gain)",
            String.format(Locale.ROOT, "%.3f", rrGain / n),
            "1.5-2 on many (measured)"));
    sb.append(row("search CPU time < 0.1 s", pct(under01, n), "97% (500 MHz Alpha)"));
    sb.append(
        row(
            "search CPU time median / p90 / max",
            String.format(
                Locale.ROOT, "%.3f / %.3f / %.3f s", q(cpu, 0.5), q(cpu, 0.9), cpu[n - 1]),
            ""));
    sb.append(
        row(
            "search wall time median / p90 / max (shared machine)",
            String.format(
                Locale.ROOT, "%.3f / %.3f / %.3f s", q(secs, 0.5), q(secs, 0.9), secs[n - 1]),
            ""));
    sb.append("\nLoss = 1 - (search frames / DSatur frames), the throughput lost by DSatur.\n\n");
    sb.append("<details><summary>per sub-topology</summary>\n\n");
    sb.append(
        "| nodes per switch | transfers | Λ | DSatur | search | round robin | outcome | CPU s | wall s |\n");
    sb.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (KRingComparison.Row r : rows) {
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %d | %d | %d | %s | %.4f | %.4f |%n",
              Arrays.toString(r.nodes()),
              r.transfers(),
              r.lambda(),
              r.dsatur(),
              r.search(),
              r.roundRobin(),
              r.outcome(),
              r.cpuSeconds(),
              r.seconds()));
    }
    sb.append("\n</details>\n\n");
    return sb.toString();
  }

  private static String row(String what, Object value, String paper) {
    return "| " + what + " | " + value + " | " + paper + " |\n";
  }

  private static String pct(int a, int n) {
    return String.format(Locale.ROOT, "%d (%.1f%%)", a, 100.0 * a / n);
  }

  private static double q(double[] sorted, double p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
  }
}
