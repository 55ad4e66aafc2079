package io.wanshuffle.spark.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Values that are one of a few words (compared case-insensitively, without surrounding blanks) or
 * else a value of another type, e.g. {@code auto} or a size.
 */
final class OrWords {
  private OrWords() {}

  /**
   * @param otherwise the type of a value that is none of the words; its errors are those of this
   *     type
   * @param words the words, lower case
   * @param <T> the type of the other values
   * @return a type giving a {@link Choice} of a word or a value
   */
  static <T> ValueType<Choice<T>> of(ValueType<T> otherwise, String... words) {
    List<String> accepted = List.of(words);
    return ValueType.of(
        accepted.stream().map(w -> "`" + w + "`").collect(Collectors.joining(", "))
            + " or "
            + otherwise.describe(),
        (key, text) -> {
          String w = text.trim().toLowerCase(Locale.ROOT);
          return accepted.contains(w)
              ? new Choice<>(w, null)
              : new Choice<>(null, otherwise.parse(key, text));
        });
  }

  /**
   * @param otherwise the type of a value other than {@code off}
   * @param <T> the type of the other values
   * @return a type giving an empty {@link Optional} for {@code off}, else the value
   */
  static <T> ValueType<Optional<T>> offOr(ValueType<T> otherwise) {
    return of(otherwise, "off").map(c -> Optional.ofNullable(c.value()));
  }
}
