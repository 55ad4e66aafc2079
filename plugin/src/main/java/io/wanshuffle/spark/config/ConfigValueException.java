package io.wanshuffle.spark.config;

/**
 * A configuration value was missing or wrong. The message names the key, the value and what was
 * expected, e.g. {@code spark.wanshuffle.k = '0': must be an integer >= 1}.
 */
public final class ConfigValueException extends IllegalArgumentException {
  private final String key;
  private final String value;
  private final String expected;

  /**
   * @param key the configuration key
   * @param value the offending value as given (may be null when missing)
   * @param expected what a valid value looks like
   */
  public ConfigValueException(String key, String value, String expected) {
    super(key + " = '" + value + "': " + expected);
    this.key = key;
    this.value = value;
    this.expected = expected;
  }

  /**
   * @return the configuration key
   */
  public String key() {
    return key;
  }

  /**
   * @return the value as given
   */
  public String value() {
    return value;
  }

  /**
   * @return what a valid value looks like (the message after the key and value)
   */
  public String expected() {
    return expected;
  }
}
