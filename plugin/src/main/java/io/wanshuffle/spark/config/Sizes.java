package io.wanshuffle.spark.config;

import org.apache.spark.network.util.JavaUtils;

/**
 * Sizes in Spark's syntax, in bytes: a bare number is bytes, {@code k}/{@code kb} = 1024, {@code
 * m}/{@code mb} = 1024^2, {@code g}/{@code gb} = 1024^3 ({@code 512k}, {@code 4m}); Spark's parser
 * refuses negative sizes.
 */
final class Sizes {
  /** Sizes of at least 0 bytes. */
  static final ValueType<Long> TYPE = ValueType.of("size in bytes (`512k`, `4m`)", Sizes::bytes);

  private Sizes() {}

  private static long bytes(String key, String text) {
    try {
      return JavaUtils.byteStringAsBytes(text);
    } catch (RuntimeException e) {
      throw new ConfigValueException(
          key, text, "expected a size of at least 0 such as 0, 512k, 4m (bytes)");
    }
  }
}
