package io.wanshuffle.cli.units;

import io.wanshuffle.cli.DecimalNumber;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration: a decimal number ({@link DecimalNumber}'s syntax) followed by a unit, {@code
 * ms}, {@code s}, {@code min} (or {@code m}) or {@code h}, e.g. {@code 500ms}, {@code 1.5s}, {@code
 * 30min}; or a bare number in the option's unit. Spark's time strings in these units read the same
 * (Spark reads a bare number as milliseconds, an option here as its help says).
 */
public final class Durations {
  /** The units a duration may carry, in milliseconds each. */
  private static final Map<String, Double> MILLIS =
      Map.of("ms", 1.0, "s", 1e3, "m", 60e3, "min", 60e3, "h", 3600e3);

  /** The units as help texts and errors list them. */
  public static final List<String> UNITS = List.of("ms", "s", "min", "h");

  private static final Pattern FORM =
      Pattern.compile("([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*([a-zA-Z]*)");

  private Durations() {}

  /**
   * @param value the option's text, e.g. {@code 90s} or {@code 90}
   * @param bareUnit the unit of a bare number, {@code s} or {@code ms}
   * @param zeroAllowed whether zero is a value (else refused)
   * @return the duration in {@code bareUnit}, finite and not negative (positive unless {@code
   *     zeroAllowed})
   * @throws TypeConversionException naming the value and what is expected when it is not a
   *     duration, is negative, is zero and zero is not allowed, or is too large or too small to be
   *     a double
   */
  public static double parse(String value, String bareUnit, boolean zeroAllowed) {
    Matcher m = FORM.matcher(value.strip());
    if (!m.matches()) {
      throw refused(value, "is not a duration", bareUnit);
    }
    String number = m.group(1);
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    if (!unit.isEmpty() && !MILLIS.containsKey(unit)) {
      throw refused(value, "has an unknown unit '" + m.group(2) + "'", bareUnit);
    }
    if (number.startsWith("-") && DecimalNumber.isNonZero(number)) {
      throw refused(value, "is negative", bareUnit);
    }
    double amount = Math.abs(Double.parseDouble(number));
    double inBare = unit.isEmpty() ? amount : amount * MILLIS.get(unit) / MILLIS.get(bareUnit);
    if (Double.isInfinite(inBare)) {
      throw refused(value, "is too large", bareUnit);
    }
    if (inBare == 0 && DecimalNumber.isNonZero(number)) {
      throw refused(value, "is too small (it would become 0)", bareUnit);
    }
    if (inBare == 0 && !zeroAllowed) {
      throw refused(value, "must be more than 0", bareUnit);
    }
    return inBare;
  }

  /**
   * @return the error: the value, what is wrong, and the syntax
   */
  private static TypeConversionException refused(String value, String problem, String bareUnit) {
    return new TypeConversionException(
        "'"
            + value
            + "' "
            + problem
            + " (a duration such as 500ms, 30s, 2min or 1h; a bare number is "
            + (bareUnit.equals("s") ? "seconds" : "milliseconds")
            + ")");
  }
}
