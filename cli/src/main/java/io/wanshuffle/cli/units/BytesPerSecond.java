package io.wanshuffle.cli.units;

import io.wanshuffle.cli.DecimalNumber;
import java.util.List;
import picocli.CommandLine.TypeConversionException;

/**
 * A rate in bytes per second written as a bare decimal number ({@link DecimalNumber}'s syntax),
 * finite and above zero, e.g. {@code 125000000} (1 Gbit/s). A unit is refused: the options that
 * take one say so.
 */
public final class BytesPerSecond implements UnitConverter<Double> {
  @Override
  public String bareUnit() {
    return "bytes/s";
  }

  @Override
  public boolean zeroAllowed() {
    return false;
  }

  @Override
  public List<String> units() {
    return List.of();
  }

  /**
   * @param value the option's text
   * @return the rate, bytes/s
   * @throws TypeConversionException naming the value when it is not a finite decimal number above
   *     zero
   */
  @Override
  public Double convert(String value) {
    String v = value.strip();
    if (!DecimalNumber.isDecimal(v)) {
      throw new TypeConversionException(
          "'" + value + "' is not a number of bytes per second (e.g. 125000000 for 1 Gbit/s)");
    }
    double d = Double.parseDouble(v);
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new TypeConversionException(
          "'" + value + "' must be a finite number of bytes per second above 0");
    }
    return d;
  }
}
