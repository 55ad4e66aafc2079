package io.wanshuffle.scheduler;

import java.util.Arrays;

/**
 * The base-speed rule of the DGGP paper (Jeannot and Wagner, sec. 2.2): the base speed b is the
 * greatest common divisor of the backbone rate and every NIC rate; then k = backbone / b and δ(v) =
 * min(k, NIC(v) / b). Amounts in bytes become seconds at base speed by dividing by b. On a topology
 * with more links (rack uplinks, several backbone sides: liquid-schedules paper, Gabrielyan and
 * Hersch, sec. 3) the same rule runs over every link's rate ({@link #ofRates}) and a link carries
 * rate / b flows at once ({@link #flows}). Every base speed of the project comes from this class.
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
    for (long r : senderNicRates) {
      positive("sender NIC rate", r);
    }
    for (long r : receiverNicRates) {
      positive("receiver NIC rate", r);
    }
    long g = gcd(gcd(backboneRate, senderNicRates), receiverNicRates);
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
   * The base speed of a set of link rates: their greatest common divisor (the rule of sec. 2.2 over
   * every link a plan sees).
   *
   * @param rates link rates, bytes/s, each &gt; 0; at least one
   * @return b, bytes/s
   * @throws IllegalArgumentException if there is no rate or a rate is not positive
   */
  public static long ofRates(long... rates) {
    if (rates.length == 0) {
      throw new IllegalArgumentException("need at least one link rate for a base speed");
    }
    for (long r : rates) {
      positive("link rate", r);
    }
    return gcd(0, rates);
  }

  /**
   * The capacity of a link in flows of the base speed.
   *
   * @param rate the link's rate, bytes/s, &ge; 0
   * @param baseSpeed b, bytes/s, &gt; 0
   * @return rate / b, at least 1 and at most {@value #MAX_FLOWS}
   * @throws IllegalArgumentException if the base speed is not positive
   */
  public static int flows(long rate, long baseSpeed) {
    if (baseSpeed <= 0) {
      throw new IllegalArgumentException("base speed must be > 0 bytes/s, got " + baseSpeed);
    }
    return (int) Math.max(1, Math.min(MAX_FLOWS, rate / baseSpeed));
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

  /** Euclid's algorithm over {@code g} and every rate. */
  private static long gcd(long g, long... rates) {
    for (long r : rates) {
      long a = g;
      long b = r;
      while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
      }
      g = a;
    }
    return g;
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
