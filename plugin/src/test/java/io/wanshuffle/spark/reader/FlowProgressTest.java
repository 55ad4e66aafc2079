package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When a step's flows count as quiet: requests in flight whose bytes stopped advancing. */
class FlowProgressTest {
  @Test
  void quietTimeRunsFromTheFirstRequestInFlightOrTheLastBytes() {
    FlowProgress p = new FlowProgress();
    assertEquals(0, p.quietMs(5_000), "nothing requested");
    p.requested(2, 1_000);
    p.requested(1, 3_000); // a later request while the first are in flight: not progress
    assertEquals(4_000, p.quietMs(5_000));
    p.advanced(4_500);
    assertEquals(500, p.quietMs(5_000));
    p.advanced(4_000); // a late-read clock never moves the mark back
    assertEquals(500, p.quietMs(5_000));
    p.settled(5_000);
    p.settled(5_000);
    assertEquals(1_000, p.quietMs(6_000), "one block still in flight");
    p.settled(6_000);
    assertEquals(0, p.quietMs(60_000), "every request settled");
    p.requested(1, 70_000);
    assertEquals(1_000, p.quietMs(71_000), "a new request restarts the count");
    assertEquals(3_500, p.longestQuietMs(71_000), "the longest gap: 1 s to 4.5 s");
    assertEquals(5_000, p.longestQuietMs(75_000), "the current gap once longer");
  }
}
