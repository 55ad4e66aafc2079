package io.wanshuffle.it.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.wanshuffle.it.fault.FaultRecord;
import io.wanshuffle.it.fault.FaultRun;
import io.wanshuffle.it.links.LinkLoad;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.tools.report.ApplicationCapture;
import io.wanshuffle.tools.report.ApplicationCaptures;
import io.wanshuffle.tools.report.HtmlReport;
import io.wanshuffle.tools.report.OperatorReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The reports of {@code wan-shuffle run-app}. Markdown ({@code report.md}): one row per run
 * (application time, its stages that read shuffle data, the backbone's bytes each way,
 * retransmissions, the plugin's steps and most gated flows at once against k, whether stdout
 * matched the first run's, the most flows on any link against its capacity, the busiest link's
 * utilisation), then the time of each shuffle-reading stage in every run. JSON ({@code
 * report.json}, Jackson): an array of one object per run ({@link #json}). HTML ({@code
 * report.html}): per wan-shuffle run, the operator's page of its application ({@link
 * OperatorReport}, the code of {@code ./wan-shuffle report}) read from the run's capture folder.
 */
final class AppReport {
  private static final ObjectMapper JSON = new ObjectMapper();

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
   * @return {@code link NN %}; "-" without counters
   */
  static String busiest(Map<String, LinkLoad> links) {
    return LinkLoad.busiest(links)
        .map(
            e ->
                e.getKey()
                    + String.format(Locale.ROOT, " %.0f %%", 100 * e.getValue().utilisation()))
        .orElse("-");
  }

  /**
   * The JSON report: one object per run, in the order they ran, with {@code run} (its place),
   * {@code variant}, {@code runOfVariant}, {@code failure} (null when it succeeded), {@code
   * seconds} (spark-submit's wall time), {@code shuffleReadStageSeconds}, {@code
   * outputSameAsFirst}, {@code steps}, {@code k}, {@code maxFlowsOverCapacity} (the largest flows /
   * capacity over the links, at most 1 when the per-link contract held; null for a run without
   * gated flows), {@code backboneAToBBytes} and {@code backboneBToABytes} (null on loopback),
   * {@code busiestLink} and {@code busiestUtilisation} (null without counters), and {@code links}:
   * link name to {@code capacityFlows}, {@code maxFlows}, {@code bytes}, {@code utilisation},
   * {@code peakBitsPerSecond}, {@code drops} ({@link LinkLoad}; null where not measured); and the
   * run's {@link RunNetwork}: {@code transferPhaseSeconds}, {@code predictedScheduledSeconds},
   * {@code predictedDefaultSeconds}, {@code beta} (seconds) and {@code measuredRates} (link name to
   * bytes/s), null (empty) where not known.
   *
   * @param runs every run, in the order they ran
   * @return the JSON text, indented
   */
  static String json(List<AppFigures> runs) {
    return json(runs, List.of());
  }

  /**
   * The JSON report of {@link #json(List)}, each run with what its {@code --fault}s did: {@code
   * faults}, one {@link FaultRecord} per fault in the order given (empty without faults), {@code
   * faultsReduceStageStart} (the start of the run's first reduce stage, which the faults' seconds
   * count from; null when none started) and {@code faultsError} (why they could not be injected,
   * else null).
   *
   * @param runs every run, in the order they ran
   * @param faultRuns per run, in the same order, what its faults did (at most one {@link FaultRun};
   *     runs past the list's end have none)
   * @return the JSON text, indented
   */
  static String json(List<AppFigures> runs, List<List<FaultRun>> faultRuns) {
    List<Boolean> same = sameOutputAsFirst(runs);
    ArrayNode out = JSON.createArrayNode();
    for (int i = 0; i < runs.size(); i++) {
      AppFigures r = runs.get(i);
      ObjectNode o = out.addObject();
      o.put("run", i + 1);
      o.put("variant", r.variant());
      o.put("runOfVariant", r.run());
      o.put("failure", r.failure());
      o.put("seconds", r.wallSeconds());
      o.put("shuffleReadStageSeconds", r.shuffleReadStageSeconds());
      o.put("outputSameAsFirst", same.get(i));
      o.put("steps", r.steps());
      o.put("k", r.k());
      o.put("maxFlowsOverCapacity", r.maxFlowsOverCapacity());
      o.put("backboneAToBBytes", r.aToBBytes() < 0 ? null : r.aToBBytes());
      o.put("backboneBToABytes", r.bToABytes() < 0 ? null : r.bToABytes());
      java.util.Optional<Map.Entry<String, LinkLoad>> busiest = LinkLoad.busiest(r.links());
      o.put("busiestLink", busiest.map(Map.Entry::getKey).orElse(null));
      o.put("busiestUtilisation", busiest.map(e -> e.getValue().utilisation()).orElse(null));
      ObjectNode links = o.putObject("links");
      r.links().forEach((name, l) -> links.set(name, JSON.valueToTree(linkFields(l))));
      RunNetwork n = r.network();
      o.put("transferPhaseSeconds", n.transferPhaseSeconds());
      o.put("predictedScheduledSeconds", n.predictedScheduledSeconds());
      o.put("predictedDefaultSeconds", n.predictedDefaultSeconds());
      o.put("beta", n.betaSeconds());
      ObjectNode rates = o.putObject("measuredRates");
      n.measuredRates().forEach(rates::put);
      FaultRun f =
          i < faultRuns.size() && !faultRuns.get(i).isEmpty()
              ? faultRuns.get(i).get(0)
              : FaultRun.NONE;
      o.set("faults", JSON.valueToTree(f.faults()));
      o.put("faultsReduceStageStart", f.reduceStageStart());
      o.put("faultsError", f.error());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the JSON report", e);
    }
  }

  private static Map<String, Object> linkFields(LinkLoad l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("capacityFlows", l.capacityFlows());
    m.put("maxFlows", l.maxFlows());
    m.put("bytes", l.bytes());
    m.put("utilisation", l.utilisation());
    m.put("peakBitsPerSecond", l.peakBitsPerSecond());
    m.put("drops", l.drops());
    m.put("wireFlows", l.wireFlows());
    return m;
  }

  /**
   * The HTML report: a paragraph on how it was made, then per wan-shuffle run the operator's page
   * of each application it ran ({@link OperatorReport#appendTo}), read from its capture folder; a
   * capture that cannot be read becomes a note naming it.
   *
   * @param intro the paragraph above the runs (testbed, command)
   * @param captures run label ({@code auto run 1}) to its capture folder, wan-shuffle runs only, in
   *     the order they ran
   * @param hostName a host's name on the page for its address
   * @return the page, ready to write
   */
  static HtmlReport html(
      String intro, Map<String, Path> captures, Function<String, String> hostName) {
    HtmlReport r = new HtmlReport("wan-shuffle run-app");
    r.paragraph(intro);
    r.paragraph("The runs' table is in report.md, every link of every run in report.json.");
    captures.forEach(
        (label, dir) -> {
          r.heading(label + ": what the plugin did");
          try {
            for (ApplicationCapture app : ApplicationCaptures.fromCaptureDir(dir)) {
              OperatorReport.appendTo(r, app, hostName);
            }
          } catch (IOException | IllegalArgumentException e) {
            r.note("No capture to show from " + dir + ": " + e.getMessage());
          }
        });
    return r;
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
            + " | most gated flows at once A→B / B→A (k) | stdout | most flows on a link / its capacity"
            + " | busiest link (utilisation) |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    List<Boolean> same = sameOutputAsFirst(runs);
    for (int i = 0; i < runs.size(); i++) {
      AppFigures r = runs.get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %s | %.2f | %.2f | %.1f | %s | %s | %s | %s | %s | %s | %s | %s |%n",
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
              i == 0 ? "reference" : same.get(i) ? "same as run 1" : "DIFFERS from run 1",
              LinkRun.mostFlows(r.links()),
              busiest(r.links())));
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
