package io.wanshuffle.scheduler.io;

/**
 * A text that {@link RateSyntax#parse} does not read as a rate. The message names the text as given
 * and says what is wrong, e.g. {@code '100 parsecs' is not a rate: unknown rate unit 'parsecs'; use
 * bit, kbit, ...}; a reader that names the setting too (a configuration key, a file line) words its
 * own message from {@link #problem()} and {@link #reason()}.
 */
public final class RateSyntaxException extends IllegalArgumentException {
  /** What is wrong with the text. */
  public enum Problem {
    /** Not a number followed by a unit. */
    SYNTAX,
    /** A number with a unit the syntax does not have. */
    UNIT,
    /** Below 1 byte/s (e.g. {@code 0}, {@code 4bit}). */
    TOO_SMALL,
    /** Above {@link RateSyntax#MAX} bytes/s. */
    TOO_LARGE
  }

  private final String text;
  private final Problem problem;
  private final String reason;

  /**
   * @param text the text as given
   * @param problem what is wrong
   * @param reason what is wrong in words, without the text
   */
  RateSyntaxException(String text, Problem problem, String reason) {
    super("'" + text + "' is not a rate: " + reason);
    this.text = text;
    this.problem = problem;
    this.reason = reason;
  }

  /**
   * @return the text as given
   */
  public String text() {
    return text;
  }

  /**
   * @return what is wrong
   */
  public Problem problem() {
    return problem;
  }

  /**
   * @return what is wrong in words, without the text (e.g. {@code below 1 byte/s})
   */
  public String reason() {
    return reason;
  }
}
