package io.wanshuffle.scheduler.io;

import static io.wanshuffle.scheduler.io.RateSyntax.Dialect.DECIMAL;
import static io.wanshuffle.scheduler.io.RateSyntax.Dialect.SPARK_SIZES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.io.RateSyntax.Dialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class RateSyntaxTest {
  /** The forms both readers share mean the same bytes/s in both. */
  @ParameterizedTest
  @CsvSource({
    "100mbit, 12500000",
    "1gbit, 125000000",
    "1gbit/s, 125000000",
    "1 Gbit, 125000000",
    "800kbit, 100000",
    "2.5gbit, 312500000",
    "10Gbps, 1250000000",
    "8bps, 1",
    "1tbit, 125000000000",
    "12.5MB/s, 12500000",
    "12.5mb/s, 12500000",
    "1.5 GB/s, 1500000000",
    "300kB/s, 300000",
    "2TB/s, 2000000000000",
    "12500000, 12500000",
    "12500000 B/s, 12500000",
    "12.9, 12",
    "1MiB/s, 1048576",
    "2KiB, 2048",
    "1.5GiB/s, 1610612736",
    "4611686018427387903, 4611686018427387903",
  })
  void theSharedFormsMeanTheSameInBothDialects(String text, long bytesPerSecond) {
    for (Dialect d : Dialect.values()) {
      assertEquals(bytesPerSecond, RateSyntax.parse(text, d), text + " in " + d);
    }
    assertEquals(
        RateSyntax.parse("100mbit", DECIMAL),
        RateSyntax.parse("12.5MB/s", SPARK_SIZES),
        "100mbit is 12.5MB/s");
  }

  /** The bare suffixes keep what each reader meant by them. */
  @ParameterizedTest
  @CsvSource({
    "2500M, 2500000000, 2621440000",
    "2500m, 2500000000, 2621440000",
    "5G, 5000000000, 5368709120",
    "5g/s, 5000000000, 5368709120",
    "2k, 2000, 2048",
    "1T, 1000000000000, 1099511627776",
    "12m, 12000000, 12582912",
  })
  void aBareSuffixIsDecimalInTheTopologyFileAndBinaryInSparkKeys(
      String text, long decimal, long binary) {
    assertEquals(decimal, RateSyntax.parse(text, DECIMAL));
    assertEquals(binary, RateSyntax.parse(text, SPARK_SIZES));
  }

  @Test
  void sparksSizeUnitsWithoutPerSecondAreReadInSparkKeysOnly() {
    assertEquals(12_582_912L, RateSyntax.parse("12mb", SPARK_SIZES));
    assertEquals(2048L, RateSyntax.parse("2kb", SPARK_SIZES));
    assertEquals(1_073_741_824L, RateSyntax.parse("1GB", SPARK_SIZES));
    assertEquals(500L, RateSyntax.parse("500b", SPARK_SIZES));
    RateSyntaxException e =
        assertThrows(RateSyntaxException.class, () -> RateSyntax.parse("12mb", DECIMAL));
    assertEquals(RateSyntaxException.Problem.UNIT, e.problem());
    assertEquals(
        "'12mb' is not a rate: unknown rate unit 'mb'; write mb/s (bytes per second)",
        e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void badRatesAreRefusedNamingTheValue(Dialect d) {
    for (String bad :
        new String[] {"", "fast", "-5mbit", "+5G", "\u0662k", "5 000", "0x10", "1e9", "1,5gbit"}) {
      RateSyntaxException e =
          assertThrows(RateSyntaxException.class, () -> RateSyntax.parse(bad, d), bad);
      assertTrue(e.getMessage().startsWith("'" + bad + "' is not a rate: "), e.getMessage());
      assertEquals(bad, e.text());
    }
    RateSyntaxException syntax =
        assertThrows(RateSyntaxException.class, () -> RateSyntax.parse("fast", d));
    assertEquals(RateSyntaxException.Problem.SYNTAX, syntax.problem());
    assertEquals("expected a rate such as " + RateSyntax.examples(d), syntax.reason());
    RateSyntaxException unit =
        assertThrows(RateSyntaxException.class, () -> RateSyntax.parse("12 parsecs", d));
    assertEquals(RateSyntaxException.Problem.UNIT, unit.problem());
    assertTrue(
        unit.reason().startsWith("unknown rate unit 'parsecs'; use bit, kbit"), unit.reason());
    assertTrue(unit.reason().endsWith(d.example()), unit.reason());
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void aRateIsAtLeastOneByteAndAtMostTheLimit(Dialect d) {
    for (String small : new String[] {"0", "0.5", "7bit", "0mbit"}) {
      RateSyntaxException e =
          assertThrows(RateSyntaxException.class, () -> RateSyntax.parse(small, d), small);
      assertEquals(RateSyntaxException.Problem.TOO_SMALL, e.problem(), small);
      assertEquals("'" + small + "' is not a rate: below 1 byte/s", e.getMessage());
    }
    for (String big :
        new String[] {"4611686018427387904", "99999999999999999999", "5000000T", "40000000tbit"}) {
      RateSyntaxException e =
          assertThrows(RateSyntaxException.class, () -> RateSyntax.parse(big, d), big);
      assertEquals(RateSyntaxException.Problem.TOO_LARGE, e.problem(), big);
      assertEquals(
          "'" + big + "' is not a rate: above " + RateSyntax.MAX + " bytes/s", e.getMessage());
    }
    assertEquals(RateSyntax.MAX, RateSyntax.parse(Long.toString(RateSyntax.MAX), d));
  }
}
