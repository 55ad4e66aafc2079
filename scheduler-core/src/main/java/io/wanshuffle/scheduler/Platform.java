package io.wanshuffle.scheduler;

import java.util.Arrays;

/**
 * The platform of one redistribution: at most {@code k} transfers per step (the backbone
 * constraint), a setup delay {@code β} paid once per step, and δ(v), the number of transfers node v
 * may take part in during one step (δ-port model of the DGGP paper, sec. 2; δ = 1 everywhere is the
 * 1-port model of the GGP/OGGP paper, sec. 2.1).
 *
 * <p>δ values above k are accepted and behave as k ({@link #senderPorts(int)} caps them), as in the
 * DGGP paper's running example.
 */
public final class Platform {
  private final int k;
  private final double beta;
  private final int[] senderDelta;
  private final int[] receiverDelta;

  private Platform(int k, double beta, int[] senderDelta, int[] receiverDelta) {
    this.k = k;
    this.beta = beta + 0.0; // -0.0 becomes 0.0
    this.senderDelta = senderDelta;
    this.receiverDelta = receiverDelta;
  }

  /**
   * A 1-port platform.
   *
   * @param k maximum transfers per step, at least 1
   * @param beta setup delay per step in seconds, finite and ≥ 0
   * @param senders number of sender nodes (rows of the traffic matrix), at least 1
   * @param receivers number of receiver nodes (columns), at least 1
   * @return the platform with δ = 1 for every node
   * @throws IllegalArgumentException if k &lt; 1, β &lt; 0 or not finite, or a count is &lt; 1
   */
  public static Platform onePort(int k, double beta, int senders, int receivers) {
    if (senders < 1 || receivers < 1) {
      throw new IllegalArgumentException(
          "platform needs at least one sender and one receiver, got "
              + senders
              + " x "
              + receivers);
    }
    int[] s = new int[senders];
    int[] r = new int[receivers];
    Arrays.fill(s, 1);
    Arrays.fill(r, 1);
    return of(k, beta, s, r);
  }

  /**
   * A δ-port platform.
   *
   * @param k maximum transfers per step, at least 1
   * @param beta setup delay per step in seconds, finite and ≥ 0
   * @param senderDelta δ of each sender node (length = rows of the matrix), each ≥ 1
   * @param receiverDelta δ of each receiver node (length = columns of the matrix), each ≥ 1
   * @return the platform (arrays are copied)
   * @throws IllegalArgumentException if k &lt; 1, β &lt; 0 or not finite, a list is empty or a δ is
   *     &lt; 1 (the message names the option and the index)
   */
  public static Platform of(int k, double beta, int[] senderDelta, int[] receiverDelta) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    if (!(beta >= 0) || Double.isInfinite(beta)) {
      throw new IllegalArgumentException("beta must be a finite number >= 0, got " + beta);
    }
    checkDelta("sender", senderDelta);
    checkDelta("receiver", receiverDelta);
    return new Platform(k, beta, senderDelta.clone(), receiverDelta.clone());
  }

  private static void checkDelta(String side, int[] delta) {
    if (delta.length == 0) {
      throw new IllegalArgumentException("platform needs at least one " + side);
    }
    for (int i = 0; i < delta.length; i++) {
      if (delta[i] < 1) {
        throw new IllegalArgumentException(
            side + " delta[" + i + "] must be at least 1, got " + delta[i]);
      }
    }
  }

  /**
   * @return k, the maximum number of transfers in one step
   */
  public int k() {
    return k;
  }

  /**
   * @return β, the setup delay of one step, in seconds
   */
  public double beta() {
    return beta;
  }

  /**
   * @return number of sender nodes this platform describes
   */
  public int senders() {
    return senderDelta.length;
  }

  /**
   * @return number of receiver nodes this platform describes
   */
  public int receivers() {
    return receiverDelta.length;
  }

  /**
   * @return min(δ(i), k) for sender i: the transfers it may take part in per step
   */
  public int senderPorts(int i) {
    return Math.min(senderDelta[i], k);
  }

  /**
   * @return min(δ(j), k) for receiver j: the transfers it may take part in per step
   */
  public int receiverPorts(int j) {
    return Math.min(receiverDelta[j], k);
  }

  /**
   * @return true when every node has one port (after capping by k): the GGP/OGGP model
   */
  public boolean isOnePort() {
    for (int i = 0; i < senderDelta.length; i++) {
      if (senderPorts(i) != 1) {
        return false;
      }
    }
    for (int j = 0; j < receiverDelta.length; j++) {
      if (receiverPorts(j) != 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param m a traffic matrix
   * @throws IllegalArgumentException if its shape differs from this platform's node counts
   */
  public void requireShape(TrafficMatrix m) {
    if (m.rows() != senders() || m.cols() != receivers()) {
      throw new IllegalArgumentException(
          "traffic matrix is "
              + m.rows()
              + " x "
              + m.cols()
              + " but the platform describes "
              + senders()
              + " senders x "
              + receivers()
              + " receivers");
    }
  }

  /**
   * @return the same platform with another k
   */
  public Platform withK(int newK) {
    return of(newK, beta, senderDelta, receiverDelta);
  }

  /**
   * @return the same platform with another β (seconds)
   */
  public Platform withBeta(double newBeta) {
    return of(k, newBeta, senderDelta, receiverDelta);
  }

  @Override
  public String toString() {
    return "Platform[k="
        + k
        + ", beta="
        + beta
        + " s, senderDelta="
        + Arrays.toString(senderDelta)
        + ", receiverDelta="
        + Arrays.toString(receiverDelta)
        + "]";
  }
}
