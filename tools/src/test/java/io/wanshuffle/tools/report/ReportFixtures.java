package io.wanshuffle.tools.report;

import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.LinkChange;
import io.wanshuffle.spark.capture.LinkLoads;
import io.wanshuffle.spark.capture.PlanCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import io.wanshuffle.spark.capture.WanShuffleLinkChanged;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.JsonProtocol;

/** Captures and event logs of a small two-site application, for the report's tests. */
final class ReportFixtures {
  static final LinkModel LINKS =
      LinkModel.kpbs(2, h -> 1, h -> h.startsWith("10.0.1.") ? "A" : "B", 1_000_000);

  private ReportFixtures() {}

  /**
   * Stage {@code id}.0 of {@code app}: 10.0.1.1, 10.0.1.2 (site A) send to 10.0.2.1, 10.0.2.2 (site
   * B) in two steps of one plan, with flows; with the link model's links when {@code links}.
   */
  static StageCapture stage(String app, int id, boolean links) {
    List<String> hosts = List.of("10.0.1.1", "10.0.1.2", "10.0.2.1", "10.0.2.2");
    long[][] m = {
      {0, 0, 3_000_000, 1_000_000}, {0, 0, 2_000_000, 2_000_000}, {0, 0, 0, 0}, {0, 0, 0, 0}
    };
    long t = 1_700_000_000_000L + id * 100_000L;
    PlanCapture plan =
        new PlanCapture(
            id,
            t,
            "auto",
            List.of("10.0.1.1", "10.0.1.2"),
            List.of("10.0.2.1", "10.0.2.2"),
            ResidualBytes.ofDense(new long[][] {{3_000_000, 1_000_000}, {2_000_000, 2_000_000}}),
            1_000_000,
            2,
            0.05,
            List.of(
                new PlanCapture.PlannedStep(
                    3.0, new int[] {0, 1}, new int[] {0, 1}, new double[] {3.0, 2.0}),
                new PlanCapture.PlannedStep(
                    2.0, new int[] {0, 1}, new int[] {1, 0}, new double[] {1.0, 2.0})),
            5000);
    List<StepCapture> steps =
        List.of(
            new StepCapture(
                10L * id + 1,
                id,
                List.of(
                    new StepCapture.Grant("10.0.1.1", "10.0.2.1", 3_000_000),
                    new StepCapture.Grant("10.0.1.2", "10.0.2.2", 2_000_000)),
                t + 100,
                t + 9000,
                t + 3400,
                false,
                5_000_000),
            new StepCapture(
                10L * id + 2,
                id,
                List.of(
                    new StepCapture.Grant("10.0.1.1", "10.0.2.2", 1_000_000),
                    new StepCapture.Grant("10.0.1.2", "10.0.2.1", 2_000_000)),
                t + 3400,
                t + 9000,
                t + 5600,
                false,
                3_000_000));
    List<FlowCapture> flows =
        List.of(
            new FlowCapture(
                10L * id + 1,
                id,
                0,
                0,
                1,
                "10.0.1.1",
                "10.0.2.1",
                3_000_000,
                t + 120,
                t + 3300,
                t + 3300),
            new FlowCapture(
                10L * id + 1,
                id,
                0,
                0,
                2,
                "10.0.1.2",
                "10.0.2.2",
                2_000_000,
                t + 130,
                t + 2400,
                t + 2400),
            new FlowCapture(
                10L * id + 2,
                id,
                0,
                0,
                2,
                "10.0.1.1",
                "10.0.2.2",
                1_000_000,
                t + 3420,
                t + 4500,
                t + 4500),
            new FlowCapture(
                10L * id + 2,
                id,
                0,
                0,
                1,
                "10.0.1.2",
                "10.0.2.1",
                2_000_000,
                t + 3410,
                t + 5500,
                t + 5500));
    StageCapture c =
        new StageCapture(
            app,
            id,
            0,
            new int[] {id - 1},
            "auto",
            2,
            1_000_000,
            2_000_000,
            hosts,
            m,
            m,
            t,
            t + 6000,
            List.of(plan),
            steps,
            flows,
            0,
            List.of(),
            List.of(),
            List.of(),
            null);
    return links ? c.withLinks(0.05, LinkLoads.of(LINKS, c)) : c;
  }

  /** Writes {@code stages} into {@code <dir>/<app>/} as the capture does. */
  static Path captureDir(Path dir, String app, StageCapture... stages) throws IOException {
    Path a = Files.createDirectories(dir.resolve(app));
    for (StageCapture s : stages) {
      CaptureFiles.writeStage(
          a.resolve("stage-" + s.stageId() + "." + s.stageAttempt() + ".kryo"), s);
    }
    return a;
  }

  /**
   * The changes of stage 3's time (it starts at {@code 1_700_000_300_000}): another application
   * takes half of backbone.out[/A] 1 s into the stage, the window grows to 3 a second later, and
   * the other application leaves at 4 s.
   */
  static List<LinkChange> linkChanges() {
    long t = 1_700_000_300_000L;
    return List.of(
        new LinkChange(t + 1000, "backbone.out[/A]", LinkChange.Kind.SHARE, 2, 1, 2, 1),
        new LinkChange(t + 2000, "backbone.out[/A]", LinkChange.Kind.WINDOW, 3, 1, 2, 1),
        new LinkChange(t + 4000, "backbone.out[/A]", LinkChange.Kind.SHARE, 3, 3, 2, 0));
  }

  /**
   * Writes {@code <app>/link-windows.csv} as the capture does (the documented columns).
   *
   * @return the file
   */
  static Path linkLog(Path app, List<LinkChange> changes) throws IOException {
    StringBuilder sb = new StringBuilder(CaptureFiles.LINK_LOG_HEADER).append('\n');
    for (LinkChange c : changes) {
      sb.append(
          String.join(
                  ",",
                  Long.toString(c.timeMs()),
                  c.link(),
                  c.kind().csv(),
                  Integer.toString(c.window()),
                  Integer.toString(c.share()),
                  Integer.toString(c.capacity()),
                  Integer.toString(c.otherApplications()))
              + "\n");
    }
    return Files.writeString(app.resolve(CaptureFiles.LINK_LOG), sb.toString());
  }

  /** The event-log lines of {@code changes} as the capture posts them. */
  static List<String> linkEvents(String app, List<LinkChange> changes) {
    return changes.stream()
        .map(c -> JsonProtocol.sparkEventToJsonString(new WanShuffleLinkChanged(app, c)))
        .toList();
  }

  /**
   * Rewrites a capture file as format version 2: without the β, host paths, links and series that
   * version 3 appends, and with its plans' residuals as dense matrices.
   */
  static void downgradeToVersion2(Path kryo) throws IOException {
    CaptureFiles.writeStage(kryo, CaptureFiles.readStage(kryo), 2);
  }

  static WanShuffleStageCaptured event(StageCapture c) {
    return new WanShuffleStageCaptured(
        c.appId(),
        c.stageId(),
        c.stageAttempt(),
        c.shuffleIds(),
        c.algorithm(),
        c.k(),
        c.hosts(),
        c.registeredBytes(),
        c.realisedBytes(),
        c.steps().stream().mapToLong(StepCapture::stepId).toArray(),
        new long[] {c.plans().get(0).planId()},
        c.firstDemandMs(),
        c.endMs(),
        null,
        c.bytesPerSecond(),
        c.backboneBytesPerSecond(),
        c.betaSeconds(),
        c.hostPaths(),
        c.links(),
        c.linkSeries(),
        c.plans().get(0),
        null);
  }

  /**
   * The events the plugin's capture posts for a gated stage of {@code app}: each step's, then the
   * stage's.
   */
  static List<SparkListenerEvent> events(String app, StageCapture s) {
    List<SparkListenerEvent> out = new ArrayList<>();
    for (StepCapture st : s.steps()) {
      out.add(
          new WanShuffleStepCompleted(
              app,
              st.stepId(),
              st.planId(),
              st.flows(),
              st.grantedAtMs(),
              st.deadlineMs(),
              st.endMs(),
              st.deadlinePassed(),
              st.realisedBytes(),
              0.5));
    }
    out.add(event(s));
    return out;
  }

  /** The event-log lines of an application with the given stages (each step's event first). */
  static List<String> eventLog(String app, StageCapture... stages) {
    List<String> lines = new ArrayList<>();
    lines.add("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.1.3\"}");
    lines.add(
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"sort\",\"App ID\":\""
            + app
            + "\",\"Timestamp\":1,\"User\":\"u\"}");
    for (StageCapture s : stages) {
      for (SparkListenerEvent e : events(app, s)) {
        lines.add(JsonProtocol.sparkEventToJsonString(e));
      }
    }
    lines.add("{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2}");
    return lines;
  }
}
