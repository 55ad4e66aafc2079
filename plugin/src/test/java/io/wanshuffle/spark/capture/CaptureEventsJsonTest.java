package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.JsonProtocol;
import org.junit.jupiter.api.Test;

/** The events survive Spark's event-log JSON (what the History Server replays). */
class CaptureEventsJsonTest {
  @Test
  void stepCompletedRoundTripsThroughSparksJsonProtocol() {
    WanShuffleStepCompleted e =
        new WanShuffleStepCompleted(
            "app-1",
            4,
            2,
            List.of(new StepCapture.Grant("127.0.1.1", "127.0.2.1", 1000)),
            10,
            20,
            30,
            false,
            990,
            0.42);
    String json = JsonProtocol.sparkEventToJsonString(e);
    assertTrue(
        json.contains("\"Event\":\"" + WanShuffleStepCompleted.class.getName() + "\""), json);
    SparkListenerEvent back = JsonProtocol.sparkEventFromJson(json);
    assertEquals(e, back);
  }

  @Test
  void linkChangedRoundTripsThroughSparksJsonProtocol() {
    WanShuffleLinkChanged e =
        new WanShuffleLinkChanged(
            "app-1", new LinkChange(1234, "backbone.out[/A]", LinkChange.Kind.SHARE, 3, 1, 2, 2));
    String json = JsonProtocol.sparkEventToJsonString(e);
    assertTrue(json.contains("\"Event\":\"" + WanShuffleLinkChanged.class.getName() + "\""), json);
    assertEquals(e, JsonProtocol.sparkEventFromJson(json));
  }

  @Test
  void stageCapturedRoundTripsThroughSparksJsonProtocol() {
    WanShuffleStageCaptured e =
        new WanShuffleStageCaptured(
            "app-1",
            3,
            1,
            new int[] {0, 1},
            "oggp",
            2,
            List.of("a", "b"),
            new long[][] {{0, 5}, {0, 0}},
            new long[][] {{0, 4}, {0, 0}},
            new long[] {1, 2},
            new long[] {1},
            100,
            200,
            null,
            0,
            0,
            0,
            null,
            null,
            null,
            null,
            null);
    WanShuffleStageCaptured back =
        (WanShuffleStageCaptured)
            JsonProtocol.sparkEventFromJson(JsonProtocol.sparkEventToJsonString(e));
    assertEquals(e.hosts(), back.hosts());
    assertArrayEquals(e.registeredBytes(), back.registeredBytes());
    assertArrayEquals(e.realisedBytes(), back.realisedBytes());
    assertArrayEquals(e.stepIds(), back.stepIds());
    assertArrayEquals(e.shuffleIds(), back.shuffleIds());
    assertEquals(e.algorithm(), back.algorithm());
    assertEquals(e.endMs(), back.endMs());
    assertTrue(!back.hasLinks(), "the short constructor has no links");
  }

  @Test
  void stageCapturedWithLinksAndPlanRoundTrips() {
    StageCapture c = CaptureFilesTest.sample();
    c =
        c.withLinks(
            0.05,
            LinkLoads.of(
                io.wanshuffle.spark.topology.LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 100),
                c));
    WanShuffleStageCaptured e =
        new WanShuffleStageCaptured(
            c.appId(),
            c.stageId(),
            c.stageAttempt(),
            c.shuffleIds(),
            c.algorithm(),
            c.k(),
            c.hosts(),
            c.registeredBytes(),
            c.realisedBytes(),
            new long[] {5},
            new long[] {3},
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
    WanShuffleStageCaptured back =
        (WanShuffleStageCaptured)
            JsonProtocol.sparkEventFromJson(JsonProtocol.sparkEventToJsonString(e));
    assertTrue(back.hasLinks());
    assertEquals(c.links(), back.links());
    assertEquals(c.linkSeries(), back.linkSeries());
    assertEquals(c.hostPaths(), back.hostPaths());
    assertEquals(0.05, back.betaSeconds(), 0);
    assertEquals(7.05, back.firstPlan().costSeconds(), 1e-12);
    assertEquals(c.plans().get(0).residualBytes(), back.firstPlan().residualBytes());
    StageCapture again =
        back.toCapture(java.util.Map.of(5L, c.steps().get(0), 9L, c.steps().get(0)));
    assertEquals(c.steps(), again.steps());
    assertEquals(List.of(), again.flows());
    assertEquals(StageFigures.of(c).predictedSeconds(), StageFigures.of(again).predictedSeconds());
    assertEquals(
        StageFigures.of(c).lowerBoundSeconds(), StageFigures.of(again).lowerBoundSeconds());
  }

  @Test
  void networkFiguresRoundTripWithUnknownValues() {
    StageCapture c = CaptureFilesTest.sample();
    NetworkFigures n =
        new NetworkFigures(
            Double.NaN,
            java.util.Map.of("nic.up[a1]", 1.5e6),
            3,
            2.5,
            Double.NaN,
            2.75,
            "gated",
            2,
            12_500_000,
            Double.NaN);
    WanShuffleStageCaptured e =
        new WanShuffleStageCaptured(
            c.appId(),
            c.stageId(),
            c.stageAttempt(),
            c.shuffleIds(),
            c.algorithm(),
            c.k(),
            c.hosts(),
            c.registeredBytes(),
            c.realisedBytes(),
            new long[] {5},
            new long[] {3},
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
            n);
    WanShuffleStageCaptured back =
        (WanShuffleStageCaptured)
            JsonProtocol.sparkEventFromJson(JsonProtocol.sparkEventToJsonString(e));
    assertEquals(n, back.network());
    assertEquals(n, back.toCapture(java.util.Map.of()).network());
  }

  @Test
  void anOlderStageEventWithoutTheLinkFieldsStillReads() {
    String json =
        "{\"Event\":\""
            + WanShuffleStageCaptured.class.getName()
            + "\",\"appId\":\"app-1\",\"stageId\":3,\"stageAttempt\":0,\"shuffleIds\":[0],"
            + "\"algorithm\":\"auto\",\"k\":2,\"hosts\":[\"a\",\"b\"],"
            + "\"registeredBytes\":[[0,5],[0,0]],\"realisedBytes\":[[0,5],[0,0]],"
            + "\"stepIds\":[1],\"planIds\":[1],\"firstDemandMs\":10,\"endMs\":20,"
            + "\"captureFile\":null}";
    WanShuffleStageCaptured back = (WanShuffleStageCaptured) JsonProtocol.sparkEventFromJson(json);
    assertTrue(!back.hasLinks());
    assertEquals(null, back.firstPlan());
    StageCapture c = back.toCapture(java.util.Map.of());
    assertEquals(NetworkFigures.NONE, c.network());
    assertEquals(5, c.totalRegisteredBytes());
    assertEquals(List.of(), c.steps());
  }

  @Test
  void capturedEventsJoinStepsToTheirStages() {
    CapturedEvents ev = new CapturedEvents();
    ev.add(
        new WanShuffleStepCompleted(
            "app-1", 4, 2, List.of(new StepCapture.Grant("a", "b", 5)), 10, 20, 30, true, 5, 0.1));
    ev.add(
        new WanShuffleStageCaptured(
            "app-1",
            3,
            0,
            new int[] {0},
            "auto",
            2,
            List.of("a", "b"),
            new long[][] {{0, 5}, {0, 0}},
            new long[][] {{0, 5}, {0, 0}},
            new long[] {4, 99},
            new long[] {2},
            5,
            40,
            null,
            0,
            0,
            0,
            null,
            null,
            null,
            null,
            null));
    assertEquals(1, ev.stageCount());
    assertTrue(ev.anyWithoutLinks());
    StageCapture s = ev.stages().get(0);
    assertEquals(List.of(4L), s.steps().stream().map(StepCapture::stepId).toList());
    assertTrue(s.steps().get(0).deadlinePassed());
    assertEquals(0.02, StageFigures.of(s).measuredSeconds(), 1e-12);
  }
}
