package io.wanshuffle.cli;

import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one number syntax of the CLI, for matrix cells and for the options {@code --beta}, {@code
 * --rate} and {@code --time-limit}: a plain decimal number, optionally signed, with an optional
 * exponent ({@code 12}, {@code 0.05}, {@code .5}, {@code 2.5e9}). Java's other spellings ({@code
 * 0x1p3}, {@code 1d}, {@code 2f}, {@code NaN}, {@code Infinity}) and non-ASCII digits are refused,
 * so an option reads a number the way a matrix cell does.
 */
public final class DecimalNumber implements ITypeConverter<Double> {
  private static final Pattern SYNTAX =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  /**
   * @param text the text, already stripped of surrounding blanks
   * @return true when it is a plain decimal number (which may still overflow to infinity)
   */
  public static boolean isDecimal(String text) {
    return SYNTAX.matcher(text).matches();
  }

  /**
   * Whether a plain decimal number is non-zero, from its digits (not from its double, which is 0
   * below the smallest double, and not from {@link java.math.BigDecimal}, which refuses exponents
   * beyond an int): {@code 0e9999999999} is zero, {@code 1e-9999999999} is not.
   *
   * @param decimal text for which {@link #isDecimal} holds
   * @return true when a digit before the exponent is not 0
   */
  public static boolean isNonZero(String decimal) {
    for (int i = 0; i < decimal.length(); i++) {
      char c = decimal.charAt(i);
      if (c == 'e' || c == 'E') {
        return false;
      }
      if (c >= '1' && c <= '9') {
        return true;
      }
    }
    return false;
  }

  /**
   * picocli's conversion of an option value.
   *
   * @param value the option's text
   * @return its value; -0 becomes 0
   * @throws TypeConversionException naming the value when it is not a plain decimal number, or when
   *     it is not zero but below the smallest double (it would silently become 0)
   */
  @Override
  public Double convert(String value) {
    String v = value.strip();
    if (!isDecimal(v)) {
      throw new TypeConversionException(
          "'"
              + value
              + "' is not a decimal number (digits, optional"
              + " '.', optional exponent such as 1e-3; no hex, suffixes, NaN or Infinity)");
    }
    double d = Double.parseDouble(v);
    if (d == 0 && isNonZero(v)) {
      throw new TypeConversionException(
          "'" + value + "' is too small (below the smallest double, it" + " would become 0)");
    }
    return d == 0 ? 0.0 : d;
  }
}
