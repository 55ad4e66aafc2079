package io.wanshuffle.it.concurrent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the reports say of applications run together: the fields each run's object of {@code
 * run-app}'s {@code report.json} gains, and a Markdown section for {@code report.md} and {@code
 * e2e-bench}'s report.
 */
public final class ConcurrentReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ConcurrentReport() {}

  /**
   * Adds to each run of a {@code report.json} array (one object per application, the applications
   * of a group consecutive, the groups in order): {@code concurrent} (the applications that ran
   * together, 1 for one), {@code app} (its place among them, from 1), {@code arbiter} ({@code
   * zookeeper} or null), {@code maxFlowsOverCapacityAllApps} (the most flows any link carried at
   * one instant across all of them over its capacity; null without gated flows) and {@code
   * windowBoundOverCapacity} (the most a link's window may reach over its capacity under the
   * plugin's window rule in force; null for Spark's default). Every field already there is kept.
   *
   * @param reportJson the array, as {@code AppReport} writes it
   * @param groups the groups, in order, covering the array's objects
   * @return the array with the fields, indented
   * @throws IllegalArgumentException if the groups do not cover the array
   */
  public static String json(String reportJson, List<RunGroup> groups) {
    try {
      JsonNode root = JSON.readTree(reportJson);
      if (!(root instanceof ArrayNode runs)) {
        throw new IllegalArgumentException("report.json is not an array");
      }
      int i = 0;
      for (RunGroup g : groups) {
        for (int app = 1; app <= g.apps(); app++, i++) {
          if (i >= runs.size()) {
            throw new IllegalArgumentException(
                "the groups hold more applications than report.json's " + runs.size() + " runs");
          }
          ObjectNode o = (ObjectNode) runs.get(i);
          o.put("concurrent", g.apps());
          o.put("app", app);
          o.put("arbiter", g.arbiter());
          o.put("maxFlowsOverCapacityAllApps", g.maxFlowsOverCapacityAllApps());
          o.put("windowBoundOverCapacity", g.windowBound());
        }
      }
      if (i != runs.size()) {
        throw new IllegalArgumentException(
            "the groups hold " + i + " applications, report.json " + runs.size() + " runs");
      }
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(runs) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("report.json does not parse: " + e.getMessage(), e);
    }
  }

  /**
   * @param timed what each application's seconds are, for the legend (e.g. {@code spark-submit's
   *     wall time})
   * @param groups the groups, in order
   * @return a section "Applications run together": per group (one run) the applications, their
   *     times, the slowest, when the last one ended and their sum, the most flows of all of them on
   *     one link against its capacity and the window rule's bound; then, where a cell has several
   *     runs, per cell the medians over its runs of the slowest application, of the last end and of
   *     the sum, and its worst run's most flows; "" without groups
   */
  public static String markdown(String timed, List<RunGroup> groups) {
    if (groups.isEmpty()) {
      return "";
    }
    StringBuilder sb =
        new StringBuilder("\n## Applications run together\n\n")
            .append(
                "Per run, the applications started at once (one driver each), each one's time ("
                    + timed
                    + "), the slowest, when the last one ended (from the first reduce stage's start"
                    + " among them; the slowest where the applications are timed from a common"
                    + " start) and the sum; most flows / capacity, all applications = the"
                    + " most gated flows of all of them (their flow logs swept together) holding one"
                    + " link at once against its capacity in flows; window bound = the most a"
                    + " link's window may reach over its capacity under the plugin's window rule (1:"
                    + " windows are the capacities). With an arbiter the applications together"
                    + " should stay within the bound in every run.\n\n")
            .append(
                "| run | applications | arbiter | seconds per application | slowest (s) | last end"
                    + " (s) | sum (s) | most flows / capacity, all applications | window bound |\n")
            .append("|---|---|---|---|---|---|---|---|---|\n");
    for (RunGroup g : groups) {
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | %.2f | %.2f | %.2f | %s | %s |\n",
              g.what(),
              g.apps(),
              g.arbiter() == null ? "-" : g.arbiter(),
              g.seconds().stream()
                  .map(s -> String.format(Locale.ROOT, "%.2f", s))
                  .collect(Collectors.joining(", ")),
              g.slowest(),
              g.lastEnded(),
              g.sum(),
              peak(g.peak(), g.windowBound()),
              bound(g.windowBound())));
    }
    Map<String, List<RunGroup>> cells = new LinkedHashMap<>();
    groups.forEach(g -> cells.computeIfAbsent(g.cell(), c -> new ArrayList<>()).add(g));
    if (cells.values().stream().anyMatch(runs -> runs.size() > 1)) {
      sb.append(
              "\nPer cell, over its runs: the medians of the slowest application, of when the last"
                  + " one ended and of the sum;")
          .append(" the run with the most flows on a link of all the applications.\n\n")
          .append(
              "| cell | runs | slowest, median (s) | last end, median (s) | sum, median (s) | most"
                  + " flows / capacity, worst run | window bound |\n")
          .append("|---|---|---|---|---|---|---|\n");
      cells.forEach(
          (cell, runs) -> {
            RunGroup worst =
                runs.stream()
                    .filter(g -> g.peak() != null)
                    .max(Comparator.comparingDouble(g -> g.peak().overCapacity()))
                    .orElse(runs.get(0));
            sb.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %.2f | %.2f | %.2f | %s | %s |\n",
                    cell,
                    runs.size(),
                    RunGroup.median(runs.stream().map(RunGroup::slowest).toList()),
                    RunGroup.median(runs.stream().map(RunGroup::lastEnded).toList()),
                    RunGroup.median(runs.stream().map(RunGroup::sum).toList()),
                    peak(worst.peak(), worst.windowBound()),
                    bound(worst.windowBound())));
          });
    }
    return sb.toString();
  }

  private static String peak(AllAppsFlows.Peak peak, Double windowBound) {
    return peak == null
        ? "-"
        : peak
            + String.format(Locale.ROOT, " (%.2f)", peak.overCapacity())
            + (windowBound != null && peak.overCapacity() > windowBound ? " ABOVE" : "");
  }

  private static String bound(Double windowBound) {
    return windowBound == null ? "-" : String.format(Locale.ROOT, "%.2f", windowBound);
  }
}
