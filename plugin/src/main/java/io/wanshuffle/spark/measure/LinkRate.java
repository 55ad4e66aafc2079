package io.wanshuffle.spark.measure;

/**
 * One link's measured rate.
 *
 * @param link the link's name, e.g. {@code backbone.out[/A]}, {@code nic.down[b1]}
 * @param bytesPerSecond the rate the link achieved for its flows, bytes/s: what all its flows
 *     together moved per second while it carried them (its capacity when it was their bottleneck, a
 *     lower bound on it otherwise)
 * @param flows the flows it was measured from
 * @param fitted true when its flows differ in size and the Theil-Sen fit of their active time
 *     against their bytes at share gave an intercept that went into the flows' lead (TCP's ramp
 *     then falls into β); false when they were all about one size (the lead then comes from other
 *     links, or is 0 and falls into the rate)
 * @param reusedFlows of {@code flows}, those on a host pair that carried an earlier flow (a reused
 *     connection); the others are their host pair's first, which pay TCP's slow start and read the
 *     link low
 * @param droppedFlows 0, or the number of the link's most recent flows that all read under {@link
 *     NetworkEstimator#DROPPED} of the rate over all its flows: the link's rate dropped, and {@code
 *     bytesPerSecond} is the median of those recent flows alone ({@link NetworkEstimator})
 */
public record LinkRate(
    String link,
    double bytesPerSecond,
    int flows,
    boolean fitted,
    int reusedFlows,
    int droppedFlows) {

  /**
   * A rate measured over all the link's flows (no drop found).
   *
   * @param link the link's name
   * @param bytesPerSecond its rate, bytes/s
   * @param flows the flows it was measured from
   * @param fitted whether its flows' lead was fitted
   * @param reusedFlows of {@code flows}, those on reused connections
   */
  public LinkRate(String link, double bytesPerSecond, int flows, boolean fitted, int reusedFlows) {
    this(link, bytesPerSecond, flows, fitted, reusedFlows, 0);
  }

  /**
   * @return true when the rate is that of the link's most recent flows after a drop
   */
  public boolean dropped() {
    return droppedFlows > 0;
  }

  /**
   * A rate measured over flows on reused connections only.
   *
   * @param link the link's name
   * @param bytesPerSecond its rate, bytes/s
   * @param flows the flows it was measured from
   * @param fitted whether its flows' lead was fitted
   */
  public LinkRate(String link, double bytesPerSecond, int flows, boolean fitted) {
    this(link, bytesPerSecond, flows, fitted, flows, 0);
  }
}
