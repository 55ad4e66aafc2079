package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackboneTraceTest {
  private static BackboneMeter.Counters counters(long ms, long bytes, long retrans, long out) {
    return new BackboneMeter.Counters(0, ms, bytes, 0, 0, 0, out, retrans, 2 * out, 2 * retrans);
  }

  /** 10 s at 1 MB/s sampled every 100 ms, with one second at 3 MB/s in the middle. */
  private static BackboneTrace trace() {
    List<BackboneTrace.Sample> s = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i <= 100; i++) {
      s.add(new BackboneTrace.Sample(1000L * 1000 + i * 100L, bytes, 0));
      bytes += (i >= 40 && i < 50) ? 300_000 : 100_000;
    }
    long last = s.get(s.size() - 1).aToBBytes();
    return new BackboneTrace(
        counters(1_000_000, 0, 10, 1000), counters(1_010_000, last, 30, 3000), s, 8_000_000);
  }

  @Test
  void peakOverOneSecondFindsTheBurst() {
    assertEquals(3_000_000 * 8.0, trace().peakBitsPerSecond(1000), 1e-6);
  }

  @Test
  void peakOverTheWholeRecordingIsTheMean() {
    BackboneTrace t = trace();
    assertEquals(t.samples().get(100).aToBBytes() * 8 / 10.0, t.peakBitsPerSecond(10_000), 1e-6);
  }

  @Test
  void windowBytesWidenToSampleBoundaries() {
    BackboneTrace t = trace();
    assertEquals(100_000 * 10, t.aToBBytes(1_000_000, 1_001_000));
    assertEquals(100_000 * 11, t.aToBBytes(1_000_000, 1_001_050));
  }

  /** Each direction of the full-duplex backbone is measured on its own counter. */
  @Test
  void eachDirectionHasItsOwnPeakAndBytes() {
    List<BackboneTrace.Sample> s = new ArrayList<>();
    for (int i = 0; i <= 20; i++) {
      // A to B at 1 MB/s throughout; B to A at 2 MB/s in the first second only
      s.add(
          new BackboneTrace.Sample(1_000_000 + i * 100L, i * 100_000L, Math.min(i, 10) * 200_000L));
    }
    BackboneTrace t =
        new BackboneTrace(
            counters(1_000_000, 0, 0, 0), counters(1_002_000, 2_000_000, 0, 0), s, 8_000_000);
    assertEquals(1_000_000 * 8.0, t.peakBitsPerSecond(BackboneTrace.Direction.A_TO_B, 1000), 1e-6);
    assertEquals(2_000_000 * 8.0, t.peakBitsPerSecond(BackboneTrace.Direction.B_TO_A, 1000), 1e-6);
    assertEquals(2_000_000, t.bytes(BackboneTrace.Direction.B_TO_A, 1_000_000, 1_002_000));
    assertEquals(0, t.bytes(BackboneTrace.Direction.B_TO_A, 1_001_000, 1_002_000));
    assertEquals(
        t.aToBBytes(1_001_000, 1_002_000),
        t.bytes(BackboneTrace.Direction.A_TO_B, 1_001_000, 1_002_000));
  }

  @Test
  void countersDifferences() {
    BackboneTrace t = trace();
    assertEquals(20, t.retransmittedSegments());
    assertEquals(2000, t.sentSegments());
    assertEquals(20, t.retransmittedSegments(BackboneTrace.Direction.A_TO_B));
    assertEquals(40, t.retransmittedSegments(BackboneTrace.Direction.B_TO_A));
    assertEquals(4000, t.sentSegments(BackboneTrace.Direction.B_TO_A));
  }

  @Test
  void rateParsing() {
    assertEquals(100_000_000L, TestbedSpec.parseRate("100mbit"));
    assertEquals(1_500_000_000L, TestbedSpec.parseRate("1.5gbit"));
    assertEquals(64_000L, TestbedSpec.parseRate("64000bit"));
    assertEquals(64_000L, TestbedSpec.parseRate(" 64 KBIT "));
    for (String bad : List.of("fast", "64000", "-5mbit", "0mbit", "0.1bit", "1e999gbit", "mbit")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> TestbedSpec.parseRate(bad), bad);
      assertTrue(e.getMessage().startsWith("'" + bad + "' is not a rate"), e.getMessage());
    }
  }

  @Test
  void specRejectsEmptyClusters() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TestbedSpec(0, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0));
    assertEquals("nodes in cluster A must be 1..200, got 0", e.getMessage());
  }

  @Test
  void specPinsTheHostsCongestionControlAndRejectsANameTheKernelCannotHave() {
    TestbedSpec d = new TestbedSpec(3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);
    assertEquals(
        "bbr", d.tcpCongestionControl(), "the figures' machine default unless asked otherwise");
    TestbedSpec cubic =
        new TestbedSpec(3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0, "cubic");
    assertEquals(
        new TestbedSpec(3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 40, "cubic"),
        cubic.withRtt(40),
        "another RTT keeps the congestion control");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new TestbedSpec(
                    3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0, "bbr; reboot"));
    assertEquals(
        "TCP congestion control must be a kernel algorithm name such as bbr or cubic, got 'bbr; reboot'",
        e.getMessage());
  }

  @Test
  void loopbackTopologyTableNamesEveryHostsCluster() throws Exception {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("topo", ".table");
    try (Testbed t = LoopbackTestbed.start(new TestbedSpec(2, 1, 1_000_000, 1_000_000, 0))) {
      t.writeTopologyTable(f);
      assertEquals(
          "127.0.0.2 /A/rack0\n127.0.1.11 /A/rack0\n127.0.1.12 /A/rack0\n127.0.2.11 /B/rack0\n",
          java.nio.file.Files.readString(f));
    } finally {
      java.nio.file.Files.delete(f);
    }
  }
}
