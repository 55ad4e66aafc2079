package io.wanshuffle.cli.units;

import java.time.Duration;
import java.util.List;
import picocli.CommandLine.TypeConversionException;

/**
 * The duration converters of the options ({@link Durations} reads the text). Each names, in its
 * class name, the option's unit (a bare number's) and whether zero is allowed: {@code Seconds} (a
 * setup delay β: zero or more seconds), {@code PositiveSeconds} (a time limit), {@code
 * WholeSeconds} (a positive whole number of seconds), {@code PositiveMillis}, {@code WholeMillis}
 * (zero or more whole milliseconds: a round trip, a delay) and {@code PositiveDuration} (a {@link
 * Duration}, bare numbers in seconds).
 */
public final class DurationConverters {
  private DurationConverters() {}

  /** Base of the converters: the unit of a bare number and whether zero is allowed. */
  private abstract static class Base<T> implements UnitConverter<T> {
    private final String bareUnit;
    private final boolean zeroAllowed;

    Base(String bareUnit, boolean zeroAllowed) {
      this.bareUnit = bareUnit;
      this.zeroAllowed = zeroAllowed;
    }

    @Override
    public String bareUnit() {
      return bareUnit;
    }

    @Override
    public boolean zeroAllowed() {
      return zeroAllowed;
    }

    @Override
    public List<String> units() {
      return Durations.UNITS;
    }

    /**
     * @return the value in {@link #bareUnit()}
     */
    double amount(String value) {
      return Durations.parse(value, bareUnit, zeroAllowed);
    }

    /**
     * @return the value as a whole number of {@link #bareUnit()} that fits an int
     * @throws TypeConversionException when it has a fraction or does not fit
     */
    int whole(String value) {
      double a = amount(value);
      if (a != Math.rint(a) || a > Integer.MAX_VALUE) {
        throw new TypeConversionException(
            "'"
                + value
                + "' is not a whole number of "
                + (bareUnit.equals("s") ? "seconds" : "milliseconds")
                + " up to "
                + Integer.MAX_VALUE);
      }
      return (int) a;
    }
  }

  /** Zero or more seconds (a bare number is seconds), as a double. */
  public static final class Seconds extends Base<Double> {
    /** Bare numbers in seconds, zero allowed. */
    public Seconds() {
      super("s", true);
    }

    @Override
    public Double convert(String value) {
      return amount(value);
    }
  }

  /** More than zero seconds (a bare number is seconds), as a double. */
  public static final class PositiveSeconds extends Base<Double> {
    /** Bare numbers in seconds, zero refused. */
    public PositiveSeconds() {
      super("s", false);
    }

    @Override
    public Double convert(String value) {
      return amount(value);
    }
  }

  /** A whole number of seconds above zero (a bare number is seconds), as an int. */
  public static final class WholeSeconds extends Base<Integer> {
    /** Bare numbers in seconds, zero refused. */
    public WholeSeconds() {
      super("s", false);
    }

    @Override
    public Integer convert(String value) {
      return whole(value);
    }
  }

  /** More than zero milliseconds (a bare number is milliseconds), as a double. */
  public static final class PositiveMillis extends Base<Double> {
    /** Bare numbers in milliseconds, zero refused. */
    public PositiveMillis() {
      super("ms", false);
    }

    @Override
    public Double convert(String value) {
      return amount(value);
    }
  }

  /** Zero or more whole milliseconds (a bare number is milliseconds), as an int. */
  public static final class WholeMillis extends Base<Integer> {
    /** Bare numbers in milliseconds, zero allowed. */
    public WholeMillis() {
      super("ms", true);
    }

    @Override
    public Integer convert(String value) {
      return whole(value);
    }
  }

  /** A {@link Duration} above zero (a bare number is seconds), to the millisecond. */
  public static final class PositiveDuration extends Base<Duration> {
    /** Bare numbers in seconds, zero refused. */
    public PositiveDuration() {
      super("s", false);
    }

    @Override
    public Duration convert(String value) {
      double seconds = amount(value);
      if (seconds * 1000 >= Long.MAX_VALUE) {
        throw new TypeConversionException("'" + value + "' is too long a duration");
      }
      long millis = Math.round(seconds * 1000);
      if (millis == 0) {
        throw new TypeConversionException("'" + value + "' is shorter than 1 ms");
      }
      return Duration.ofMillis(millis);
    }
  }
}
