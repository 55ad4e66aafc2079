package io.wanshuffle.spark.reader;

import static io.wanshuffle.spark.reader.ReaderFixtures.blocks;
import static io.wanshuffle.spark.reader.ReaderFixtures.grant;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.reader.ReaderFixtures.RecordingOpener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Taking a grant's blocks: within what the fetcher requests at once, or in paced chunks. */
class StepTakerTest {
  private final OpenerGate gate = new OpenerGate();
  private final RecordingOpener fetch = new RecordingOpener(200);

  private StepTaker taker(CrossClusterBlocks b, RecordingOpener opener, long rateCap) {
    StepRun.Env env = new StepRun.Env(opener, b, b.hosts(), null, gate, null, null, null, false, 0);
    return new StepTaker(env, rateCap);
  }

  private static final StepRun.Answers NONE = (r, call, reply, idle) -> {};

  @Test
  void anUnpacedStepTakesEachHostsShareOfTheInFlightLimitInOneChunk() {
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50, "a2", 60, "a2", 40);
    StepRun s = taker(b, fetch, 0).take(grant(1, "a1", 150, "a2", 100), NONE);
    // 200 B in flight: a1's share 120 B (100 taken, 50 more would pass it), a2's 80 B (60 taken)
    assertEquals(1, s.chunks());
    assertEquals(160, s.takenBytes());
    assertArrayEquals(new long[] {100, 60}, s.fetched());
    assertArrayEquals(new long[] {50, 40}, b.remainingBytes());
    assertFalse(s.paced());
    assertEquals(1, gate.heldSteps(), "held until the task has read it");
    assertEquals(160, gate.heldBytes());
    assertTrue(s.openNextChunk());
    assertEquals(List.of("a1 a2"), fetch.opened, "one fetch, through openStep");
    assertEquals(1, fetch.arrivals.size());
  }

  @Test
  void theFirstBlockIsTakenEvenWhenItAloneExceedsTheLimit() {
    CrossClusterBlocks b = blocks("b1", "a1", 500, "a1", 10);
    StepRun s = taker(b, fetch, 0).take(grant(1, "a1", 510), NONE);
    assertEquals(500, s.takenBytes());
    assertArrayEquals(new long[] {10}, b.remainingBytes());
  }

  @Test
  void withoutALimitTheBudgetDecidesAtBlockGranularity() {
    CrossClusterBlocks b = blocks("b1", "a1", 40, "a1", 40, "a1", 40);
    StepRun s = taker(b, new RecordingOpener(), 0).take(grant(1, "a1", 60), NONE);
    assertEquals(80, s.takenBytes(), "blocks while less than the budget is taken");
  }

  @Test
  void aPacedStepTakesChunksOfTwoHundredMillisecondsAtTheCap() {
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 100, "a1", 100);
    StepRun s = taker(b, fetch, 1000).take(grant(1, "a1", 300), NONE);
    assertTrue(s.paced());
    assertEquals(2, s.chunks(), "200 B at 1000 B/s, then the rest");
    assertEquals(300, s.takenBytes());
    assertTrue(b.isEmpty());
    assertTrue(s.openNextChunk());
    assertEquals(List.of("a1 a1"), fetch.opened, "a chunk at a time, not through openStep");
    assertTrue(fetch.arrivals.isEmpty());
  }

  @Test
  void aPacedStepsUnopenedChunksGoBack() {
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 100, "a1", 100);
    StepRun s = taker(b, fetch, 1000).take(grant(1, "a1", 300), NONE);
    assertTrue(s.openNextChunk());
    assertArrayEquals(new long[] {100}, s.giveBackUnopened());
    assertArrayEquals(new long[] {200}, s.fetched());
    assertEquals(1, s.chunks());
    assertArrayEquals(new long[] {100}, b.remainingBytes());
    assertFalse(s.openNextChunk());
  }

  @Test
  void nothingLeftToTakeGivesAnEmptyStepThatIsNotHeld() {
    CrossClusterBlocks b = blocks("b1", "a1", 100);
    b.takeAll(new java.util.ArrayList<>());
    StepRun s = taker(b, fetch, 0).take(grant(1, "a1", 100), NONE);
    assertTrue(s.isEmpty());
    assertEquals(0, gate.heldSteps());
    assertFalse(s.openNextChunk());
  }
}
