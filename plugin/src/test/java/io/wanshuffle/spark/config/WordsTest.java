package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WordsTest {
  @Test
  void oneOfTheWordsInLowerCase() {
    ValueType<String> mode = Words.of("pipelined", "barrier");
    assertEquals("barrier", mode.parse("m", " Barrier "));
    assertEquals("pipelined", mode.parse("m", "PIPELINED"));
    assertEquals("`pipelined` or `barrier`", mode.describe());
  }

  @Test
  void anotherWordIsEchoedAsGiven() {
    assertEquals(
        "m = ' Early ': expected predicted or arrival",
        assertThrows(
                ConfigValueException.class,
                () -> Words.of("predicted", "arrival").parse("m", " Early "))
            .getMessage());
    assertEquals(
        "m = 'd': expected a, b or c",
        assertThrows(ConfigValueException.class, () -> Words.of("a", "b", "c").parse("m", "d"))
            .getMessage());
    assertEquals("`a`, `b` or `c`", Words.of("a", "b", "c").describe());
  }

  @Test
  void trueOrFalseIsABoolean() {
    assertTrue(Words.trueOrFalse().parse("b", "TRUE"));
    assertFalse(Words.trueOrFalse().parse("b", " false "));
    assertEquals(
        "b = 'yes': expected true or false",
        assertThrows(ConfigValueException.class, () -> Words.trueOrFalse().parse("b", "yes"))
            .getMessage());
  }
}
