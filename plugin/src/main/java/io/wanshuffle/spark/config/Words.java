package io.wanshuffle.spark.config;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Values that are one of a few words, compared case-insensitively and without surrounding blanks;
 * the parsed value is the word in lower case.
 */
final class Words {
  private Words() {}

  /**
   * @param words the accepted words, lower case, at least two
   * @return a type accepting exactly these words
   */
  static ValueType<String> of(String... words) {
    List<String> accepted = List.of(words);
    return ValueType.of(
        list(accepted, w -> "`" + w + "`"),
        (key, text) -> {
          String w = text.trim().toLowerCase(Locale.ROOT);
          if (!accepted.contains(w)) {
            throw new ConfigValueException(key, text, "expected " + list(accepted, s -> s));
          }
          return w;
        });
  }

  /**
   * @return {@code true} or {@code false} as a boolean
   */
  static ValueType<Boolean> trueOrFalse() {
    return of("true", "false").map("true"::equals);
  }

  /** "a or b", "a, b or c". */
  private static String list(
      List<String> words, java.util.function.Function<String, String> quote) {
    List<String> q = words.stream().map(quote).collect(Collectors.toList());
    return String.join(", ", q.subList(0, q.size() - 1)) + " or " + q.get(q.size() - 1);
  }
}
