package io.wanshuffle.spark.measure;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the realised flows say about the network: each link's achieved rate and the step setup delay
 * β ({@link NetworkEstimator} defines them).
 *
 * @param betaSeconds β, seconds: the median grant delay plus the ramp; NaN when no gated flow was
 *     measured
 * @param grantDelaySeconds the median, over gated flows, of grant (driver) to the task starting the
 *     fetch (executor): the grant's trip to the task; NaN when no gated flow was measured
 * @param rampSeconds the lead a_w of a flow on a host pair that carried an earlier flow (a reused
 *     connection): the time from its request to it sending at its share (the request's round trip
 *     and what is left of TCP's ramp), seconds, at least 0 ({@link NetworkEstimator})
 * @param rates per link name, its measured rate (by name)
 * @param flows flows measured
 * @param firstRampSeconds the lead a₁ of a host pair's first flow (a new connection: its set-up and
 *     TCP's slow start from the initial window), seconds, at least {@code rampSeconds}; equal to it
 *     when the flows say nothing of the difference ({@link NetworkEstimator})
 */
public record NetworkEstimate(
    double betaSeconds,
    double grantDelaySeconds,
    double rampSeconds,
    Map<String, LinkRate> rates,
    int flows,
    double firstRampSeconds) {

  /** No flow measured yet. */
  public static final NetworkEstimate EMPTY =
      new NetworkEstimate(Double.NaN, Double.NaN, 0, Map.of(), 0);

  /** Copies the rates, by link name. */
  public NetworkEstimate {
    rates = Collections.unmodifiableMap(new TreeMap<>(rates));
  }

  /**
   * An estimate whose first flows lead as the later ones.
   *
   * @param betaSeconds β, seconds (NaN: none)
   * @param grantDelaySeconds the grant's trip to the task, seconds (NaN: none)
   * @param rampSeconds a flow's lead, seconds
   * @param rates per link name, its measured rate
   * @param flows flows measured
   */
  public NetworkEstimate(
      double betaSeconds,
      double grantDelaySeconds,
      double rampSeconds,
      Map<String, LinkRate> rates,
      int flows) {
    this(betaSeconds, grantDelaySeconds, rampSeconds, rates, flows, rampSeconds);
  }

  /**
   * @param link a link name
   * @return its measured rate, bytes/s; NaN when it was not measured
   */
  public double rate(String link) {
    LinkRate r = rates.get(link);
    return r != null ? r.bytesPerSecond() : Double.NaN;
  }

  /**
   * @return per link name its rate in bytes/s, by name
   */
  public Map<String, Double> bytesPerSecond() {
    Map<String, Double> out = new TreeMap<>();
    rates.forEach((k, v) -> out.put(k, v.bytesPerSecond()));
    return out;
  }

  /**
   * @return true when β was measured (some gated flow)
   */
  public boolean hasBeta() {
    return !Double.isNaN(betaSeconds);
  }

  /**
   * @return one line for the driver log: β, its parts, and every link's rate in Mbit/s (a link
   *     whose rate dropped says so, {@link LinkRate#dropped()})
   */
  public String describe() {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            java.util.Locale.ROOT,
            "%d flows, beta %.3f s (grant %.3f s + ramp %.3f s), a new connection's ramp %.3f s",
            flows,
            betaSeconds,
            grantDelaySeconds,
            rampSeconds,
            firstRampSeconds));
    for (LinkRate r : rates.values()) {
      s.append(
          String.format(
              java.util.Locale.ROOT,
              r.dropped() ? ", %s %.1f Mbit/s (dropped: its last %d flows)" : ", %s %.1f Mbit/s",
              r.link(),
              r.bytesPerSecond() * 8 / 1e6,
              r.droppedFlows()));
    }
    return s.toString();
  }
}
