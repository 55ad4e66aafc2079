package io.wanshuffle.it.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A cell's runs of applications started together, one group per run. */
class RunGroupTest {
  private static List<Path> noCaptures(int runs) {
    return Arrays.asList(new Path[runs]);
  }

  /**
   * Each run's group holds that run's reduce stages; the last end runs from the first reduce
   * stage's start among the applications (the second one reached its reduce stage 4 s later).
   */
  @Test
  void oneGroupPerRunWithItsStagesAndWhenTheLastEnded() {
    List<List<RunGroup.Stage>> stages =
        List.of(
            List.of(new RunGroup.Stage(0, 11_000), new RunGroup.Stage(100_000, 121_000)),
            List.of(new RunGroup.Stage(4_000, 25_000), new RunGroup.Stage(100_500, 111_500)));
    List<RunGroup> g =
        RunGroup.ofRuns("c", "zookeeper", stages, List.of(noCaptures(2), noCaptures(2)), null, 1.0);
    assertEquals(2, g.size());
    assertEquals("c run 1", g.get(0).what());
    assertEquals("c", g.get(0).cell());
    assertEquals(List.of(11.0, 21.0), g.get(0).seconds());
    assertEquals(21.0, g.get(0).slowest());
    assertEquals(25.0, g.get(0).lastEnded(), "the second ended 25 s after the first began");
    assertEquals(32.0, g.get(0).sum());
    assertEquals(List.of(21.0, 11.0), g.get(1).seconds());
    assertEquals(21.0, g.get(1).lastEnded());
    assertNull(g.get(0).peak(), "no capture, no flows");
  }

  /** An application measured as one application of several runs gives its median, no last end. */
  @Test
  void anApplicationOfSeveralRunsGivesItsMedian() {
    List<List<RunGroup.Stage>> stages =
        List.of(
            List.of(
                new RunGroup.Stage(0, 10_000),
                new RunGroup.Stage(20_000, 32_000),
                new RunGroup.Stage(40_000, 51_000)),
            List.of(
                new RunGroup.Stage(0, 20_000),
                new RunGroup.Stage(30_000, 50_000),
                new RunGroup.Stage(60_000, 82_000)));
    List<RunGroup> g =
        RunGroup.ofRuns("c", null, stages, List.of(noCaptures(1), noCaptures(1)), null, null);
    assertEquals(1, g.size());
    assertEquals(List.of(11.0, 20.0), g.get(0).seconds());
    assertNull(g.get(0).lastEnd());
    assertEquals(20.0, g.get(0).lastEnded(), "the slowest stands for it");
  }
}
