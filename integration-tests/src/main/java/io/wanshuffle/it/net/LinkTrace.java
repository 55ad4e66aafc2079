package io.wanshuffle.it.net;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every measured link's byte counter sampled over time ({@link LinkMeter}), with its tbf drops over
 * the recording. Bytes are Ethernet frame bytes, as tbf counts them; a link is one direction of one
 * interface.
 *
 * @param series per link name (as docs/topology.md names links, e.g. {@code
 *     rack.uplink[/A/rack0]}), in the meter's order
 */
public record LinkTrace(Map<String, Series> series) {

  /** Copies the map, keeping its order. */
  public LinkTrace {
    series = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(series));
  }

  /**
   * One link's samples.
   *
   * @param link the link's name
   * @param rateBitsPerSecond its shaped rate, bits/s ({@link TestbedSpec#UNSHAPED} when not shaped)
   * @param epochMillis sample times, ms since the epoch, ascending
   * @param bytes cumulative bytes the link carried at each sample
   * @param drops packets its tbf dropped over the recording (-1 when not shaped)
   */
  public record Series(
      String link, long rateBitsPerSecond, long[] epochMillis, long[] bytes, long drops) {

    /**
     * @param fromMillis window start, epoch ms
     * @param toMillis window end, epoch ms
     * @return bytes carried between the last sample at or before {@code fromMillis} and the first
     *     at or after {@code toMillis} (the window is widened to sample boundaries; the whole
     *     recording when it lies outside it)
     */
    public long bytes(long fromMillis, long toMillis) {
      int a = 0;
      int b = epochMillis.length - 1;
      for (int i = 0; i < epochMillis.length; i++) {
        if (epochMillis[i] <= fromMillis) {
          a = i;
        }
      }
      for (int i = epochMillis.length - 1; i >= 0; i--) {
        if (epochMillis[i] >= toMillis) {
          b = i;
        }
      }
      return bytes[b] - bytes[a];
    }

    /**
     * @return bytes over the whole recording
     */
    public long totalBytes() {
      return bytes[bytes.length - 1] - bytes[0];
    }

    /**
     * The highest rate over any window of at least {@code windowMillis} between samples.
     *
     * @param windowMillis window length, ms (for example 1000)
     * @return peak rate in bits/s (0 if the recording is shorter than the window)
     */
    public double peakBitsPerSecond(long windowMillis) {
      double peak = 0;
      int j = 0;
      for (int i = 0; i < epochMillis.length; i++) {
        j = Math.max(j, i);
        while (j < epochMillis.length && epochMillis[j] - epochMillis[i] < windowMillis) {
          j++;
        }
        if (j == epochMillis.length) {
          break;
        }
        double secs = (epochMillis[j] - epochMillis[i]) / 1000.0;
        peak = Math.max(peak, (bytes[j] - bytes[i]) * 8 / secs);
      }
      return peak;
    }
  }

  /**
   * @param link a link's name
   * @return its series
   * @throws IllegalArgumentException if the link was not measured
   */
  public Series of(String link) {
    Series s = series.get(link);
    if (s == null) {
      throw new IllegalArgumentException(
          "link " + link + " was not measured; measured: " + links());
    }
    return s;
  }

  /**
   * @return the measured links' names, in the meter's order
   */
  public List<String> links() {
    return List.copyOf(series.keySet());
  }
}
