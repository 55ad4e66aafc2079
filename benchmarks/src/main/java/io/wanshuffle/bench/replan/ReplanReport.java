package io.wanshuffle.bench.replan;

import java.util.List;
import java.util.Locale;

/** Renders the re-plan results as the Markdown of docs/benchmarks/replan.md. */
final class ReplanReport {
  private ReplanReport() {}

  /**
   * @param rows results in run order
   * @param command the command line that regenerates the report
   * @param when UTC time of the run
   * @param machine machine description
   * @param load load averages at start / end
   * @return the Markdown text
   */
  static String render(
      List<ReplanRow> rows, String command, String when, String machine, String load) {
    StringBuilder b = new StringBuilder();
    b.append("# Re-planning speed of the plugin's coordinator\n\n");
    b.append(
            "At every step boundary the coordinator re-plans the residual cross-cluster demand"
                + " (hosts of one cluster x hosts of the other, seconds at base speed) and grants only the"
                + " plan's first step. This report times one such re-plan (`StepScheduler.schedule`) per"
                + " algorithm on n x n residual matrices, one thread, in one JVM, and compares it with the"
                + " step it grants (β + duration of the first step). Platform: δ = 1 per host (the"
                + " default 10 gbit/s backbone and 1 gbit/s NICs), k free flows (capped by n), β = ")
        .append(fmt(ResidualInstances.BETA))
        .append(" s. Shapes: `dense` (every pair, amounts" + " uniform in ")
        .append(fmt(ResidualInstances.MIN_SECONDS))
        .append("..")
        .append(fmt(ResidualInstances.MAX_SECONDS))
        .append(" s), `sparse` (")
        .append(fmt(ResidualInstances.SPARSE_DENSITY * 100))
        .append(" % of the pairs), `skewed` (")
        .append(fmt(ResidualInstances.SKEWED_DENSITY * 100))
        .append(
            " % of the pairs, Zipf-like"
                + " hot senders and receivers); see `ResidualInstances`.\n\n");
    b.append("Regenerate (from the repository root):\n\n    ").append(command).append("\n\n");
    b.append("- Run: ").append(when).append("\n");
    b.append("- Machine: ").append(machine).append("\n");
    b.append("- Load average (1/5/15 min) at start / end: ")
        .append(load)
        .append(
            " (shared machine: wall times include waiting for a core; CPU time is the"
                + " planning thread's own)\n\n");
    b.append(
        "| shape | n | k | pairs | algorithm | median wall ms | max wall ms | median CPU ms"
            + " | steps | first step s | plan / first step | cost/η | note |\n");
    b.append(
        "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            + " --- |\n");
    for (ReplanRow r : rows) {
      double share = r.medianWallMs() / 1000 / r.firstStepSeconds();
      b.append("| ")
          .append(r.shape())
          .append(" | ")
          .append(r.n())
          .append(" | ")
          .append(r.k())
          .append(" | ")
          .append(r.nonZero())
          .append(" | ")
          .append(r.algorithm())
          .append(" | ")
          .append(fmt(r.medianWallMs()))
          .append(" | ")
          .append(fmt(r.maxWallMs()))
          .append(" | ")
          .append(fmt(r.medianCpuMs()))
          .append(" | ")
          .append(r.steps())
          .append(" | ")
          .append(fmt(r.firstStepSeconds()))
          .append(" | ")
          .append(pct(share))
          .append(" | ")
          .append(fmt(r.ratio()))
          .append(" | ")
          .append(r.note())
          .append(" |\n");
    }
    b.append(
        "\n\"plan / first step\" is the re-plan's median wall time as a share of the step it"
            + " grants: above a few percent the backbone idles noticeably between steps (the"
            + " coordinator grants the next step only when the plan is ready). The coordinator"
            + " bounds this with `spark.wanshuffle.planning.budget` (see docs/configuration.md); past"
            + " the budget it plans the step with `greedy` (`GreedyFirstStep`: only its first step is"
            + " a real step, the rest is one transfer per step, hence its step count and cost/η).\n");
    return b.toString();
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return Long.toString((long) v);
    }
    return String.format(
        Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 1 ? "%.2f" : "%.4f", v);
  }

  private static String pct(double v) {
    return Double.isNaN(v) || Double.isInfinite(v)
        ? "—"
        : String.format(Locale.ROOT, "%.1f %%", v * 100);
  }
}
