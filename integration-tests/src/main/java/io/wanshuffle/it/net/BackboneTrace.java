package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;

/**
 * Backbone byte counters sampled over time, with the full counters at the start and the end. Rates
 * are computed from the byte counter of one direction (Ethernet frame bytes, as tbf counts them); A
 * to B unless a {@link Direction} says otherwise (the backbone is full duplex and shaped to its
 * rate each way).
 */
public final class BackboneTrace {
  /** A direction of the backbone. */
  public enum Direction {
    /** From cluster A to cluster B. */
    A_TO_B,
    /** From cluster B to cluster A. */
    B_TO_A;

    long of(Sample s) {
      return this == A_TO_B ? s.aToBBytes() : s.bToABytes();
    }
  }

  /**
   * One sample.
   *
   * @param epochMillis wall-clock time, ms since the epoch
   * @param aToBBytes cumulative A-to-B bytes
   * @param bToABytes cumulative B-to-A bytes
   */
  public record Sample(long epochMillis, long aToBBytes, long bToABytes) {}

  private final BackboneMeter.Counters start;
  private final BackboneMeter.Counters end;
  private final List<Sample> samples;
  private final long rateBitsPerSecond;

  /**
   * @param start counters when recording started
   * @param end counters when it stopped
   * @param samples samples in time order
   * @param rateBitsPerSecond the backbone's configured rate, bits/s
   */
  public BackboneTrace(
      BackboneMeter.Counters start,
      BackboneMeter.Counters end,
      List<Sample> samples,
      long rateBitsPerSecond) {
    this.start = start;
    this.end = end;
    this.samples = List.copyOf(samples);
    this.rateBitsPerSecond = rateBitsPerSecond;
  }

  /**
   * @return counters at the start
   */
  public BackboneMeter.Counters start() {
    return start;
  }

  /**
   * @return counters at the end
   */
  public BackboneMeter.Counters end() {
    return end;
  }

  /**
   * @return the samples, time order
   */
  public List<Sample> samples() {
    return samples;
  }

  /**
   * @return configured backbone rate, bits/s
   */
  public long rateBitsPerSecond() {
    return rateBitsPerSecond;
  }

  /**
   * @return bytes A to B over the whole recording
   */
  public long aToBBytes() {
    return end.aToBBytes() - start.aToBBytes();
  }

  /**
   * @param direction which way: the segments of the hosts that send that way (A's for A to B)
   * @return TCP segments those hosts retransmitted over the recording
   */
  public long retransmittedSegments(Direction direction) {
    return direction == Direction.A_TO_B
        ? retransmittedSegments()
        : end.bTcpRetransSegs() - start.bTcpRetransSegs();
  }

  /**
   * @param direction which way: the segments of the hosts that send that way (A's for A to B)
   * @return TCP segments those hosts sent over the recording
   */
  public long sentSegments(Direction direction) {
    return direction == Direction.A_TO_B ? sentSegments() : end.bTcpOutSegs() - start.bTcpOutSegs();
  }

  /**
   * @return TCP segments retransmitted by cluster A hosts over the recording
   */
  public long retransmittedSegments() {
    return end.tcpRetransSegs() - start.tcpRetransSegs();
  }

  /**
   * @return TCP segments sent by cluster A hosts over the recording
   */
  public long sentSegments() {
    return end.tcpOutSegs() - start.tcpOutSegs();
  }

  /**
   * @return packets dropped by the backbone tbf (A to B) over the recording
   */
  public long tbfDrops() {
    return end.tbfDrops() - start.tbfDrops();
  }

  /**
   * @param fromMillis window start, epoch ms
   * @param toMillis window end, epoch ms
   * @return A-to-B bytes between the last sample at or before {@code fromMillis} and the first at
   *     or after {@code toMillis} (the window is widened to sample boundaries)
   */
  public long aToBBytes(long fromMillis, long toMillis) {
    return bytes(Direction.A_TO_B, fromMillis, toMillis);
  }

  /**
   * @param direction which way
   * @param fromMillis window start, epoch ms
   * @param toMillis window end, epoch ms
   * @return bytes carried that way between the last sample at or before {@code fromMillis} and the
   *     first at or after {@code toMillis} (the window is widened to sample boundaries)
   */
  public long bytes(Direction direction, long fromMillis, long toMillis) {
    Sample a = samples.get(0);
    Sample b = samples.get(samples.size() - 1);
    for (Sample s : samples) {
      if (s.epochMillis() <= fromMillis) {
        a = s;
      }
    }
    for (int i = samples.size() - 1; i >= 0; i--) {
      if (samples.get(i).epochMillis() >= toMillis) {
        b = samples.get(i);
      }
    }
    return direction.of(b) - direction.of(a);
  }

  /**
   * The highest A-to-B rate over any window of at least {@code windowMillis} between samples.
   *
   * @param windowMillis window length, ms (for example 1000)
   * @return peak rate in bits/s (0 if the recording is shorter than the window)
   */
  public double peakBitsPerSecond(long windowMillis) {
    return peakBitsPerSecond(Direction.A_TO_B, windowMillis);
  }

  /**
   * The highest rate one way over any window of at least {@code windowMillis} between samples.
   *
   * @param direction which way
   * @param windowMillis window length, ms (for example 1000)
   * @return peak rate in bits/s (0 if the recording is shorter than the window)
   */
  public double peakBitsPerSecond(Direction direction, long windowMillis) {
    double peak = 0;
    int j = 0;
    for (int i = 0; i < samples.size(); i++) {
      if (j < i) {
        j = i;
      }
      while (j < samples.size()
          && samples.get(j).epochMillis() - samples.get(i).epochMillis() < windowMillis) {
        j++;
      }
      if (j == samples.size()) {
        break;
      }
      Sample a = samples.get(i);
      Sample b = samples.get(j);
      double secs = (b.epochMillis() - a.epochMillis()) / 1000.0;
      peak = Math.max(peak, (direction.of(b) - direction.of(a)) * 8 / secs);
    }
    return peak;
  }

  /**
   * @param fromMillis epoch ms
   * @param toMillis epoch ms
   * @return samples within the window as (seconds since {@code fromMillis}, A-to-B bits/s since the
   *     previous sample) pairs, for plotting
   */
  public List<double[]> rateSeries(long fromMillis, long toMillis) {
    List<double[]> out = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      Sample a = samples.get(i - 1);
      Sample b = samples.get(i);
      if (b.epochMillis() < fromMillis
          || a.epochMillis() > toMillis
          || b.epochMillis() == a.epochMillis()) {
        continue;
      }
      double rate =
          (b.aToBBytes() - a.aToBBytes()) * 8.0 / ((b.epochMillis() - a.epochMillis()) / 1000.0);
      out.add(new double[] {(b.epochMillis() - fromMillis) / 1000.0, rate});
    }
    return out;
  }
}
