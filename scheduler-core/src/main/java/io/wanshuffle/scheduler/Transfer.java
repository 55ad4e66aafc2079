package io.wanshuffle.scheduler;

/**
 * One transfer inside a step: sender {@code src} (row) sends {@code amount} seconds' worth of data
 * (at base speed) to receiver {@code dst} (column). A traffic matrix entry may be split into
 * several transfers in several steps (preemption).
 *
 * @param src zero-based sender index
 * @param dst zero-based receiver index
 * @param amount seconds at base speed, &gt; 0
 */
public record Transfer(int src, int dst, double amount) {
  /**
   * @throws IllegalArgumentException on a negative index or a non-positive or non-finite amount
   */
  public Transfer {
    if (src < 0 || dst < 0) {
      throw new IllegalArgumentException("transfer indices must be >= 0, got " + src + "->" + dst);
    }
    if (!(amount > 0) || Double.isInfinite(amount)) {
      throw new IllegalArgumentException(
          "transfer " + src + "->" + dst + " amount must be finite and > 0, got " + amount);
    }
  }
}
