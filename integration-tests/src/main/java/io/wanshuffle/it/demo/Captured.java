package io.wanshuffle.it.demo;

import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the plugin's capture recorded for one measured run: the stage captures of its reduce stage
 * (matched by time: demand registered inside the reduce stage window), their steps and flows.
 *
 * @param stages stage captures of the run's reduce stage (several if the stage was retried)
 */
public record Captured(List<StageCapture> stages) {

  /**
   * @param captureDir the run's capture folder (one application folder inside)
   * @param run the run whose reduce stage to match
   * @return the captures of that reduce stage (empty list when nothing crossed the clusters)
   * @throws UncheckedIOException if a capture file cannot be read
   */
  public static Captured read(Path captureDir, RunResult run) {
    List<StageCapture> out = new ArrayList<>();
    if (captureDir == null || !Files.isDirectory(captureDir)) {
      return new Captured(out);
    }
    try (Stream<Path> apps = Files.list(captureDir)) {
      for (Path app : apps.filter(Files::isDirectory).toList()) {
        for (StageCapture s : CaptureFiles.readStages(app)) {
          if (ofReduceStage(s.firstDemandMs(), run)) {
            out.add(s);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the capture in " + captureDir, e);
    }
    return new Captured(out);
  }

  /**
   * Slack before the reduce stage's submission within which a first demand still counts as the
   * stage's, ms: both times are the driver's clock, the submission time is Spark's stage info's.
   */
  static final long SLACK_MS = 500;

  /**
   * @param firstDemandMs a stage capture's first demand registration, epoch ms (driver clock)
   * @param run a measured run
   * @return true when the demand was registered inside the run's reduce stage (from {@link
   *     #SLACK_MS} before its submission to its end). A wider window takes in the next or the
   *     previous run's reduce stage of the same application, whose map stage can take less than a
   *     second.
   */
  static boolean ofReduceStage(long firstDemandMs, RunResult run) {
    return firstDemandMs >= run.reduceStageStartMs() - SLACK_MS
        && firstDemandMs <= run.reduceStageEndMs();
  }

  /**
   * @return the granted steps of the stage, in step order
   */
  public List<StepCapture> steps() {
    List<StepCapture> l = new ArrayList<>();
    stages.forEach(s -> l.addAll(s.steps()));
    l.sort((a, b) -> Long.compare(a.stepId(), b.stepId()));
    return l;
  }

  /**
   * @return realised flows of the stage
   */
  public List<FlowCapture> flows() {
    List<FlowCapture> l = new ArrayList<>();
    stages.forEach(s -> l.addAll(s.flows()));
    return l;
  }

  /**
   * @return most cross-cluster flows holding their ports at once among the gated flows (step id
   *     &gt; 0), the step contract's count ({@link FlowOverlap#of})
   */
  public FlowOverlap gatedOverlap() {
    return FlowOverlap.of(flows().stream().filter(f -> f.stepId() > 0).toList());
  }

  /**
   * @return the application's k (0 without captures)
   */
  public int k() {
    return stages.isEmpty() ? 0 : stages.get(0).k();
  }

  /**
   * @return the scheduler named by the capture, or null
   */
  public String algorithm() {
    return stages.isEmpty() ? null : stages.get(0).algorithm();
  }

  /**
   * @return the first plan's cost, s (0 without plans)
   */
  public double firstPlanCostSeconds() {
    for (StageCapture s : stages) {
      if (!s.plans().isEmpty()) {
        return s.plans().get(0).costSeconds();
      }
    }
    return 0;
  }

  /**
   * @return the first plan's β, s (0 without plans)
   */
  public double betaSeconds() {
    for (StageCapture s : stages) {
      if (!s.plans().isEmpty()) {
        return s.plans().get(0).betaSeconds();
      }
    }
    return 0;
  }
}
