package io.wanshuffle.spark.config;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * How the text of one configuration value becomes a typed value: one implementation per kind of
 * value (rate, time, size, flow count, decimal, one of some words, list, ...), shared by every
 * {@link ConfigEntry} of that kind.
 *
 * @param <T> the type of the parsed value
 */
interface ValueType<T> {
  /**
   * @param key the configuration key, for the error message
   * @param text the value as given (not trimmed)
   * @return the parsed value
   * @throws ConfigValueException naming the key and {@code text} as given if the text is not a
   *     value of this type or is out of its bounds
   */
  T parse(String key, String text);

  /**
   * @return the type and its bounds as the documentation's type column shows them (Markdown), e.g.
   *     {@code time} or {@code integer 1..1,000,000 (flows)}
   */
  String describe();

  /**
   * A type from its description and its parser.
   *
   * @param description the documentation's type column, see {@link #describe()}
   * @param parser (key, text as given) to value; throws {@link ConfigValueException} naming both
   * @param <T> the type of the parsed value
   * @return the type
   */
  static <T> ValueType<T> of(String description, BiFunction<String, String, T> parser) {
    return new ValueType<>() {
      @Override
      public T parse(String key, String text) {
        return parser.apply(key, text);
      }

      @Override
      public String describe() {
        return description;
      }
    };
  }

  /**
   * The same type whose errors say {@code expected} instead of its own text after the key and
   * value.
   *
   * @param expected what a valid value looks like, e.g. {@code true or false}
   * @return the type with that error text
   */
  default ValueType<T> expecting(String expected) {
    return of(
        describe(),
        (key, text) -> {
          try {
            return parse(key, text);
          } catch (ConfigValueException e) {
            throw new ConfigValueException(key, text, expected);
          }
        });
  }

  /**
   * The same type with its parsed value converted.
   *
   * @param f conversion of a parsed value; must not throw
   * @param <R> the converted type
   * @return a type parsing as this one, then applying {@code f}
   */
  default <R> ValueType<R> map(Function<? super T, ? extends R> f) {
    return of(describe(), (key, text) -> f.apply(parse(key, text)));
  }
}
