package io.wanshuffle.spark.config;

import java.util.concurrent.TimeUnit;
import org.apache.spark.network.util.JavaUtils;

/**
 * Times in Spark's syntax ({@code 200ms}, {@code 5s}, {@code 2min}; a bare number is milliseconds,
 * as Spark's {@code getTimeAsMs} reads it), in whole milliseconds from a lower bound to {@value
 * #MAX_MS} ms (365 days).
 *
 * <p>A non-zero time under 1 ms ({@code 500us}) is refused: it would read as 0 ms, which for some
 * keys means "off" or "unbounded".
 */
final class Times {
  /**
   * Longest time any key takes (365 days, ms): deadlines and RPC waits built from it fit a long.
   */
  static final long MAX_MS = 365L * 24 * 3600 * 1000;

  private Times() {}

  /**
   * @param minMs the shortest time accepted, ms (0 or 1)
   * @return times of at least {@code minMs} and at most 365 days, parsed to milliseconds
   */
  static ValueType<Long> atLeast(long minMs) {
    return ValueType.of(
        minMs == 0 ? "time" : "time, at least " + minMs + " ms",
        (key, text) -> ms(key, text, minMs));
  }

  private static long ms(String key, String text, long minMs) {
    long ms;
    boolean underOneMs;
    try {
      ms = JavaUtils.timeStringAsMs(text);
      // a bare number is ms (never under 1 ms but for 0); with a unit, 500us reads as 0 ms
      underOneMs = ms == 0 && JavaUtils.timeStringAs(text, TimeUnit.MICROSECONDS) > 0;
    } catch (RuntimeException e) {
      throw new ConfigValueException(key, text, "expected a time such as 200ms, 5s, 2min");
    }
    if (underOneMs) {
      throw new ConfigValueException(
          key, text, "under 1 ms, which would read as 0 ms; give 0 or at least 1ms");
    }
    if (ms < minMs) {
      throw new ConfigValueException(key, text, "must be at least " + minMs + " ms");
    }
    if (ms > MAX_MS) {
      throw new ConfigValueException(key, text, "must be at most 365d");
    }
    return ms;
  }
}
