package io.wanshuffle.spark.config;

import java.util.Objects;

/**
 * The value of a key that takes either one of some words or a value of another type ({@code auto}
 * or a size, {@code base}, {@code off} or a rate): exactly one of {@link #word()} and {@link
 * #value()} is non-null.
 *
 * @param word the word given, lower case, or null when a value was given
 * @param value the value given, or null when a word was given
 * @param <T> the type of the value
 */
public record Choice<T>(String word, T value) {
  /** Checks that exactly one of the two is given. */
  public Choice {
    if ((word == null) == (value == null)) {
      throw new IllegalArgumentException("a choice is a word or a value: " + word + ", " + value);
    }
  }

  /**
   * @param w a word, lower case
   * @return true if this choice is that word
   */
  public boolean is(String w) {
    return Objects.equals(word, w);
  }
}
