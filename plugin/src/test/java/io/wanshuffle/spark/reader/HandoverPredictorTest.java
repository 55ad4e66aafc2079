package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HandoverPredictorTest {
  /**
   * A predictor that measured 10 MB/s and the given coordinator round trips (ms), with a completed
   * flow from host "a".
   */
  private static HandoverPredictor tenMegabytesPerSecond(long... roundTripsMs) {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(10_000_000, 1_000);
    p.flowCompleted("a");
    for (long ms : roundTripsMs) {
      p.coordinatorRoundTrip(ms);
    }
    return p;
  }

  @Test
  void noPredictionUntilBothTheRateAndTheCoordinatorRoundTripAreMeasured() {
    HandoverPredictor p = new HandoverPredictor();
    assertEquals(-1, p.handOverAt(0, 100, 1_000, 1_000_000));
    p.flowCompleted("a");
    assertEquals(-1, p.handOverAt("a", 0, 1_000_000));
    p.flowObserved(1_000_000, 100);
    assertEquals(-1, p.handOverAt(0, 100, 1_000, 1_000_000), "no coordinator round trip yet");
    HandoverPredictor q = new HandoverPredictor();
    q.coordinatorRoundTrip(40);
    assertEquals(-1, q.handOverAt(0, 100, 1_000, 1_000_000), "no rate yet");
  }

  /**
   * Hand-over at first block + bytes left / rate - coordinator round trip - fetch latency: the next
   * flow's first byte meets this flow's last one.
   */
  @Test
  void handOverIsTheFlowsEndLessOneCoordinatorRoundTripAndOneFetchLatency() {
    HandoverPredictor p = tenMegabytesPerSecond(60, 40);
    // first block 1 MB arrived 180 ms after the request: 100 ms transfer + 80 ms latency
    p.fetchLatencyObserved(180, 1_000_000, 0);
    p.fetchLatencyObserved(250, 1_000_000, 0); // fresh connection: 150 ms, not the lower median
    // a flow requested at 1000, first 4 MB block at 1480 (80 + 400 ms), 4 MB left: ends at 1880
    assertEquals(1_880 - 40 - 80, p.handOverAt(1_000, 1_480, 4_000_000, 4_000_000));
    assertEquals(
        1_480,
        p.handOverAt(1_000, 1_480, 4_000_000, 100_000),
        "never before the first block arrived");
  }

  /** At the request: the flow's bytes at the rate, one coordinator round trip earlier. */
  @Test
  void handOverAtTheRequestIsTransferTimeLessOneCoordinatorRoundTrip() {
    HandoverPredictor p = tenMegabytesPerSecond(60, 40);
    assertEquals(1_000 + 800 - 40, p.handOverAt("a", 1_000, 8_000_000));
    assertEquals(1_000, p.handOverAt("a", 1_000, 100_000), "never before the request");
  }

  /**
   * On a δ-port platform a granted flow may share its sender's NIC: predictions assume at most the
   * rate the coordinator grants a flow (its base speed), not the executor's measured rate of flows
   * that had a NIC to themselves; a bound above the measured rate changes nothing.
   */
  @Test
  void predictionsAssumeAtMostTheGrantedFlowRate() {
    HandoverPredictor p = tenMegabytesPerSecond(60, 40);
    p.boundFlowRate(5_000_000);
    assertEquals(1_000 + 1_600 - 40, p.handOverAt("a", 1_000, 8_000_000), "8 MB at 5 MB/s");
    // first 4 MB block 500 ms after the request (8 MB/s so far): 4 MB left at 5 MB/s, not 8
    assertEquals(1_500 + 800 - 40, p.handOverAt(1_000, 1_500, 4_000_000, 4_000_000));
    p.boundFlowRate(50_000_000);
    assertEquals(1_000 + 800 - 40, p.handOverAt("a", 1_000, 8_000_000), "the measured 10 MB/s");
    p.boundFlowRate(0);
    assertEquals(1_000 + 800 - 40, p.handOverAt("a", 1_000, 8_000_000), "no bound");
  }

  /**
   * A flow sharing its connection: the bytes queued on it end at the rate from now, after one fetch
   * latency when the flow has no block yet; reported one round trip and one latency before.
   */
  @Test
  void aFlowSharingItsConnectionIsPredictedAfterTheQueuedBytes() {
    HandoverPredictor p = tenMegabytesPerSecond(40);
    for (int i = 0; i < HandoverPredictor.MIN_LATENCIES; i++) {
      p.fetchLatencyObserved(180, 1_000_000, 0); // latency 80 ms
    }
    // requested at 1000 behind 4 MB of another flow, 4 MB of its own: last byte at 1000 + 80 + 800
    assertEquals(1_880 - 40 - 80, p.handOverAfter(1_000, 8_000_000, false));
    // its first block in at 1500, 6 MB still queued: last byte at 2100
    assertEquals(2_100 - 40 - 80, p.handOverAfter(1_500, 6_000_000, true));
    assertEquals(1_500, p.handOverAfter(1_500, 10_000, true), "never before now");
    assertEquals(-1, new HandoverPredictor().handOverAfter(0, 1, true), "nothing measured");
  }

  /** A flow slower than the executor's rate so far is predicted at its own rate (later). */
  @Test
  void aSlowFlowIsPredictedAtItsOwnRate() {
    HandoverPredictor p = tenMegabytesPerSecond(40);
    for (int i = 0; i < HandoverPredictor.MIN_LATENCIES; i++) {
      p.fetchLatencyObserved(80, 0, 0);
    }
    // first 4 MB block after 80 + 800 ms: 5 MB/s, so 4 MB left take 800 ms more
    assertEquals(1_880 + 800 - 40 - 80, p.handOverAt(1_000, 1_880, 4_000_000, 4_000_000));
  }

  /**
   * {@code r} is the byte-weighted median rate of the recent samples: a short burst of a small
   * block weighs its bytes, a minority of slow flows does not move it, a lasting change does once
   * it carries half of the recent bytes, and samples older than the last {@value
   * HandoverPredictor#RATE_SAMPLES} drop out.
   */
  @Test
  void rateIsTheByteWeightedMedianOfTheRecentSamples() {
    HandoverPredictor p = new HandoverPredictor();
    assertEquals(1e6, p.flowObserved(1_000_000, 1_000), 1e-6, "the sample's own rate, 1 MB/s");
    assertEquals(1e6, p.bytesPerSecond(), 1e-6);
    p.flowObserved(3_000_000, 1_000); // 3 MB/s, three quarters of the bytes
    assertEquals(3e6, p.bytesPerSecond(), 1e-6);
    p.flowObserved(5_000_000, HandoverPredictor.MIN_SPAN_MS - 1);
    p.flowObserved(0, 1_000);
    assertEquals(3e6, p.bytesPerSecond(), 1e-6, "no sample from a too-short span or no bytes");

    HandoverPredictor q = new HandoverPredictor();
    q.flowObserved(262_144, 20); // a small block's burst: 13.1 MB/s
    q.flowObserved(262_144, 20);
    q.flowObserved(8_000_000, 800); // 10 MB/s
    assertEquals(10e6, q.bytesPerSecond(), 1e-6, "weighted by bytes: the bursts do not count");
    for (int i = 0; i < 5; i++) {
      q.flowObserved(8_000_000, 800);
    }
    q.flowObserved(8_000_000, 1_600); // a sender busy for a while: 5 MB/s
    q.flowObserved(8_000_000, 1_600);
    assertEquals(10e6, q.bytesPerSecond(), 1e-6, "two slow flows of eight do not move it");
    for (int i = 0; i < 3; i++) {
      q.flowObserved(8_000_000, 1_600);
    }
    assertEquals(5e6, q.bytesPerSecond(), 1e-6, "five of eight do: a lasting change");
    for (int i = 0; i < HandoverPredictor.RATE_SAMPLES; i++) {
      q.flowObserved(3_000_000, 1_000);
    }
    assertEquals(
        3e6,
        q.bytesPerSecond(),
        1e-6,
        "only the last " + HandoverPredictor.RATE_SAMPLES + " count");
  }

  /**
   * A flow of one block: when its transfer time dominates, a rate sample of its bytes over its time
   * less {@code L} (Spark fetches a block whole, so nothing arrives before its end); when its
   * latency does, a latency sample as before; neither while what it needs is not measured.
   */
  @Test
  void aSingleBlockFlowGivesARateSampleWhenItsTransferDominatesElseALatencySample() {
    HandoverPredictor p = new HandoverPredictor();
    p.singleBlockFlowObserved(28_000_000, 2_880);
    assertEquals(0, p.bytesPerSecond(), "no rate sample without L");
    assertEquals(0, p.fetchLatencyMs());
    p.flowObserved(4_000_000, 320); // 12.5 MB/s from a flow of small blocks
    p.fetchLatencyObserved(100, 250_000, 12_500_000); // L = 100 - 20 = 80 ms
    p.singleBlockFlowObserved(250_000, 110); // 20 ms of transfer in 110: latency-dominated, 90 ms
    assertEquals(12.5e6, p.bytesPerSecond(), 1e-6, "a latency sample, not a rate sample");
    p.singleBlockFlowObserved(250_000, 110);
    assertEquals(90, p.fetchLatencyMs(), "lower median of 80, 90, 90");
    // 28 MB arrive 2890 ms after the request: 2800 ms of transfer after L = 90 ms, 10 MB/s
    p.singleBlockFlowObserved(28_000_000, 2_890);
    assertEquals(
        10e6,
        p.bytesPerSecond(),
        1e-6,
        "4 MB at 12.5 MB/s and 28 MB at 10 MB/s: the median by bytes");
    assertEquals(90, p.fetchLatencyMs(), "no latency sample from it");
    p.coordinatorRoundTrip(40);
    p.flowCompleted("a");
    // the next 28 MB single-block flow, requested at 0, is handed on at 28 MB / r - c, about 2.7 s,
    // not the
    // 2.2 s that 12.5 MB/s would give
    assertEquals(
        (long) Math.ceil(28_000_000 * 1000.0 / p.bytesPerSecond()) - 40,
        p.handOverAt("a", 0, 28_000_000));
  }

  @Test
  void theFastestRecentHandOverLoopReplacesTheRegistrationRoundTrip() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(1_000_000, 1_000);
    p.coordinatorRoundTrip(5);
    assertEquals(
        2_000 - 5,
        p.handOverAt(0, 1_000, 0, 1_000_000),
        "no loop measured yet: the registration's");
    p.handOverLoop(300); // a reply that waited for ports
    p.handOverLoop(40);
    assertEquals(
        2_000 - 5,
        p.handOverAt(0, 1_000, 0, 1_000_000),
        "fewer than " + HandoverPredictor.MIN_LOOPS + " loops: the registration still counts");
    p.handOverLoop(25);
    p.handOverLoop(-2);
    assertEquals(
        2_000 - 25,
        p.handOverAt(0, 1_000, 0, 1_000_000),
        "report to next request, fastest of the recent");
    assertEquals(
        1_000 - 25,
        p.handOverAfter(0, 1_000_000, true),
        "connection-shared flows use the same delay");
  }

  @Test
  void roundTripIsTheSmallestOfTheRecentSamples() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(1_000_000, 1_000);
    p.coordinatorRoundTrip(5);
    for (int i = 0; i < HandoverPredictor.SAMPLES; i++) {
      p.coordinatorRoundTrip(50);
    }
    assertEquals(2_000 - 50, p.handOverAt(0, 1_000, 0, 1_000_000), "the 5 ms sample aged out");
    p.coordinatorRoundTrip(-3);
    assertEquals(2_000 - 50, p.handOverAt(0, 1_000, 0, 1_000_000), "negative samples are ignored");
  }

  /**
   * Spark announces block sizes rounded up to a power of 1.1: the estimate takes the announced
   * bytes at the ratio of the recent completed flows, so the hand-over is not late by that share.
   */
  @Test
  void announcedBytesAreTakenAtTheRatioTheRecentFlowsArrivedAt() {
    HandoverPredictor p = tenMegabytesPerSecond(40);
    assertEquals(
        7_630_400,
        p.estimatedBytes(8_000_000),
        "until a flow completed, at the mean ratio of a size rounded up to a power of 1.1: 0.9538");
    p.sizesObserved(9_000_000, 10_000_000);
    p.sizesObserved(10_000_000, 10_000_000);
    p.sizesObserved(0, 10_000_000); // no sample
    assertEquals(7_600_000, p.estimatedBytes(8_000_000), "19 of 20 MB arrived");
    // 7.6 MB at 10 MB/s from the request at 1000, one coordinator round trip earlier
    assertEquals(1_000 + 760 - 40, p.handOverAt("a", 1_000, p.estimatedBytes(8_000_000)));
    for (int i = 0; i < HandoverPredictor.SAMPLES; i++) {
      p.sizesObserved(10_000_000, 10_000_000);
    }
    assertEquals(
        8_000_000,
        p.estimatedBytes(8_000_000),
        "only the last " + HandoverPredictor.SAMPLES + " flows count");
  }

  /**
   * Predictions count {@code L} from the executor's first latency sample, as the lower median of
   * the samples, so one odd sample among several does not move it; before any sample, a cold flow's
   * own latency stands for it, else none (later, never earlier).
   */
  @Test
  void predictionsCountTheFetchLatencyFromTheFirstSample() {
    HandoverPredictor p = tenMegabytesPerSecond(40);
    // a flow requested at 1000, its first 1 MB block in at 1200, 4 MB left
    assertEquals(
        1_200 + 800 - 40,
        p.handOverAt(1_000, 1_200, 1_000_000, 4_000_000),
        "no L yet: the first block's 200 ms are all transfer, 5 MB/s");
    assertEquals(1_200 + 400 - 40, p.handOverAfter(1_200, 4_000_000, true), "nor from progress");
    assertEquals(
        1_200 + 400 - 40 - 90,
        p.handOverAtOwnRate(1_200, 4_000_000, 10_000_000, 90),
        "a cold flow's own latency stands for L before any sample");
    assertEquals(
        1_200 + 400 - 40,
        p.handOverAtOwnRate(1_200, 4_000_000, 10_000_000, -1),
        "unknown (a new connection): none");
    p.fetchLatencyObserved(100, 0, 0);
    assertEquals(100, p.fetchLatencyMs(), "the estimate");
    assertEquals(
        1_200 + 400 - 40 - 100,
        p.handOverAt(1_000, 1_200, 1_000_000, 4_000_000),
        "L = 100: 100 ms of transfer in the first block, 10 MB/s");
    assertEquals(1_200 + 400 - 40 - 100, p.handOverAfter(1_200, 4_000_000, true));
    assertEquals(
        1_200 + 400 - 40 - 100,
        p.handOverAtOwnRate(1_200, 4_000_000, 10_000_000, 90),
        "the executor's L once measured, not the flow's own");
    p.fetchLatencyObserved(280, 0, 0);
    assertEquals(
        1_200 + 400 - 40 - 100,
        p.handOverAfter(1_200, 4_000_000, true),
        "the lower median of 100 and 280");
    p.fetchLatencyObserved(90, 0, 0);
    assertEquals(
        1_200 + 400 - 40 - 100,
        p.handOverAfter(1_200, 4_000_000, true),
        "the lower median of 90, 100, 280");
  }

  /**
   * The latency sample takes the first block's transfer time at the flow's own rate when known, and
   * the estimate is the lower median of the samples: a flow faster than the executor's rate
   * estimate and one odd sample do not make {@code L} near zero, which would hand flows on late.
   */
  @Test
  void fetchLatencyComesFromEachFlowsOwnRateAndIsTheLowerMedian() {
    HandoverPredictor p = new HandoverPredictor();
    p.flowObserved(10_000_000, 1_000); // the executor's rate: 10 MB/s
    p.coordinatorRoundTrip(40);
    // a 12.5 MB/s flow's first 4 MB block 400 ms after the request: 80 ms of latency
    // (at the executor's 10 MB/s it would be 0)
    p.fetchLatencyObserved(400, 4_000_000, 12_500_000);
    p.fetchLatencyObserved(485, 4_000_000, 10_000_000); // 85 ms
    p.fetchLatencyObserved(405, 4_000_000, 10_000_000); // an odd one: 5 ms
    p.fetchLatencyObserved(400, 4_000_000, 0); // one block only: at the executor's rate, 0 ms
    // samples 0, 5, 80, 85 (lower median 5 ms); two more regular flows make the lower median 80 ms
    p.fetchLatencyObserved(480, 4_000_000, 10_000_000);
    p.fetchLatencyObserved(480, 4_000_000, 10_000_000);
    // requested at 1000, first 4 MB at 1480 (80 + 400 ms at 10 MB/s), 4 MB left: ends at 1880
    assertEquals(1_880 - 40 - 80, p.handOverAt(1_000, 1_480, 4_000_000, 4_000_000));
  }
}
