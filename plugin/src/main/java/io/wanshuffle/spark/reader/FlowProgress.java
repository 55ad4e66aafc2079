package io.wanshuffle.spark.reader;

import javax.annotation.concurrent.GuardedBy;

/**
 * Whether a granted step's flows are moving on the network: the requests in flight (sent, neither
 * arrived nor failed) and when their bytes last advanced. Fed by the step's {@link
 * ArrivalTrackingClient} (requests sent, bytes streamed, blocks arrived or failed); read by the
 * step's stall watch ({@link StepReport#watchStall}), which reports a flow whose requested bytes
 * have not advanced for {@code spark.wanshuffle.flow.stallTimeout}.
 *
 * <p>A step whose fetcher holds requests back until the task reads (nothing in flight) is waiting
 * for its task, not for the network: it is never quiet.
 *
 * <p>Thread-safe: requests are counted on the thread that sends them, bytes on network threads, the
 * watch reads on the hand-over timer thread.
 */
final class FlowProgress {
  @GuardedBy("this")
  private int inFlight;

  /** When bytes last advanced, or the first request of an idle flow went out, epoch ms. */
  @GuardedBy("this")
  private long lastMs;

  /** The longest time requests in flight went without their bytes advancing so far, ms. */
  @GuardedBy("this")
  private long longestQuietMs;

  /**
   * Requests for {@code blocks} blocks were sent.
   *
   * @param blocks blocks requested, at least 1
   * @param nowMs epoch ms
   */
  synchronized void requested(int blocks, long nowMs) {
    if (inFlight == 0) {
      lastMs = nowMs; // the quiet time counts from the first request in flight
    }
    inFlight += blocks;
  }

  /**
   * Bytes of a block in flight arrived (streamed).
   *
   * @param nowMs epoch ms
   */
  synchronized void advanced(long nowMs) {
    noteGap(nowMs);
    lastMs = Math.max(lastMs, nowMs);
  }

  @GuardedBy("this")
  private void noteGap(long nowMs) {
    if (inFlight > 0) {
      longestQuietMs = Math.max(longestQuietMs, nowMs - lastMs);
    }
  }

  /**
   * A requested block arrived whole or failed.
   *
   * @param nowMs epoch ms
   */
  synchronized void settled(long nowMs) {
    noteGap(nowMs);
    inFlight = Math.max(0, inFlight - 1);
    lastMs = Math.max(lastMs, nowMs);
  }

  /**
   * @param nowMs epoch ms
   * @return how long the requests in flight have gone without their bytes advancing, ms; 0 when no
   *     request is in flight
   */
  synchronized long quietMs(long nowMs) {
    return inFlight > 0 ? Math.max(0, nowMs - lastMs) : 0;
  }

  /**
   * @param nowMs epoch ms
   * @return the longest time the requests in flight went without their bytes advancing, the current
   *     quiet time included, ms
   */
  synchronized long longestQuietMs(long nowMs) {
    return Math.max(longestQuietMs, quietMs(nowMs));
  }
}
