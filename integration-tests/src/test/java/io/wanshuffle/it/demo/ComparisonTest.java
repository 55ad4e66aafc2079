package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.net.BackboneMeter;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The figures of a run that crosses the backbone one way and of one that crosses it both ways. */
class ComparisonTest {
  private static final TestbedSpec SPEC =
      new TestbedSpec(1, 1, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);

  /**
   * 2 s of reduce stage: A to B at 10 MB/s throughout, B to A at 20 MB/s in the first second only.
   */
  private static BackboneTrace trace() {
    List<BackboneTrace.Sample> s = new ArrayList<>();
    for (int i = 0; i <= 20; i++) {
      s.add(
          new BackboneTrace.Sample(
              1_000_000 + i * 100L, i * 1_000_000L, Math.min(i, 10) * 2_000_000L));
    }
    // A hosts: 100 segments sent, 2 retransmitted; B hosts: 300 sent, 6 retransmitted
    return new BackboneTrace(
        new BackboneMeter.Counters(0, 1_000_000, 0, 0, 0, 0, 100, 1, 1000, 10),
        new BackboneMeter.Counters(0, 1_002_000, 20_000_000, 20_000_000, 0, 0, 200, 3, 1300, 16),
        s,
        200_000_000);
  }

  private static RunResult run(List<String> senders, List<String> receivers, long[][] matrix) {
    return new RunResult(
        List.of(),
        0,
        0,
        1_000_000,
        1_002_000,
        2,
        0,
        40_000_000,
        0,
        0,
        senders,
        receivers,
        matrix,
        null,
        null,
        List.of(),
        0);
  }

  @Test
  void oneWayRunCountsTheAToBDirection() {
    Comparison.Figures f =
        Comparison.of(
            "auto", run(List.of("a1"), List.of("b1"), new long[][] {{20_000_000}}), trace(), SPEC);
    assertEquals(20_000_000, f.backboneBytes());
    assertEquals(20e6 * 8 / 2, f.meanBitsPerSecond(), 1e-6);
    assertEquals(10e6 * 8, f.peakBitsPerSecond(), 1e-6);
    assertEquals(
        Comparison.physicalLimitSeconds(new long[][] {{20_000_000}}, SPEC),
        f.physicalLimitSeconds());
    assertEquals(2.0, f.retransPercent(), 1e-9, "the A hosts' segments");
  }

  /**
   * Both ways: the backbone bytes of both directions, the mean per direction (utilisation over 2 x
   * the rate), the peak of the busier direction, and the physical limit of the busier direction or
   * NIC.
   */
  @Test
  void bothWaysRunCountsBothDirections() {
    long[][] m = {{0, 20_000_000}, {20_000_000, 0}};
    Comparison.Figures f =
        Comparison.of("auto", run(List.of("a1", "b1"), List.of("a1", "b1"), m), trace(), SPEC);
    assertEquals(40_000_000, f.backboneBytes());
    assertEquals(40e6 * 8 / 2 / 2, f.meanBitsPerSecond(), 1e-6);
    assertEquals(20e6 * 8, f.peakBitsPerSecond(), 1e-6);
    assertEquals(100.0 * (2 + 6) / (100 + 300), f.retransPercent(), 1e-9, "every host's segments");
    // 20 MB each way: 0.8 s on the 25 MB/s backbone, 1.6 s through a 12.5 MB/s NIC (each host sends
    // 20 MB)
    assertEquals(20e6 / SPEC.nicBytesPerSecond(), f.physicalLimitSeconds(), 1e-9);
    assertEquals(
        20e6 / SPEC.nicBytesPerSecond(), Comparison.physicalLimitBothWaysSeconds(m, SPEC), 1e-9);
  }
}
