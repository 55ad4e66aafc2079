package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OrWordsTest {
  private static final ValueType<Choice<Long>> CAP = OrWords.of(Rates.TYPE, "off", "base");

  @Test
  void aWordOrAValueOfTheOtherType() {
    assertTrue(CAP.parse("c", " BASE ").is("base"));
    assertTrue(CAP.parse("c", "off").is("off"));
    Choice<Long> rate = CAP.parse("c", "100mbit");
    assertEquals(null, rate.word());
    assertEquals(12_500_000L, rate.value());
    assertEquals("`off`, `base` or rate", CAP.describe());
  }

  @Test
  void anythingElseFailsWithTheOtherTypesError() {
    assertEquals(
        "c = 'quick': expected a rate such as 100mbit, 1gbit, 12500000 (bytes/s) or 100m (MiB/s)",
        assertThrows(ConfigValueException.class, () -> CAP.parse("c", "quick")).getMessage());
  }

  @Test
  void aChoiceIsAWordOrAValueNotBothNorNone() {
    assertThrows(IllegalArgumentException.class, () -> new Choice<>("auto", 1L));
    assertThrows(IllegalArgumentException.class, () -> new Choice<Long>(null, null));
  }
}
