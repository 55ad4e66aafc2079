package io.wanshuffle.scheduler;

import java.util.Arrays;

/**
 * The base-speed rule of the DGGP paper (Jeannot and Wagner, sec. 2.2): the base speed b is the
 * greatest common divisor of the backbone rate and every NIC rate; then k = backbone / b and δ(v) =
 * min(k, NIC(v) / b). Amounts in bytes become seconds at base speed by dividing by b.
 *
 * @param bytesPerSecond the base speed b, bytes/s
 * @param k transfers per step the backbone carries at b each
 * @param senderDelta δ per sender node
 * @param receiverDelta δ per receiver node
 */
public record BaseSpeed(long bytesPerSecond, int k, int[] senderDelta, int[] receiverDelta) {
  /**
   * Most flows of the base speed one link may carry (the backbone: k; a topology's links alike). A
   * larger count means rates without a sizeable common divisor (e.g. 1000000001 and 1000000000
   * B/s), where every transfer would be planned as one flow at a tiny base speed.
   */
  public static final int MAX_FLOWS = 1_000_000;

  /**
   * @param backboneRate backbone rate, bytes/s, &gt; 0
   * @param senderNicRates NIC rate of each sender, bytes/s, each &gt; 0
   * @param receiverNicRates NIC rate of each receiver, bytes/s, each &gt; 0
   * @return the base speed, k and δ per node
   * @throws IllegalArgumentException if a rate is not positive, a list is empty, or k would exceed
   *     {@value #MAX_FLOWS}
   */
  public static BaseSpeed of(long backboneRate, long[] senderNicRates, long[] receiverNicRates) {
    if (backboneRate <= 0) {
      throw new IllegalArgumentException("backbone rate must be > 0 bytes/s, got " + backboneRate);
    }
    if (senderNicRates.length == 0 || receiverNicRates.length == 0) {
      throw new IllegalArgumentException("need at least one sender and one receiver NIC rate");
    }
    long g = backboneRate;
    for (long r : senderNicRates) {
      g = gcd(g, positive("sender NIC rate", r));
    }
    for (long r : receiverNicRates) {
      g = gcd(g, positive("receiver NIC rate", r));
    }
    long k = backboneRate / g;
    if (k > MAX_FLOWS) {
      throw new IllegalArgumentException(
          "rates give k = "
              + k
              + " flows of the base speed "
              + g
              + " B/s (their greatest common divisor), more than "
              + MAX_FLOWS
              + ": round the rates");
    }
    int[] ds = new int[senderNicRates.length];
    int[] dr = new int[receiverNicRates.length];
    for (int i = 0; i < ds.length; i++) {
      ds[i] = (int) Math.min(k, senderNicRates[i] / g);
    }
    for (int j = 0; j < dr.length; j++) {
      dr[j] = (int) Math.min(k, receiverNicRates[j] / g);
    }
    return new BaseSpeed(g, (int) k, ds, dr);
  }

  /**
   * @param beta setup delay, seconds
   * @return the δ-port platform this base speed defines
   */
  public Platform platform(double beta) {
    return Platform.of(k, beta, senderDelta, receiverDelta);
  }

  /**
   * @param bytes a traffic matrix in bytes
   * @return the same matrix in seconds at base speed
   */
  public TrafficMatrix toSeconds(TrafficMatrix bytes) {
    return bytes.inSecondsAt(bytesPerSecond);
  }

  private static long positive(String what, long r) {
    if (r <= 0) {
      throw new IllegalArgumentException(what + " must be > 0 bytes/s, got " + r);
    }
    return r;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BaseSpeed b
        && b.bytesPerSecond == bytesPerSecond
        && b.k == k
        && Arrays.equals(b.senderDelta, senderDelta)
        && Arrays.equals(b.receiverDelta, receiverDelta);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(bytesPerSecond) * 31 + k;
  }

  @Override
  public String toString() {
    return "BaseSpeed["
        + bytesPerSecond
        + " B/s, k="
        + k
        + ", senderDelta="
        + Arrays.toString(senderDelta)
        + ", receiverDelta="
        + Arrays.toString(receiverDelta)
        + "]";
  }
}
