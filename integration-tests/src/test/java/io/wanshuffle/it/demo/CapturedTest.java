package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.job.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapturedTest {
  /** A run whose reduce stage was submitted at 10 s and ended at 15 s (epoch ms). */
  private static final RunResult RUN =
      new RunResult(
          List.of(),
          9_000,
          9_800,
          10_000,
          15_000,
          6,
          0,
          0,
          0,
          0,
          List.of(),
          List.of(),
          new long[0][0],
          null,
          null,
          List.of(),
          0);

  @Test
  void onlyDemandsRegisteredInsideTheReduceStageAreItsStages() {
    assertTrue(Captured.ofReduceStage(10_050, RUN), "the stage's first wave");
    assertTrue(Captured.ofReduceStage(14_999, RUN), "a retried attempt late in the stage");
    assertTrue(Captured.ofReduceStage(10_000 - Captured.SLACK_MS, RUN), "within the slack");
    // the next run of the same application: its map stage took 0.8 s after this stage's end
    assertFalse(Captured.ofReduceStage(15_800, RUN), "the next run's reduce stage");
    // the previous run's reduce stage ended just before this run's 0.8 s map stage began
    assertFalse(Captured.ofReduceStage(8_400, RUN), "the previous run's reduce stage");
  }
}
