package io.wanshuffle.it.concurrent;

import io.wanshuffle.it.links.LinkFlows;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The most gated flows any link carried at one instant across several applications that ran
 * together, against the link's capacity in flows: every application's flow log ({@code flows.csv}
 * of the plugin's capture) swept together over the testbed's links ({@link
 * LinkFlows#maxFlowsOfApps}). With an arbiter the applications together should stay within one
 * application's window; without one, about N windows.
 */
public final class AllAppsFlows {
  private AllAppsFlows() {}

  /**
   * The link with the most flows against its capacity.
   *
   * @param link its name
   * @param flows the most flows of all the applications that held it at one instant
   * @param capacity its capacity in flows
   */
  public record Peak(String link, int flows, int capacity) {
    /**
     * @return {@code flows / capacity}
     */
    public double overCapacity() {
      return flows / (double) capacity;
    }

    /**
     * @return e.g. {@code 3 / 2 backbone.out[/A]}
     */
    @Override
    public String toString() {
      return flows + " / " + capacity + " " + link;
    }
  }

  /**
   * @param captureDirs the applications' capture folders (each holding one folder per SparkContext;
   *     null or missing for a run without the plugin's capture)
   * @param model the testbed's links
   * @return the link of the largest flows / capacity (the first in the model's order among equals),
   *     or empty when no application had a gated flow
   * @throws IOException if a capture cannot be read
   */
  public static Optional<Peak> peak(List<Path> captureDirs, TopologyLinks model)
      throws IOException {
    List<List<FlowCapture>> apps = new ArrayList<>();
    for (Path dir : captureDirs) {
      if (dir == null || !Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> contexts = Files.list(dir)) {
        for (Path app : contexts.filter(Files::isDirectory).sorted().toList()) {
          List<FlowCapture> gated = new ArrayList<>();
          for (StageCapture c : CaptureFiles.readStages(app)) {
            c.flows().stream().filter(f -> f.stepId() > 0).forEach(gated::add);
          }
          apps.add(gated);
        }
      }
    }
    if (apps.stream().allMatch(List::isEmpty)) {
      return Optional.empty();
    }
    Peak best = null;
    for (Map.Entry<String, Integer> e : LinkFlows.maxFlowsOfApps(apps, model).entrySet()) {
      Peak p = new Peak(e.getKey(), e.getValue(), model.capacityFlows(e.getKey()));
      if (best == null || p.overCapacity() > best.overCapacity()) {
        best = p;
      }
    }
    return Optional.ofNullable(best);
  }
}
