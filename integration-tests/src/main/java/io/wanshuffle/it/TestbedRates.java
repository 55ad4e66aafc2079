package io.wanshuffle.it;

import io.wanshuffle.cli.units.UnitConverter;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import picocli.CommandLine.TypeConversionException;

/**
 * The testbed's link rates as options take them ({@code --nic}, {@code --backbone}, {@code
 * --rack-uplink}): tc's units, {@code 100mbit}, {@code 1gbit}, {@code 500kbit}, {@code 64000bit}
 * (decimal bits per second; {@link TestbedSpec#parseRate}). A bare number is refused.
 */
public final class TestbedRates {
  private TestbedRates() {}

  /** A link rate, in bits per second. */
  public static final class Rate implements UnitConverter<Long> {
    @Override
    public String bareUnit() {
      return null;
    }

    @Override
    public boolean zeroAllowed() {
      return false;
    }

    @Override
    public List<String> units() {
      return List.of("bit", "kbit", "mbit", "gbit");
    }

    /**
     * @param value the option's text
     * @return bits per second
     * @throws TypeConversionException naming the value when it is not a rate with a unit
     */
    @Override
    public Long convert(String value) {
      try {
        return TestbedSpec.parseRate(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A link rate, or {@code none} for a link left unshaped ({@link TestbedSpec#UNSHAPED}). */
  public static final class RateOrNone implements UnitConverter<Long> {
    private final Rate rate = new Rate();

    @Override
    public String bareUnit() {
      return null;
    }

    @Override
    public boolean zeroAllowed() {
      return false;
    }

    @Override
    public List<String> units() {
      return rate.units();
    }

    /**
     * @param value the option's text
     * @return bits per second, or {@link TestbedSpec#UNSHAPED} for {@code none}
     * @throws TypeConversionException naming the value when it is neither
     */
    @Override
    public Long convert(String value) {
      return value.strip().equalsIgnoreCase("none") ? TestbedSpec.UNSHAPED : rate.convert(value);
    }
  }
}
