package io.wanshuffle.spark.capture;

import java.util.Arrays;

/**
 * The bytes one link carried over time during a stage, in fixed bins: each realised flow's bytes
 * are spread evenly over its fetch, from {@code startMs} to {@code endMs} ({@link FlowCapture}),
 * and added to every link of its route ({@link LinkLoads#series}).
 *
 * @param link the link's name, e.g. {@code backbone.in[/B]}
 * @param rateBytesPerSecond the link's rate, bytes/s
 * @param startMs start of the first bin, epoch ms (executor clock, as the flow log)
 * @param binMs width of a bin, ms (at least 1)
 * @param bytes bytes carried in each bin
 */
public record LinkSeries(
    String link, long rateBytesPerSecond, long startMs, long binMs, long[] bytes) {

  /**
   * @param i a bin
   * @return the link's throughput in bin {@code i}, bytes/s
   */
  public double bytesPerSecond(int i) {
    return bytes[i] * 1000.0 / binMs;
  }

  /**
   * @return the highest throughput of any bin, bytes/s (0 without bins)
   */
  public double peakBytesPerSecond() {
    double p = 0;
    for (int i = 0; i < bytes.length; i++) {
      p = Math.max(p, bytesPerSecond(i));
    }
    return p;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LinkSeries s
        && link.equals(s.link)
        && rateBytesPerSecond == s.rateBytesPerSecond
        && startMs == s.startMs
        && binMs == s.binMs
        && Arrays.equals(bytes, s.bytes);
  }

  @Override
  public int hashCode() {
    return link.hashCode() * 31 + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "LinkSeries[" + link + ", " + startMs + "+" + binMs + "ms x " + bytes.length + "]";
  }
}
