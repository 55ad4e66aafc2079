package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TimesTest {
  private static String error(ValueType<Long> t, String text) {
    return assertThrows(ConfigValueException.class, () -> t.parse("t", text)).getMessage();
  }

  @Test
  void spark_syntaxInMillisecondsABareNumberBeingMilliseconds() {
    ValueType<Long> t = Times.atLeast(0);
    assertEquals(200, t.parse("t", "200ms"));
    assertEquals(5000, t.parse("t", " 5s "));
    assertEquals(120_000, t.parse("t", "2min"));
    assertEquals(30, t.parse("t", "30"));
    assertEquals(0, t.parse("t", "0"));
    assertEquals(1, t.parse("t", "1999us"), "whole milliseconds, rounded down");
    assertEquals(Times.MAX_MS, t.parse("t", "365d"));
  }

  @Test
  void boundsAndSyntaxErrorsNameKeyAndValue() {
    assertEquals(
        "t = 'soon': expected a time such as 200ms, 5s, 2min", error(Times.atLeast(0), "soon"));
    assertEquals(
        "t = '500us': under 1 ms, which would read as 0 ms; give 0 or at least 1ms",
        error(Times.atLeast(0), "500us"));
    assertEquals("t = '0ms': must be at least 1 ms", error(Times.atLeast(1), "0ms"));
    assertEquals("t = '366d': must be at most 365d", error(Times.atLeast(1), "366d"));
    assertEquals(
        "t = '9223372036854775807ms': must be at most 365d",
        error(Times.atLeast(1), "9223372036854775807ms"));
  }

  @Test
  void theDescriptionGivesTheLowerBound() {
    assertEquals("time", Times.atLeast(0).describe());
    assertEquals("time, at least 1 ms", Times.atLeast(1).describe());
  }
}
