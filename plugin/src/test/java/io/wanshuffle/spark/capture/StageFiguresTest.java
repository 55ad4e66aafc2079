package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class StageFiguresTest {
  @Test
  void figuresOfTheSampleStage() {
    StageCapture c = CaptureFilesTest.sample();
    StageFigures f = StageFigures.of(c);
    assertEquals("7.0", f.label());
    assertEquals(2, f.senders());
    assertEquals(1, f.receivers());
    assertEquals(2, f.pairs());
    assertEquals(1000, f.registeredBytes());
    assertEquals(700, f.largestPairBytes());
    assertEquals(1, f.steps());
    assertEquals(0, f.stepsClosedByDeadline());
    assertEquals(2, f.mostFlowsInAStep());
    // the first plan: one step of 7 s plus β = 0.05 s over 1000 residual bytes
    assertEquals(7.05, f.predictedSeconds(), 1e-12);
    assertEquals(1000, f.plannedBytes());
    assertEquals(0.05, f.betaSeconds(), 1e-12);
    // granted at 1001, ended at 1500
    assertEquals(0.499, f.measuredSeconds(), 1e-12);
    assertEquals(1001, f.transferStartMs());
    assertTrue(Double.isNaN(f.lowerBoundSeconds()), "no links: no lower bound");
    assertEquals("", f.bottleneckLink());
  }

  @Test
  void withLinksTheLowerBoundIsTheBottleneckLinks() {
    StageCapture c = CaptureFilesTest.sample();
    LinkModel m = LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 100);
    StageFigures f = StageFigures.of(c.withLinks(0.2, LinkLoads.of(m, c)));
    // b1 receives 1000 bytes at one flow of 100 B/s
    assertEquals("nic.down[b1]", f.bottleneckLink());
    assertEquals(10.0, f.lowerBoundSeconds(), 1e-12);
    assertEquals(0.2, f.betaSeconds(), 1e-12);
  }

  @Test
  void aStageWithoutStepsOrPlansHasNoPredictionNorMeasurement() {
    StageCapture c = CaptureFilesTest.sample();
    StageCapture bare =
        new StageCapture(
            c.appId(),
            c.stageId(),
            c.stageAttempt(),
            c.shuffleIds(),
            "none",
            c.k(),
            c.bytesPerSecond(),
            c.backboneBytesPerSecond(),
            c.hosts(),
            c.registeredBytes(),
            c.realisedBytes(),
            c.firstDemandMs(),
            c.endMs(),
            List.of(),
            List.of(),
            c.flows(),
            0,
            List.of(),
            List.of(),
            List.of(),
            null);
    StageFigures f = StageFigures.of(bare);
    assertTrue(Double.isNaN(f.predictedSeconds()));
    assertTrue(Double.isNaN(f.measuredSeconds()));
    assertTrue(Double.isNaN(f.measuredOverPredicted()));
    assertEquals(0, f.steps());
    assertEquals(0, f.transferStartMs());
  }
}
