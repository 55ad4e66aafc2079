package io.wanshuffle.spark.measure;

/**
 * One realised cross-site flow, as the measurement sees it: the bytes one host pair moved under one
 * grant (or, ungated, one task's fetch from one source), with when it was granted, started and
 * ended.
 *
 * @param srcHost sending host
 * @param dstHost receiving host
 * @param bytes bytes moved, at least 1 to be used
 * @param grantedAtMs when the coordinator granted it, epoch ms (driver clock); 0 when it was not
 *     gated (no grant), then it counts for the link rates only
 * @param startMs when the receiving task started fetching it, epoch ms (executor clock)
 * @param endMs when its last byte arrived, epoch ms (executor clock)
 */
public record MeasuredFlow(
    String srcHost, String dstHost, long bytes, long grantedAtMs, long startMs, long endMs) {

  /**
   * @return true when it was granted by the coordinator (a grant time is known)
   */
  public boolean gated() {
    return grantedAtMs > 0;
  }

  /**
   * @return its active time, start to last byte, seconds
   */
  public double activeSeconds() {
    return (endMs - startMs) / 1000.0;
  }

  /**
   * @return true when it carries bytes over a positive active time and (when gated) was granted no
   *     later than it started: the flows the estimators use
   */
  public boolean usable() {
    return bytes > 0 && endMs > startMs && (grantedAtMs == 0 || grantedAtMs <= endMs);
  }
}
