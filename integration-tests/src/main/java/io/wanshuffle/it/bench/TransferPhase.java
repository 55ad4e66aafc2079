package io.wanshuffle.it.bench;

import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.TestbedSpec;

/**
 * A link's transfer phase in a window and its utilisation over it, from the link's own interface
 * counters (outside Spark, the same for every variant): the phase runs from the start of the first
 * to the end of the last sampling interval in the window in which the link carried more than
 * {@value #ACTIVE_SHARE} of its rate (less is control traffic: heartbeats, RPC); its utilisation is
 * the bytes it carried over the phase / (its rate x the phase's length). Over the reduce stage
 * instead, a link is also charged with the stage's task start-up before the first fetch and its
 * reduce work after the last byte, which no schedule of the transfers can fill.
 */
final class TransferPhase {
  /** Least share of the link's rate a sampling interval must carry to be in the phase. */
  static final double ACTIVE_SHARE = 0.02;

  private TransferPhase() {}

  /**
   * @param link the link's counters
   * @param fromMs the window's start (e.g. the reduce stage's), epoch ms
   * @param toMs its end, epoch ms
   * @return the link's utilisation over its transfer phase in the window, 0..1 (a little above 1 by
   *     the tbf burst); null when the link is not shaped or carried no interval above {@value
   *     #ACTIVE_SHARE} of its rate in the window
   */
  static Double utilisation(LinkTrace.Series link, long fromMs, long toMs) {
    if (link.rateBitsPerSecond() == TestbedSpec.UNSHAPED) {
      return null;
    }
    long[] t = link.epochMillis();
    long[] b = link.bytes();
    double threshold = ACTIVE_SHARE * link.rateBitsPerSecond() / 8.0;
    int first = -1;
    int last = -1;
    for (int i = 1; i < t.length; i++) {
      if (t[i] <= fromMs || t[i - 1] >= toMs || t[i] <= t[i - 1]) {
        continue;
      }
      if ((b[i] - b[i - 1]) / ((t[i] - t[i - 1]) / 1000.0) > threshold) {
        first = first < 0 ? i - 1 : first;
        last = i;
      }
    }
    if (first < 0) {
      return null;
    }
    double seconds = (t[last] - t[first]) / 1000.0;
    return (b[last] - b[first]) * 8 / (link.rateBitsPerSecond() * seconds);
  }
}
