package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DecimalsTest {
  private static final ValueType<Double> FACTOR = Decimals.between(1, 1000);

  @Test
  void plainDecimalsWithinTheBounds() {
    assertEquals(3.0, FACTOR.parse("f", "3"));
    assertEquals(1.5, FACTOR.parse("f", " 1.5 "));
    assertEquals(20.0, FACTOR.parse("f", "2e1"));
    assertEquals(1000.0, FACTOR.parse("f", "1000"));
    assertEquals("decimal number 1..1000", FACTOR.describe());
    assertEquals("decimal number 0.5..2.25", Decimals.between(0.5, 2.25).describe());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.5", "1000.5", "1e308", "3d", "0x1p3", "NaN", "Infinity", "-2", ""})
  void outOfBoundsOrNotPlainIsRefused(String bad) {
    assertEquals(
        "f = '" + bad + "': must be a decimal number >= 1.0 and <= 1000.0",
        assertThrows(ConfigValueException.class, () -> FACTOR.parse("f", bad)).getMessage());
  }
}
