package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextTest {
  @Test
  void trimmedLowerCasedAndCommaSeparated() {
    assertEquals("/data/x", Text.trimmed("path").parse("k", " /data/x "));
    assertEquals("oggp", Text.lowerCase("name").parse("k", " OGGP "));
    assertEquals(
        List.of("a.B", "c.D"), Text.commaSeparated("class names").parse("k", " a.B, ,c.D,"));
    assertEquals(List.of(), Text.commaSeparated("class names").parse("k", ""));
    assertEquals("class names", Text.commaSeparated("class names").describe());
  }
}
