package io.wanshuffle.it.net;

/**
 * Thrown when the shaped testbed cannot be built here (no root, no iproute2, no python3 for
 * latency).
 */
public final class TestbedUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what is missing and how to run the loopback variant instead
   */
  public TestbedUnavailableException(String message) {
    super(message);
  }
}
