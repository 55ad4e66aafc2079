package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.it.experiment.Submitted;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One run's figures from the plugin's capture. */
class AppFiguresTest {
  @TempDir Path dir;

  /**
   * A captured stage of {@code app} with steps 1..steps, one a1 -> b1 flow each, one after the
   * other.
   */
  private static StageCapture stage(String app, int steps) {
    List<StepCapture> ss = new ArrayList<>();
    List<FlowCapture> fs = new ArrayList<>();
    for (int s = 1; s <= steps; s++) {
      ss.add(
          new StepCapture(
              s,
              s,
              List.of(new StepCapture.Grant("a1", "b1", 100)),
              1000L * s,
              1000L * s + 5000,
              1000L * s + 900,
              false,
              100));
      fs.add(
          new FlowCapture(
              s, 3, 0, 1, 40 + s, "a1", "b1", 100, 1000L * s, 1000L * s + 800, 1000L * s + 800));
    }
    return new StageCapture(
        app,
        3,
        0,
        new int[] {0},
        "oggp",
        2,
        100,
        200,
        List.of("a1", "b1"),
        new long[][] {{0, 100L * steps}, {0, 0}},
        new long[][] {{0, 100L * steps}, {0, 0}},
        900,
        1000L * steps + 900,
        List.of(),
        ss,
        fs,
        0,
        List.of(),
        List.of(),
        List.of(),
        null);
  }

  /**
   * A driver that runs several SparkContexts one after another leaves one capture folder per
   * application, each numbering its steps from 1: the run's steps are the sum, not the distinct
   * step ids of all of them.
   */
  @Test
  void stepsOfSeveralApplicationsInOneRunAreSummed() throws IOException {
    Path capture = dir.resolve("capture");
    for (String app : List.of("app-20261122221721-0000", "app-20261122221750-0001")) {
      Path appDir = Files.createDirectories(CaptureFiles.appDir(capture, app));
      CaptureFiles.writeStage(
          appDir.resolve("stage-3.0.kryo"), stage(app, app.endsWith("0") ? 2 : 3));
    }
    Path stdout = Files.writeString(dir.resolve("stdout.txt"), "42\n");
    Submitted s =
        new Submitted(
            "auto-1",
            null,
            0,
            10_000,
            stdout,
            dir.resolve("driver.log"),
            null,
            capture,
            null,
            null,
            null);
    AppFigures f = AppFigures.of("auto", 1, s, Set.of("a1"));
    assertEquals(5, f.steps(), "2 + 3 steps");
    assertEquals(2, f.k());
    assertEquals(1, f.gatedAtOnceAToB(), "one flow at a time");
    assertEquals(0, f.gatedAtOnceBToA());
  }
}
