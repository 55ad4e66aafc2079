package io.wanshuffle.spark.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses transfer rates such as {@code 100mbit}, {@code 1gbit/s}, {@code 12500000} or {@code 100m}
 * into bytes per second.
 *
 * <p>Bit units are decimal, as network rates are: {@code bit}, {@code kbit} (10^3), {@code mbit}
 * (10^6), {@code gbit} (10^9), also written {@code bps}, {@code kbps}, {@code mbps}, {@code gbps}.
 * Byte units follow Spark's size convention (binary): a bare number or {@code b} is bytes/s, {@code
 * k}/{@code kb} = 1024, {@code m}/{@code mb} = 1024^2, {@code g}/{@code gb} = 1024^3. An optional
 * {@code /s} suffix is ignored. Fractions are allowed ({@code 2.5gbit}); the result is rounded down
 * to whole bytes per second and must be at least 1.
 */
final class Rates {
  /** Rates as a configuration value type, bytes/s. */
  static final ValueType<Long> TYPE = ValueType.of("rate", Rates::parse);

  private static final Pattern RATE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]*)(?:/s)?");

  private Rates() {}

  /**
   * @param key configuration key (for the error message)
   * @param text the rate as written
   * @return bytes per second, at least 1
   * @throws ConfigValueException if the text is not a rate or is below 1 byte/s
   */
  static long parse(String key, String text) {
    Matcher m = RATE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ConfigValueException(
          key, text, "expected a rate such as 100mbit, 1gbit, 12500000 (bytes/s) or 100m (MiB/s)");
    }
    double n = Double.parseDouble(m.group(1));
    double bytes;
    switch (m.group(2)) {
      case "", "b" -> bytes = n;
      case "k", "kb" -> bytes = n * 1024;
      case "m", "mb" -> bytes = n * 1024 * 1024;
      case "g", "gb" -> bytes = n * 1024 * 1024 * 1024;
      case "bit", "bps" -> bytes = n / 8;
      case "kbit", "kbps" -> bytes = n * 1e3 / 8;
      case "mbit", "mbps" -> bytes = n * 1e6 / 8;
      case "gbit", "gbps" -> bytes = n * 1e9 / 8;
      default ->
          throw new ConfigValueException(
              key,
              text,
              "unknown rate unit '" + m.group(2) + "'; use bit, kbit, mbit, gbit, b, k, m or g");
    }
    if (bytes < 1 || bytes > Long.MAX_VALUE / 2) {
      throw new ConfigValueException(key, text, "rate must be between 1 byte/s and 2^62 bytes/s");
    }
    return (long) Math.floor(bytes);
  }
}
