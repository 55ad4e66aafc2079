package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TcpTraceTest {
  /**
   * A line of {@code ss -tinHO state established} on a testbed sender in BBR's PROBE_RTT (cwnd 4, 4
   * MB queued).
   */
  static final String PROBE_RTT_LINE =
      "0      4147551 10.77.1.11:41549 10.77.2.11:33894 bbr wscale:10,10 rto:260"
          + " rtt:59.96/21.021 ato:40 mss:1448 pmtu:1500 rcvmss:536 advmss:1448 cwnd:4 bytes_sent:42812345"
          + " bytes_retrans:2896 bytes_acked:42748119 bytes_received:141 segs_out:29571 segs_in:3040"
          + " data_segs_out:29567 data_segs_in:12 bbr:(bw:103520000bps,mrtt:40.088) send 772800bps lastsnd:4"
          + " lastrcv:228 pacing_rate 102484800bps delivery_rate 98370000bps delivered:29520 busy:4760ms"
          + " retrans:0/2 unacked:4 rcv_space:14480 rcv_ssthresh:64088 notsent:4141759 minrtt:40.088 snd_wnd:4006912";

  @Test
  void parsesTheFieldsOfOneSsLine() {
    TcpSample s = TcpSample.parse(1000, "a1", PROBE_RTT_LINE).orElseThrow();
    assertEquals("10.77.1.11:41549", s.local());
    assertEquals("10.77.2.11", s.peerAddress());
    assertEquals(4_147_551, s.sendQueueBytes());
    assertEquals(4, s.cwndSegments());
    assertEquals(59.96, s.rttMillis(), 1e-9);
    assertEquals(42_748_119, s.bytesAcked());
    assertEquals(2, s.retransmittedSegments());
    assertTrue(
        TcpSample.parse(1000, "a1", "0 0 10.77.1.11:22 10.77.0.1:4711").isEmpty(),
        "no tcp_info: no sample");
    assertTrue(
        TcpSample.parse(1000, "a1", "State Recv-Q Send-Q Local Peer cwnd:10").isEmpty(),
        "a header");
  }

  @Test
  void aStallIsOneEpisodeOfSmallWindowWithDataWaitingPerConnection() {
    List<TcpSample> s = new ArrayList<>();
    // connection 1: full window, then 3 samples in PROBE_RTT, full again, then a second episode
    // later
    int[] cwnd1 = {700, 4, 4, 4, 700, 700, 700, 4, 700};
    for (int i = 0; i < cwnd1.length; i++) {
      s.add(sample(i * 100, "a1", "10.77.2.11:1", cwnd1[i], 4_000_000));
    }
    // connection 2: a small window but nothing waiting (idle): no stall
    for (int i = 0; i < 9; i++) {
      s.add(sample(i * 100, "a2", "10.77.2.12:1", 4, 34));
    }
    // connection 3: stalled at the end of the trace (episode still open)
    s.add(sample(700, "a3", "10.77.2.13:1", 700, 4_000_000));
    s.add(sample(800, "a3", "10.77.2.13:1", 2, 4_000_000));
    TcpTrace t = new TcpTrace(s);
    List<TcpTrace.Stall> all = t.stalls(0, 1_000);
    assertEquals(
        List.of(
            new TcpTrace.Stall(100, 300, "a1", "10.77.2.11:1"),
            new TcpTrace.Stall(700, 700, "a1", "10.77.2.11:1"),
            new TcpTrace.Stall(800, 800, "a3", "10.77.2.13:1")),
        all);
    assertEquals(1, t.stalls(250, 500).size(), "an episode overlapping the window counts");
    assertEquals(0, t.stalls(400, 650).size());
  }

  @Test
  void bytesAckedSumsWhatEachConnectionCarriedWhileWatched() {
    TcpTrace t =
        new TcpTrace(
            List.of(
                acked(0, "10.77.2.11:1", 5_000),
                acked(100, "10.77.2.11:1", 1_005_000),
                acked(200, "10.77.2.11:1", 3_005_000),
                acked(100, "10.77.2.12:1", 0),
                acked(200, "10.77.2.12:1", 700_000)));
    assertEquals(3_000_000 + 700_000, t.bytesAcked());
    assertEquals(0, new TcpTrace(List.of()).bytesAcked());
    // a1's first round at 0: the connection to 10.77.2.12, first seen at 100, was opened while
    // recording
    TcpTrace opened = new TcpTrace(t.samples(), Map.of("a1", 0L));
    assertEquals(
        3_000_000 + 700_000, opened.bytesAcked(), "its first sample had acknowledged nothing yet");
    TcpTrace openedLater =
        new TcpTrace(
            List.of(
                acked(0, "10.77.2.11:1", 5_000),
                acked(200, "10.77.2.12:1", 400_000),
                acked(300, "10.77.2.12:1", 900_000)),
            Map.of("a1", 0L));
    assertEquals(
        900_000,
        openedLater.bytesAcked(),
        "a connection opened between two rounds counts from zero");
  }

  private static TcpSample acked(long ms, String peer, long bytesAcked) {
    return new TcpSample(ms, "a1", "10.77.1.11:7", peer, 0, 700, 40.1, bytesAcked, 0);
  }

  private static TcpSample sample(long ms, String host, String peer, int cwnd, long queued) {
    return new TcpSample(ms, host, "10.77.1.1:7", peer, queued, cwnd, 40.1, 0, 0);
  }
}
