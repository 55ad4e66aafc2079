package io.wanshuffle.spark.config;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Plain decimal numbers ({@code 3}, {@code 1.5}, {@code 2e1}; no hexadecimal, no Java suffixes such
 * as {@code 3d}) within bounds.
 */
final class Decimals {
  private static final Pattern DECIMAL =
      Pattern.compile("\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  private Decimals() {}

  /**
   * @param min smallest value accepted
   * @param max largest value accepted
   * @return decimals from {@code min} to {@code max}
   */
  static ValueType<Double> between(double min, double max) {
    return ValueType.of(
        "decimal number " + plain(min) + ".." + plain(max),
        (key, text) -> {
          String t = text.trim();
          if (DECIMAL.matcher(t).matches()) {
            double d = Double.parseDouble(t);
            if (d >= min && d <= max) {
              return d;
            }
          }
          throw new ConfigValueException(
              key, text, "must be a decimal number >= " + min + " and <= " + max);
        });
  }

  /** 1000.0 as {@code 1000}, 0.5 as {@code 0.5}. */
  private static String plain(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }
}
