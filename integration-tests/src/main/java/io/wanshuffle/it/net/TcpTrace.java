package io.wanshuffle.it.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cross-cluster TCP connections of cluster A's hosts sampled over time ({@link
 * TcpStateSampler}): what the senders' congestion control did, seen from outside Spark.
 *
 * <p>{@link #stalls(long, long)} finds the episodes in which a connection had data waiting but a
 * congestion window of at most {@value #STALL_CWND_SEGMENTS} segments. Under BBR (v1, Linux's
 * {@code tcp_bbr}) that is PROBE_RTT: when a connection's minimum RTT estimate is 10 s old, BBR
 * cuts its window to 4 segments for 200 ms plus one round trip, whatever the path can carry
 * (Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016, section
 * "Steady-state behavior"; {@code bbr_probe_rtt_mode_ms} in {@code net/ipv4/tcp_bbr.c}). At 40 ms
 * RTT that is about 240 ms in which the flow carries 4 segments per round trip instead of the NIC
 * rate. A retransmission time-out (window 1) also counts.
 */
public final class TcpTrace {
  /**
   * A congestion window at most this large, with data waiting, is a stall (BBR's PROBE_RTT window).
   */
  public static final int STALL_CWND_SEGMENTS = 4;

  /**
   * Bytes that must wait in the send queue for a small window to count as a stall (not an idle
   * connection).
   */
  public static final long STALL_MIN_QUEUED_BYTES = 64 * 1024;

  /**
   * One stall episode of one connection: consecutive samples with a window of at most {@value
   * #STALL_CWND_SEGMENTS} segments and at least {@value #STALL_MIN_QUEUED_BYTES} bytes queued.
   *
   * @param firstMillis epoch ms of its first such sample
   * @param lastMillis epoch ms of its last such sample
   * @param host the sending host
   * @param peer the receiving address:port
   */
  public record Stall(long firstMillis, long lastMillis, String host, String peer) {}

  private final List<TcpSample> samples;
  private final Map<String, Long> firstRoundMillis;

  /**
   * @param samples samples of any connections, any order; every connection is taken as open before
   *     the first
   */
  public TcpTrace(List<TcpSample> samples) {
    this(samples, Map.of());
  }

  /**
   * @param samples samples of any connections, any order
   * @param firstRoundMillis per host, when its first sampling round was read, epoch ms: a
   *     connection first seen after it was opened while the trace was recorded
   */
  public TcpTrace(List<TcpSample> samples, Map<String, Long> firstRoundMillis) {
    List<TcpSample> s = new ArrayList<>(samples);
    s.sort(Comparator.comparingLong(TcpSample::epochMillis));
    this.samples = List.copyOf(s);
    this.firstRoundMillis = Map.copyOf(firstRoundMillis);
  }

  /**
   * @return the samples, time order
   */
  public List<TcpSample> samples() {
    return samples;
  }

  /**
   * @param fromMillis window start, epoch ms
   * @param toMillis window end, epoch ms
   * @return the stall episodes with a sample inside the window, by first sample
   */
  public List<Stall> stalls(long fromMillis, long toMillis) {
    Map<String, Stall> open = new LinkedHashMap<>();
    List<Stall> done = new ArrayList<>();
    for (TcpSample s : samples) {
      String conn = s.connection();
      boolean stalled =
          s.cwndSegments() <= STALL_CWND_SEGMENTS && s.sendQueueBytes() >= STALL_MIN_QUEUED_BYTES;
      Stall current = open.get(conn);
      if (stalled) {
        open.put(
            conn,
            current == null
                ? new Stall(s.epochMillis(), s.epochMillis(), s.host(), s.peer())
                : new Stall(current.firstMillis(), s.epochMillis(), s.host(), s.peer()));
      } else if (current != null) {
        done.add(open.remove(conn));
      }
    }
    done.addAll(open.values());
    return done.stream()
        .filter(e -> e.lastMillis() >= fromMillis && e.firstMillis() <= toMillis)
        .sorted(Comparator.comparingLong(Stall::firstMillis))
        .toList();
  }

  /**
   * @return bytes the sampled connections acknowledged while the trace was recorded, summed over
   *     the connections (payload only): from their first sample to their last, or from zero for a
   *     connection first seen after its host's first round (opened while recording)
   */
  public long bytesAcked() {
    Map<String, long[]> span = new LinkedHashMap<>();
    for (TcpSample s : samples) {
      Long first = firstRoundMillis.get(s.host());
      boolean opened = first != null && s.epochMillis() > first;
      long[] firstLast =
          span.computeIfAbsent(
              s.connection(), c -> new long[] {opened ? 0 : s.bytesAcked(), s.bytesAcked()});
      firstLast[1] = s.bytesAcked();
    }
    return span.values().stream().mapToLong(fl -> fl[1] - fl[0]).sum();
  }

  /**
   * Writes the samples as CSV ({@link TcpSample#CSV_HEADER}).
   *
   * @param file the file
   * @throws UncheckedIOException if it cannot be written
   */
  public void writeCsv(Path file) {
    StringBuilder sb = new StringBuilder(TcpSample.CSV_HEADER).append('\n');
    for (TcpSample s : samples) {
      sb.append(s.csv()).append('\n');
    }
    try {
      Files.writeString(file, sb);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
