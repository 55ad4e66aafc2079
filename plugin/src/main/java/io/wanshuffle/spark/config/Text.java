package io.wanshuffle.spark.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Free-text values: names, paths, lists of names. Checking them (an algorithm the registry knows, a
 * folder that can be written, a class that loads) is up to the code that uses them.
 */
final class Text {
  private Text() {}

  /**
   * @param description the documentation's type column, e.g. {@code path}
   * @return the text without surrounding blanks
   */
  static ValueType<String> trimmed(String description) {
    return ValueType.of(description, (key, text) -> text.trim());
  }

  /**
   * @param description the documentation's type column, e.g. {@code name}
   * @return the text without surrounding blanks, in lower case
   */
  static ValueType<String> lowerCase(String description) {
    return ValueType.of(description, (key, text) -> text.trim().toLowerCase(Locale.ROOT));
  }

  /**
   * @param description the documentation's type column, e.g. {@code class names}
   * @return the comma-separated items, each without surrounding blanks, blank items left out
   */
  static ValueType<List<String>> commaSeparated(String description) {
    return ValueType.of(
        description,
        (key, text) ->
            Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
  }
}
