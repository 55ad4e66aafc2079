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
  }
}
