package io.wanshuffle.it.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown report of {@code wan-shuffle run-app}: one row per run (application time, its stages
 * that read shuffle data, the backbone's bytes each way, retransmissions, the plugin's steps and
 * most gated flows at once against k, whether stdout matched the first run's), then the time of
 * each shuffle-reading stage in every run.
 */
final class AppReport {
  private AppReport() {}

  /**
   * @param runs every run, in the order they ran
   * @return per run, in order: whether it and the first run succeeded and its stdout equals the
   *     first run's
   */
  static List<Boolean> sameOutputAsFirst(List<AppFigures> runs) {
    List<Boolean> same = new ArrayList<>();
    for (AppFigures r : runs) {
      same.add(
          r.failure() == null
              && runs.get(0).failure() == null
              && r.stdoutSha256().equals(runs.get(0).stdoutSha256()));
    }
    return same;
  }

  /**
   * @param header the lines above the tables (title, testbed, command)
   * @param runs every run, in the order they ran
   * @return the report
   */
  static String markdown(String header, List<AppFigures> runs) {
    StringBuilder sb = new StringBuilder(header).append("\n\n");
    sb.append(
        "| run | variant | result | spark-submit (s) | shuffle-reading stages (s) | shuffle fetched remotely"
            + " (MB) | backbone A→B / B→A (MB) | backbone peak 1 s (Mbit/s) | TCP retransmitted | steps granted"
            + " | most gated flows at once A→B / B→A (k) | stdout |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    List<Boolean> same = sameOutputAsFirst(runs);
    for (int i = 0; i < runs.size(); i++) {
      AppFigures r = runs.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %s | %.2f | %.2f | %.1f | %s | %s | %s | %s | %s | %s |%n",
              i + 1,
              r.variant(),
              r.failure() == null ? "ok" : "FAILED: " + r.failure().replace("|", "\\|"),
              r.wallSeconds(),
              r.shuffleReadStageSeconds(),
              r.remoteShuffleBytes() / 1e6,
              r.aToBBytes() < 0
                  ? "-"
                  : String.format(
                      Locale.ROOT, "%.1f / %.1f", r.aToBBytes() / 1e6, r.bToABytes() / 1e6),
              r.peakBitsPerSecond() < 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.1f", r.peakBitsPerSecond() / 1e6),
              r.retransmitPercent() < 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.2f %%", r.retransmitPercent()),
              r.k() == 0 ? "-" : Integer.toString(r.steps()),
              r.k() == 0
                  ? "-"
                  : r.gatedAtOnceAToB()
                      + " / "
                      + r.gatedAtOnceBToA()
                      + " ("
                      + r.k()
                      + ")"
                      + (r.withinK() ? "" : " ABOVE k"),
              i == 0 ? "reference" : same.get(i) ? "same as run 1" : "DIFFERS from run 1"));
    }
    Map<String, Map<Integer, Double>> stages = new LinkedHashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      EventLog log = runs.get(i).log();
      if (log == null) {
        continue;
      }
      for (StageRun s : log.shuffleReadStages()) {
        stages
            .computeIfAbsent(
                s.label() + " | " + s.name().replace("|", "\\|"), x -> new LinkedHashMap<>())
            .put(i, s.seconds());
      }
    }
    if (!stages.isEmpty()) {
      sb.append(
          "\nStages that read shuffle data, submission to completion (s), by run:\n\n| stage | name |");
      for (int i = 0; i < runs.size(); i++) {
        sb.append(" ").append(i + 1).append(" (").append(runs.get(i).variant()).append(") |");
      }
      sb.append("\n|---|---|").append("---|".repeat(runs.size())).append("\n");
      stages.forEach(
          (stage, byRun) -> {
            sb.append("| ").append(stage).append(" |");
            for (int i = 0; i < runs.size(); i++) {
              Double t = byRun.get(i);
              sb.append(t == null ? " - |" : String.format(Locale.ROOT, " %.2f |", t));
            }
            sb.append("\n");
          });
    }
    return sb.toString();
  }
}
