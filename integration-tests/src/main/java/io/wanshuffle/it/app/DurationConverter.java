package io.wanshuffle.it.app;

import java.time.Duration;
import org.apache.spark.network.util.JavaUtils;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration in Spark's time syntax ({@code 90s}, {@code 30min}, {@code 2h}; Spark's {@code
 * JavaUtils}).
 */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Duration.ofMillis(JavaUtils.timeStringAsMs(value));
    } catch (RuntimeException e) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration (e.g. 90s, 30min, 2h): " + e.getMessage());
    }
  }
}
