package io.wanshuffle.it.net;

/**
 * What testbed to build: two clusters of nodes joined by one backbone.
 *
 * <p>Defaults (see {@link #defaults()}): 3 + 3 nodes, every NIC shaped to 100 Mbit/s and the
 * backbone to 200 Mbit/s, so the backbone, not the NICs, is the bottleneck of an all-to-all shuffle
 * from cluster A to cluster B; no added WAN latency.
 *
 * @param nodesA number of worker nodes in cluster A (the map side), 1..200
 * @param nodesB number of worker nodes in cluster B (the reduce side), 1..200
 * @param nicBitsPerSecond rate of every node NIC, each direction, bits/s (tbf)
 * @param backboneBitsPerSecond rate of the backbone, each direction, bits/s (tbf)
 * @param wanRttMillis round-trip time added on the backbone by the user-space delay line, ms (0 =
 *     none; half of it is added in each direction)
 * @param tcpCongestionControl TCP congestion control of every host ({@code
 *     net.ipv4.tcp_congestion_control} in each host's namespace, e.g. {@code bbr} or {@code
 *     cubic}), so that results do not depend on the machine's default; lower-case letters, digits
 *     and '_'
 */
public record TestbedSpec(
    int nodesA,
    int nodesB,
    long nicBitsPerSecond,
    long backboneBitsPerSecond,
    int wanRttMillis,
    String tcpCongestionControl) {

  /** Default NIC rate: 100 Mbit/s. */
  public static final long DEFAULT_NIC = 100_000_000L;

  /** Default backbone rate: 200 Mbit/s. */
  public static final long DEFAULT_BACKBONE = 200_000_000L;

  /**
   * Default TCP congestion control of the hosts: {@code bbr}, the default of the machine the
   * published benchmark reports come from, so that every host runs it whatever this machine's
   * default is.
   */
  public static final String DEFAULT_TCP_CC = "bbr";

  /**
   * A spec with the default TCP congestion control ({@link #DEFAULT_TCP_CC}).
   *
   * @param nodesA see the record
   * @param nodesB see the record
   * @param nicBitsPerSecond see the record
   * @param backboneBitsPerSecond see the record
   * @param wanRttMillis see the record
   */
  public TestbedSpec(
      int nodesA, int nodesB, long nicBitsPerSecond, long backboneBitsPerSecond, int wanRttMillis) {
    this(nodesA, nodesB, nicBitsPerSecond, backboneBitsPerSecond, wanRttMillis, DEFAULT_TCP_CC);
  }

  /**
   * Validates the spec.
   *
   * @throws IllegalArgumentException naming the field and value when a count or rate is out of
   *     range
   */
  public TestbedSpec {
    if (nodesA < 1 || nodesA > 200) {
      throw new IllegalArgumentException("nodes in cluster A must be 1..200, got " + nodesA);
    }
    if (nodesB < 1 || nodesB > 200) {
      throw new IllegalArgumentException("nodes in cluster B must be 1..200, got " + nodesB);
    }
    if (nicBitsPerSecond < 8_000) {
      throw new IllegalArgumentException(
          "NIC rate must be at least 8000 bit/s, got " + nicBitsPerSecond);
    }
    if (backboneBitsPerSecond < 8_000) {
      throw new IllegalArgumentException(
          "backbone rate must be at least 8000 bit/s, got " + backboneBitsPerSecond);
    }
    if (wanRttMillis < 0 || wanRttMillis > 2_000) {
      throw new IllegalArgumentException("WAN RTT must be 0..2000 ms, got " + wanRttMillis);
    }
    if (tcpCongestionControl == null || !tcpCongestionControl.matches("[a-z0-9_]{1,32}")) {
      throw new IllegalArgumentException(
          "TCP congestion control must be a kernel algorithm name such as bbr or"
              + " cubic, got '"
              + tcpCongestionControl
              + "'");
    }
  }

  /**
   * @param rttMillis WAN round-trip time, ms
   * @return this spec with another WAN RTT
   */
  public TestbedSpec withRtt(int rttMillis) {
    return new TestbedSpec(
        nodesA, nodesB, nicBitsPerSecond, backboneBitsPerSecond, rttMillis, tcpCongestionControl);
  }

  /**
   * @return 3 + 3 nodes, NIC 100 Mbit/s, backbone 200 Mbit/s, no added latency
   */
  public static TestbedSpec defaults() {
    return new TestbedSpec(3, 3, DEFAULT_NIC, DEFAULT_BACKBONE, 0);
  }

  /**
   * @return the backbone rate in bytes/s
   */
  public double backboneBytesPerSecond() {
    return backboneBitsPerSecond / 8.0;
  }

  /**
   * @return the NIC rate in bytes/s
   */
  public double nicBytesPerSecond() {
    return nicBitsPerSecond / 8.0;
  }

  /**
   * Parses a rate such as {@code 100mbit}, {@code 1gbit}, {@code 500kbit} or {@code 2000000}
   * (bits/s).
   *
   * @param text the rate; units kbit, mbit, gbit (decimal) or none
   * @param what the option name, used in the error message
   * @return bits per second
   * @throws IllegalArgumentException naming the option and value when the text is not a rate
   */
  public static long parseRate(String text, String what) {
    String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    long mult = 1;
    for (String[] u :
        new String[][] {
          {"gbit", "1000000000"}, {"mbit", "1000000"}, {"kbit", "1000"}, {"bit", "1"}
        }) {
      if (t.endsWith(u[0])) {
        mult = Long.parseLong(u[1]);
        t = t.substring(0, t.length() - u[0].length()).trim();
        break;
      }
    }
    try {
      double v = Double.parseDouble(t);
      if (!(v > 0) || Double.isInfinite(v)) {
        throw new NumberFormatException();
      }
      return Math.round(v * mult);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          what + ": '" + text + "' is not a rate (examples: 100mbit, 1gbit, 5000000)");
    }
  }
}
