package io.wanshuffle.scheduler.io;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one syntax of link rates, read into whole bytes per second: the topology file's rate keys
 * (docs/topology.md) and the plugin's {@code spark.wanshuffle.*.rate} keys (docs/configuration.md)
 * both read their values here.
 *
 * <p>A rate is a number of ASCII digits with an optional fraction ({@code 12.5}; no sign, no
 * exponent), optional blanks, and a unit, compared without regard to case:
 *
 * <ul>
 *   <li>none, or {@code B/s}: bytes per second ({@code 12500000});
 *   <li>bits per second, decimal as network rates are: {@code bit}, {@code kbit} (10^3), {@code
 *       mbit} (10^6), {@code gbit} (10^9), {@code tbit} (10^12), each with an optional {@code /s},
 *       also written {@code bps}, {@code kbps}, {@code mbps}, {@code gbps}, {@code tbps} ({@code
 *       100mbit} = 12,500,000 bytes/s);
 *   <li>bytes per second, decimal: {@code kB/s}, {@code MB/s}, {@code GB/s}, {@code TB/s} ({@code
 *       12.5MB/s} = 12,500,000 bytes/s);
 *   <li>bytes per second, binary: {@code KiB/s}, {@code MiB/s}, {@code GiB/s}, {@code TiB/s} (the
 *       {@code /s} optional);
 *   <li>a bare suffix {@code k}, {@code m}, {@code g}, {@code t} (with an optional {@code /s}),
 *       whose meaning is the reader's {@link Dialect}: 10^3 .. 10^12 in the topology file ({@code
 *       2500M}), Spark's binary sizes 2^10 .. 2^40 in the plugin's keys ({@code 100m} = 100 MiB/s,
 *       also written {@code 100mb} there).
 * </ul>
 *
 * The value is rounded down to whole bytes per second and must lie in [1, {@link #MAX}] bytes/s.
 */
public final class RateSyntax {
  /**
   * Largest rate, bytes/s: {@code Long.MAX_VALUE / 2}, so that sums of two rates cannot overflow.
   */
  public static final long MAX = Long.MAX_VALUE / 2;

  /** What a bare suffix ({@code k}, {@code m}, {@code g}, {@code t}) means. */
  public enum Dialect {
    /** The topology file: decimal, {@code 2500M} = 2.5 x 10^9 bytes/s. */
    DECIMAL(BigDecimal.valueOf(1000), "2500M (10^6 bytes/s)"),
    /**
     * The plugin's Spark keys: Spark's binary sizes per second, {@code 100m} (or {@code 100mb}) =
     * 100 x 2^20 bytes/s.
     */
    SPARK_SIZES(BigDecimal.valueOf(1024), "100m (MiB/s)");

    private final BigDecimal step;
    private final String example;

    Dialect(BigDecimal step, String example) {
      this.step = step;
      this.example = example;
    }

    /**
     * @return an example of the bare suffix in this dialect with its meaning, for messages
     */
    public String example() {
      return example;
    }
  }

  private static final Pattern RATE =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([a-z]*(?:/s)?)", Pattern.CASE_INSENSITIVE);

  private static final BigDecimal EIGHT = BigDecimal.valueOf(8);

  private RateSyntax() {}

  /**
   * @param dialect what a bare suffix means
   * @return the syntax in one line, for messages: e.g. {@code 100mbit, 1gbit, 12.5MB/s, 12500000
   *     (bytes/s) or 100m (MiB/s)}
   */
  public static String examples(Dialect dialect) {
    return "100mbit, 1gbit, 12.5MB/s, 12500000 (bytes/s) or " + dialect.example();
  }

  /**
   * Reads a rate.
   *
   * @param text the rate as written (surrounding blanks ignored)
   * @param dialect what a bare suffix means
   * @return bytes per second, rounded down, in [1, {@link #MAX}]
   * @throws RateSyntaxException naming {@code text} when it is not a rate, has an unknown unit, or
   *     is below 1 byte/s or above {@link #MAX}
   */
  public static long parse(String text, Dialect dialect) {
    Matcher m = RATE.matcher(text.trim());
    if (!m.matches()) {
      throw new RateSyntaxException(
          text, RateSyntaxException.Problem.SYNTAX, "expected a rate such as " + examples(dialect));
    }
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(bytesPerUnit(text, m.group(2), dialect));
    if (bytes.compareTo(BigDecimal.ONE) < 0) {
      throw new RateSyntaxException(text, RateSyntaxException.Problem.TOO_SMALL, "below 1 byte/s");
    }
    if (bytes.compareTo(BigDecimal.valueOf(MAX)) > 0) {
      throw new RateSyntaxException(
          text, RateSyntaxException.Problem.TOO_LARGE, "above " + MAX + " bytes/s");
    }
    return bytes.setScale(0, RoundingMode.FLOOR).longValueExact();
  }

  /** Bytes/s of one unit, e.g. 125000 for {@code mbit}. */
  private static BigDecimal bytesPerUnit(String text, String unit, Dialect dialect) {
    String u = unit.toLowerCase(Locale.ROOT);
    return switch (u) {
      case "", "b/s" -> BigDecimal.ONE;
      case "bit", "bit/s", "bps" -> BigDecimal.ONE.divide(EIGHT);
      case "kbit", "kbit/s", "kbps" -> decimal(3).divide(EIGHT);
      case "mbit", "mbit/s", "mbps" -> decimal(6).divide(EIGHT);
      case "gbit", "gbit/s", "gbps" -> decimal(9).divide(EIGHT);
      case "tbit", "tbit/s", "tbps" -> decimal(12).divide(EIGHT);
      case "kb/s" -> decimal(3);
      case "mb/s" -> decimal(6);
      case "gb/s" -> decimal(9);
      case "tb/s" -> decimal(12);
      case "kib", "kib/s" -> binary(1);
      case "mib", "mib/s" -> binary(2);
      case "gib", "gib/s" -> binary(3);
      case "tib", "tib/s" -> binary(4);
      case "k", "k/s" -> dialect.step.pow(1);
      case "m", "m/s" -> dialect.step.pow(2);
      case "g", "g/s" -> dialect.step.pow(3);
      case "t", "t/s" -> dialect.step.pow(4);
      case "b", "kb", "mb", "gb", "tb" -> sparkSize(text, u, dialect);
      default ->
          throw new RateSyntaxException(
              text,
              RateSyntaxException.Problem.UNIT,
              "unknown rate unit '"
                  + unit
                  + "'; use bit, kbit, mbit, gbit, tbit (or bps, kbps, ...), B/s, kB/s, MB/s,"
                  + " GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, or k, m, g, t as in "
                  + dialect.example());
    };
  }

  /**
   * Spark's size units without {@code /s} ({@code b}, {@code kb}, {@code mb}, ...), read in the
   * plugin's keys only: binary, as {@code 100m}.
   */
  private static BigDecimal sparkSize(String text, String unit, Dialect dialect) {
    if (dialect != Dialect.SPARK_SIZES) {
      throw new RateSyntaxException(
          text,
          RateSyntaxException.Problem.UNIT,
          "unknown rate unit '" + unit + "'; write " + unit + "/s (bytes per second)");
    }
    return switch (unit) {
      case "b" -> BigDecimal.ONE;
      case "kb" -> binary(1);
      case "mb" -> binary(2);
      case "gb" -> binary(3);
      default -> binary(4);
    };
  }

  private static BigDecimal decimal(int exponent) {
    return BigDecimal.TEN.pow(exponent);
  }

  private static BigDecimal binary(int power) {
    return BigDecimal.valueOf(1024).pow(power);
  }
}
