package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HandoverPredictorTest {
  @Test
  void reportsOnArrivalUntilBothTheRateAndTheCoordinatorRoundTripAreMeasured() {
    HandoverPredictor p = new HandoverPredictor();
    assertEquals(-1, p.reportDelayMs(1_000_000));
    p.flowObserved(1_000_000, 100);
    assertEquals(-1, p.reportDelayMs(1_000_000), "no coordinator round trip yet");
    HandoverPredictor q = new HandoverPredictor();
    q.coordinatorRoundTrip(40);
    assertEquals(-1, q.reportDelayMs(1_000_000), "no rate yet");
  }

  /**
   * The report is due one coordinator round trip before the flow's bytes would have crossed at
   * the measured rate (the fetch latency cancels out), never before the requests went out.
   */
  @Test
  void reportDelayIsTransferTimeLessOneCoordinatorRoundTrip() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(10_000_000, 1_000); // 10 MB/s
    p.coordinatorRoundTrip(60);
    p.coordinatorRoundTrip(40);
    p.coordinatorRoundTrip(90);
    assertEquals(800 - 40, p.reportDelayMs(8_000_000), "smallest round trip");
    assertEquals(0, p.reportDelayMs(100_000), "a flow shorter than the round trip: at once");
  }

  @Test
  void rateIsWeightedTowardsRecentFlowsAndIgnoresTooShortSpans() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(1_000_000, 1_000); // 1 MB/s
    p.flowObserved(2_000_000, 1_000); // 2 MB/s
    assertEquals(0.25 * 2e6 + 0.75 * 1e6, p.bytesPerSecond(), 1e-6);
    p.flowObserved(5_000_000, HandoverPredictor.MIN_SPAN_MS - 1);
    p.flowObserved(0, 1_000);
    assertEquals(1.25e6, p.bytesPerSecond(), 1e-6, "no sample from a too-short span or no bytes");
  }

  @Test
  void roundTripIsTheSmallestOfTheRecentSamples() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(1_000_000, 1_000);
    p.coordinatorRoundTrip(5);
    for (int i = 0; i < HandoverPredictor.RTT_SAMPLES; i++) {
      p.coordinatorRoundTrip(50);
    }
    assertEquals(1_000 - 50, p.reportDelayMs(1_000_000), "the 5 ms sample aged out");
    p.coordinatorRoundTrip(-3);
    assertEquals(1_000 - 50, p.reportDelayMs(1_000_000), "negative samples are ignored");
  }
}
