package io.wanshuffle.it.bench;

import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.demo.RunSpread;
import io.wanshuffle.it.demo.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end report's sections on filling the bottleneck ({@code e2e-bench --targets}): per
 * cell the reduce stage's median and range, the difference to the default with its verdict ({@link
 * Verdict}: a word only beyond the runs' spread), to the same variant with fixed windows ({@code
 * /capacity}), the bottleneck link's utilisation over its transfer phase, the TCP retransmissions
 * and the ratio to the generalised physical limit; then every target of {@link FillTargets} with
 * its figure and whether it was met.
 */
final class FillReport {
  private FillReport() {}

  /**
   * @param cells the benchmark's cells, in the order they ran
   * @return the two sections' markdown, starting with a blank line; "" without cells
   */
  static String markdown(List<FillCell> cells) {
    if (cells.isEmpty()) {
      return "";
    }
    boolean testbeds = cells.stream().anyMatch(f -> !f.cell().testbed().isEmpty());
    Map<String, RunSpread> spreads = new LinkedHashMap<>();
    for (FillCell f : cells) {
      spreads.put(f.cell().where() + "/" + f.cell().variant(), spread(f.cell()));
    }
    StringBuilder sb =
        new StringBuilder(
            "\n## Bottleneck fill\n\nPer cell over its runs: the reduce stage's median and range"
                + " (min-max); against Spark's default, the difference of the medians, called"
                + " faster or slower only where it exceeds the larger of the two ranges; against"
                + " the same variant with fixed windows (each link admits its capacity in flows:"
                + " `auto/adaptive` against `auto`, `auto` against `auto/capacity`); the bottleneck link (the link of the generalised physical"
                + " limit of the run's traffic matrix) and its utilisation over its transfer phase"
                + " (from the first to the last 200 ms interval of the reduce stage in which its"
                + " counters carried more than 2 % of its rate: bytes / (rate x that time)),"
                + " median; TCP retransmissions (median); the reduce stage over the generalised"
                + " physical limit (median).\n\n");
    sb.append(testbeds ? "| testbed " : "")
        .append(
            "| pattern | RTT (ms) | variant | reduce stage (s) | vs default | vs /capacity |"
                + " bottleneck link | utilisation over its transfer phase | TCP retrans (%) |"
                + " reduce / generalised limit |\n")
        .append(testbeds ? "|---" : "")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (FillCell f : cells) {
      E2eReport.Cell c = f.cell();
      RunSpread own = spreads.get(c.where() + "/" + c.variant());
      RunSpread dflt = spreads.get(c.where() + "/" + Variant.DEFAULT);
      String fixed = new Variant(c.variant()).withFixedWindows();
      RunSpread capacity = fixed == null ? null : spreads.get(c.where() + "/" + fixed);
      Double u = f.medianPhaseUtilisation();
      double retrans =
          E2eReport.median(
              c.runs().stream().mapToDouble(Comparison.Figures::retransPercent).toArray());
      Double ratio = FillTargets.limitRatio(c);
      if (testbeds) {
        sb.append("| ").append(c.testbed()).append(' ');
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
              c.pattern(),
              c.rtt(),
              c.variant(),
              own.text("%.2f"),
              dflt == null || c.variant().equals(Variant.DEFAULT) ? "-" : Verdict.text(own, dflt),
              capacity == null ? "-" : Verdict.text(own, capacity),
              f.bottleneck(),
              u == null ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * u),
              retrans < 0 ? "-" : String.format(Locale.ROOT, "%.2f", retrans),
              ratio == null ? "-" : String.format(Locale.ROOT, "%.2f", ratio)));
    }
    sb.append(targets(FillTargets.check(cells), testbeds));
    return sb.toString();
  }

  /** The targets section: what is checked, one row per check, and the count of each outcome. */
  private static String targets(List<FillTargets.Check> checks, boolean testbeds) {
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "\n## Targets\n\nChecked per cell on the medians over its runs, for each"
                    + " wan-shuffle variant with the topology file and no suffix: at most %.0f %%"
                    + " slower than Spark's default (every cell, the loaded ones too); on a quiet"
                    + " machine, the bottleneck link used at least %.0f %% over its transfer phase,"
                    + " TCP retransmissions at most %.0f %%, at least %.0f %% faster than the"
                    + " default on Zipf, fair-poor-grid and trace at 40 ms and on Zipf and"
                    + " fair-poor-grid at RTT 0, at most %.2f x the generalised physical limit at"
                    + " RTT 0; a variant with the rates not typed in (`/measured`) within %.0f %%"
                    + " of the same algorithm with the topology file and its rates.\n\n",
                FillTargets.MAX_SLOWER_PERCENT,
                FillTargets.MIN_PHASE_UTILISATION_PERCENT,
                FillTargets.MAX_RETRANS_PERCENT,
                FillTargets.MIN_FASTER_PERCENT,
                FillTargets.MAX_LIMIT_RATIO,
                FillTargets.MEASURED_WITHIN_PERCENT));
    if (checks.isEmpty()) {
      return sb.append(
              "Nothing to check: no cell ran a wan-shuffle variant with the topology file beside"
                  + " Spark's default.\n")
          .toString();
    }
    sb.append(testbeds ? "| testbed " : "")
        .append("| pattern | RTT (ms) | variant | target | figure | outcome |\n")
        .append(testbeds ? "|---" : "")
        .append("|---|---|---|---|---|---|\n");
    Map<FillTargets.Outcome, Integer> counts = new LinkedHashMap<>();
    for (FillTargets.Outcome o : FillTargets.Outcome.values()) {
      counts.put(o, 0);
    }
    for (FillTargets.Check k : checks) {
      E2eReport.Cell c = k.cell().cell();
      counts.merge(k.outcome(), 1, Integer::sum);
      if (testbeds) {
        sb.append("| ").append(c.testbed()).append(' ');
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | %s | %s |\n",
              c.pattern(),
              c.rtt(),
              c.variant(),
              k.target(),
              k.figure(),
              k.outcome().words));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "\n%d checks: %d met, %d not met, %d not measured.\n",
            checks.size(),
            counts.get(FillTargets.Outcome.MET),
            counts.get(FillTargets.Outcome.NOT_MET),
            counts.get(FillTargets.Outcome.NOT_MEASURED)));
    return sb.toString();
  }

  private static RunSpread spread(E2eReport.Cell c) {
    return RunSpread.of(c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray());
  }
}
