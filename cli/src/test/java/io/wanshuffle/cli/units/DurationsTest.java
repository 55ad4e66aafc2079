package io.wanshuffle.cli.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationsTest {
  @Test
  void aBareNumberIsInTheOptionsUnitAndAUnitConverts() {
    assertEquals(900.0, Durations.parse("900", "s", false));
    assertEquals(0.5, Durations.parse("500ms", "s", false));
    assertEquals(1800.0, Durations.parse("30min", "s", false));
    assertEquals(1800.0, Durations.parse("30m", "s", false));
    assertEquals(7200.0, Durations.parse(" 2 h ", "s", false));
    assertEquals(40.0, Durations.parse("0.04s", "ms", true));
    assertEquals(40.0, Durations.parse("4e1", "ms", true));
    assertEquals(0.0, Durations.parse("0", "ms", true));
    assertEquals(0.0, Durations.parse("-0", "s", true));
  }

  @Test
  void negativeZeroWhereRefusedUnknownUnitsAndWordsAreRefusedWithTheValue() {
    String[][] cases = {
      {"-5", "'-5' is negative"},
      {"0", "'0' must be more than 0"},
      {"0ms", "'0ms' must be more than 0"},
      {"5parsecs", "'5parsecs' has an unknown unit 'parsecs'"},
      {"soon", "'soon' is not a duration"},
      {"", "'' is not a duration"},
      {"1e999", "'1e999' is too large"},
      {"1e-999", "'1e-999' is too small"},
      {"0x10", "'0x10' is not a duration"},
    };
    for (String[] c : cases) {
      TypeConversionException e =
          assertThrows(
              TypeConversionException.class, () -> Durations.parse(c[0], "s", false), c[0]);
      assertTrue(e.getMessage().startsWith(c[1]), e.getMessage());
      assertTrue(e.getMessage().endsWith("a bare number is seconds)"), e.getMessage());
    }
  }

  @Test
  void theConvertersKeepTheirUnitsAndRanges() {
    assertEquals(0.0, new DurationConverters.Seconds().convert("0"));
    assertEquals(0.1, new DurationConverters.Seconds().convert("100ms"));
    assertThrows(
        TypeConversionException.class, () -> new DurationConverters.PositiveSeconds().convert("0"));
    assertEquals(60, new DurationConverters.WholeSeconds().convert("1min"));
    TypeConversionException half =
        assertThrows(
            TypeConversionException.class,
            () -> new DurationConverters.WholeSeconds().convert("1.5"));
    assertTrue(half.getMessage().contains("not a whole number of seconds"), half.getMessage());
    assertEquals(40, new DurationConverters.WholeMillis().convert("40"));
    assertEquals(0, new DurationConverters.WholeMillis().convert("0s"));
    assertEquals(250.0, new DurationConverters.PositiveMillis().convert("0.25s"));
    assertEquals(Duration.ofMinutes(15), new DurationConverters.PositiveDuration().convert("900"));
    assertEquals(
        Duration.ofMillis(1500), new DurationConverters.PositiveDuration().convert("1.5s"));
    assertThrows(
        TypeConversionException.class,
        () -> new DurationConverters.PositiveDuration().convert("0.1ms"));
  }

  @Test
  void bytesPerSecondAreABarePositiveNumber() {
    assertEquals(125e6, new BytesPerSecond().convert("125000000"));
    assertEquals(1.25e8, new BytesPerSecond().convert("1.25e8"));
    for (String bad : new String[] {"0", "-1", "100mbit", "1e999", "fast"}) {
      TypeConversionException e =
          assertThrows(TypeConversionException.class, () -> new BytesPerSecond().convert(bad));
      assertTrue(e.getMessage().startsWith("'" + bad + "'"), e.getMessage());
    }
  }
}
