package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.io.RateSyntax;
import io.wanshuffle.scheduler.io.RateSyntaxException;

/**
 * Transfer rates such as {@code 100mbit}, {@code 1gbit/s}, {@code 12.5MB/s}, {@code 12500000} or
 * {@code 100m}, read into bytes per second by scheduler-core's {@link RateSyntax}, the syntax the
 * topology file shares (docs/configuration.md, "Rates").
 *
 * <p>Bit units are decimal, as network rates are ({@code kbit} = 10^3 bits/s); {@code kB/s}, {@code
 * MB/s}, ... are decimal bytes, {@code KiB/s}, {@code MiB/s}, ... binary bytes. A bare suffix
 * follows Spark's size convention (binary): {@code k}/{@code kb} = 1024, {@code m}/{@code mb} =
 * 1024^2, {@code g}/{@code gb} = 1024^3 bytes/s. Fractions are allowed ({@code 2.5gbit}); the
 * result is rounded down to whole bytes per second and must be at least 1.
 */
final class Rates {
  /** Rates as a configuration value type, bytes/s. */
  static final ValueType<Long> TYPE = ValueType.of("rate", Rates::parse);

  private Rates() {}

  /**
   * @param key configuration key (for the error message)
   * @param text the rate as written
   * @return bytes per second, at least 1
   * @throws ConfigValueException naming the key and the text if it is not a rate or is below 1
   *     byte/s or above 2^62 bytes/s
   */
  static long parse(String key, String text) {
    try {
      return RateSyntax.parse(text, RateSyntax.Dialect.SPARK_SIZES);
    } catch (RateSyntaxException e) {
      throw new ConfigValueException(
          key,
          text,
          switch (e.problem()) {
            case SYNTAX ->
                "expected a rate such as 100mbit, 1gbit, 12500000 (bytes/s) or 100m (MiB/s)";
            case UNIT -> e.reason();
            case TOO_SMALL, TOO_LARGE -> "rate must be between 1 byte/s and 2^62 bytes/s";
          });
    }
  }
}
