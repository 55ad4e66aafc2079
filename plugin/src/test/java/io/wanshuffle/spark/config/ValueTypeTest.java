package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ValueTypeTest {
  private static final ValueType<Integer> LENGTH =
      ValueType.of(
          "word",
          (key, text) -> {
            if (text.isBlank()) {
              throw new ConfigValueException(key, text, "a word");
            }
            return text.length();
          });

  @Test
  void ofParsesAndDescribes() {
    assertEquals(3, LENGTH.parse("k", "abc"));
    assertEquals("word", LENGTH.describe());
    ConfigValueException e = assertThrows(ConfigValueException.class, () -> LENGTH.parse("k", " "));
    assertEquals("k = ' ': a word", e.getMessage());
  }

  @Test
  void expectingReplacesTheErrorTextButKeepsKeyAndValue() {
    ValueType<Integer> t = LENGTH.expecting("some letters");
    assertEquals(2, t.parse("k", "ab"));
    assertEquals("word", t.describe());
    ConfigValueException e = assertThrows(ConfigValueException.class, () -> t.parse("key", "  "));
    assertEquals("key", e.key());
    assertEquals("  ", e.value());
    assertEquals("key = '  ': some letters", e.getMessage());
  }

  @Test
  void mapConvertsTheValueAndKeepsTheErrors() {
    ValueType<String> t = LENGTH.map(n -> "n=" + n);
    assertEquals("n=4", t.parse("k", "abcd"));
    assertEquals("word", t.describe());
    assertEquals(
        "k = '': a word",
        assertThrows(ConfigValueException.class, () -> t.parse("k", "")).getMessage());
  }
}
