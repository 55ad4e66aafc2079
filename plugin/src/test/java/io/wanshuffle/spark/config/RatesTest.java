package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RatesTest {
  @ParameterizedTest
  @CsvSource({
    "100mbit, 12500000",
    "1gbit/s, 125000000",
    "800kbit, 100000",
    "8bps, 1",
    "12500000, 12500000",
    "12m, 12582912",
    "2k, 2048",
    "1G, 1073741824",
    "2.5gbit, 312500000",
    "12.5MB/s, 12500000",
    "100mb, 104857600",
    "1MiB/s, 1048576",
  })
  void bitUnitsAndBytesPerSecondAreDecimalBareSuffixesBinary(String text, long bytesPerSecond) {
    assertEquals(bytesPerSecond, Rates.TYPE.parse("k", text));
  }

  @Test
  void wrongRatesNameKeyAndValue() {
    assertEquals(
        "r = '12 parsecs': unknown rate unit 'parsecs'; use bit, kbit, mbit, gbit, tbit (or bps,"
            + " kbps, ...), B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, or k, m, g, t"
            + " as in 100m (MiB/s)",
        assertThrows(ConfigValueException.class, () -> Rates.TYPE.parse("r", "12 parsecs"))
            .getMessage());
    assertEquals(
        "r = '7bit': rate must be between 1 byte/s and 2^62 bytes/s",
        assertThrows(ConfigValueException.class, () -> Rates.TYPE.parse("r", "7bit")).getMessage());
    assertEquals(
        "r = '-5mbit': expected a rate such as 100mbit, 1gbit, 12500000 (bytes/s) or 100m (MiB/s)",
        assertThrows(ConfigValueException.class, () -> Rates.TYPE.parse("r", "-5mbit"))
            .getMessage());
    assertEquals(
        "r = '5000000tb': rate must be between 1 byte/s and 2^62 bytes/s",
        assertThrows(ConfigValueException.class, () -> Rates.TYPE.parse("r", "5000000tb"))
            .getMessage());
    assertEquals("rate", Rates.TYPE.describe());
  }
}
