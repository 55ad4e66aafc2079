package io.wanshuffle.spark.config;

import java.util.Objects;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * The declaration of one setting, as Spark's own {@code ConfigBuilder} entries are: its key, type
 * (with bounds and unit), default, documentation and whether it is experimental. Reading the
 * setting ({@link WanShuffleConf#get} on the validated configuration, {@link #get} on a {@link
 * SparkConf}), checking its value, the list of known keys and the setting's row in {@code
 * docs/configuration.md} all follow from this one declaration (the declarations are in {@link
 * Settings}).
 *
 * <p>A value is read as given in the {@link SparkConf}, or else the default; a wrong value throws a
 * {@link ConfigValueException} naming the key and the value as given. A setting without a default
 * ({@link Builder#noDefault}) has an {@link Optional} value, empty when unset.
 *
 * @param <T> the type of the setting's value
 */
public final class ConfigEntry<T> {
  private final String key;
  private final ValueType<T> type;
  private final T unsetValue;
  private final String defaultText;
  private final String unsetMeaning;
  private final boolean blankIsUnset;
  private final Section section;
  private final String doc;
  private final String experimental;

  private ConfigEntry(Builder<T> b, T unsetValue) {
    key = b.key;
    type = b.type;
    this.unsetValue = unsetValue;
    defaultText = b.defaultText;
    unsetMeaning = b.unsetMeaning;
    blankIsUnset = b.blankIsUnset;
    section = b.section;
    doc = b.doc;
    experimental = b.experimental;
  }

  /**
   * Starts the declaration of a setting.
   *
   * @param key the full key, e.g. {@code spark.wanshuffle.k}
   * @param type how its value is parsed and checked
   * @param <T> the type of the value
   * @return a builder; {@link Builder#section}, {@link Builder#doc} and either {@link
   *     Builder#defaultValue} or {@link Builder#noDefault} are required
   */
  static <T> Builder<T> builder(String key, ValueType<T> type) {
    return new Builder<>(key, type);
  }

  /**
   * @return the key, e.g. {@code spark.wanshuffle.k}
   */
  public String key() {
    return key;
  }

  /**
   * @param conf the Spark configuration
   * @return true if the key is set (to a non-blank value, for a setting where blank means unset)
   */
  public boolean isSet(SparkConf conf) {
    return conf.contains(key) && !(blankIsUnset && conf.get(key).isBlank());
  }

  /**
   * Reads the setting from a Spark configuration, for code that runs without a {@link
   * WanShuffleConf} (the capture listener, the History Server); the plugin reads the values {@link
   * WanShuffleConf#from} checked at start-up with {@link WanShuffleConf#get}.
   *
   * @param conf the Spark configuration
   * @return the value set, else the default (an empty {@link Optional} for a setting without a
   *     default)
   * @throws ConfigValueException naming the key and the value as given if it is wrong
   */
  public T get(SparkConf conf) {
    return isSet(conf) ? type.parse(key, conf.get(key)) : unsetValue;
  }

  /**
   * @param conf the Spark configuration
   * @return the value's text as given, else the default's text, else the empty string (for messages
   *     that echo a value)
   */
  public String text(SparkConf conf) {
    if (isSet(conf)) {
      return conf.get(key);
    }
    return defaultText == null ? "" : defaultText;
  }

  /**
   * @return the default as text (empty for an empty default), or empty when the setting has none
   */
  public Optional<String> defaultText() {
    return Optional.ofNullable(defaultText);
  }

  /**
   * @return what leaving the setting unset means when it has no default, e.g. {@code derived}; the
   *     empty string when it has a default
   */
  public String unsetMeaning() {
    return unsetMeaning;
  }

  /**
   * @return the type and bounds as the documentation shows them (Markdown), e.g. {@code time}
   */
  public String typeDescription() {
    return type.describe();
  }

  /**
   * @return the part of the documentation that lists the setting
   */
  public Section section() {
    return section;
  }

  /**
   * @return what the setting does (Markdown; relative links are relative to {@code docs/})
   */
  public String doc() {
    return doc;
  }

  /**
   * @return for an experimental setting, the measurement that justifies keeping it (Markdown,
   *     citing its report); empty for a setting that is not experimental
   */
  public Optional<String> experimental() {
    return Optional.ofNullable(experimental);
  }

  @Override
  public String toString() {
    return key;
  }

  /**
   * Builds a {@link ConfigEntry}; {@link #build()} checks that the declaration is complete and that
   * its default is a valid value.
   *
   * @param <T> the type of the setting's value
   */
  static final class Builder<T> {
    private final String key;
    private final ValueType<T> type;
    private String defaultText;
    private String unsetMeaning;
    private T unsetValue;
    private boolean blankIsUnset;
    private Section section;
    private String doc;
    private String experimental;

    private Builder(String key, ValueType<T> type) {
      this.key = Objects.requireNonNull(key);
      this.type = Objects.requireNonNull(type);
    }

    /**
     * @param s the documentation section that lists the setting
     * @return this builder
     */
    Builder<T> section(Section s) {
      section = s;
      return this;
    }

    /**
     * @param text what the setting does (Markdown)
     * @return this builder
     */
    Builder<T> doc(String text) {
      doc = text;
      return this;
    }

    /**
     * @param text the default, as a user would write it (empty for an empty list or map)
     * @return this builder
     */
    Builder<T> defaultValue(String text) {
      defaultText = text;
      unsetMeaning = "";
      return this;
    }

    /**
     * Declares a setting without a default: its value is an {@link Optional}, empty when unset.
     *
     * @param meaning what leaving the setting unset means, e.g. {@code derived} or {@code unset}
     * @return a builder of the same declaration whose values are optional
     */
    Builder<Optional<T>> noDefault(String meaning) {
      Builder<Optional<T>> b = new Builder<>(key, type.map(Optional::of));
      b.unsetMeaning = meaning;
      b.unsetValue = Optional.empty();
      b.blankIsUnset = blankIsUnset;
      b.section = section;
      b.doc = doc;
      b.experimental = experimental;
      return b;
    }

    /**
     * A value of only blanks counts as unset (the default applies) instead of being parsed.
     *
     * @return this builder
     */
    Builder<T> blankIsUnset() {
      blankIsUnset = true;
      return this;
    }

    /**
     * Marks the setting experimental: it is listed apart in the documentation, with the measurement
     * that justifies keeping it.
     *
     * @param why the measurement (Markdown, citing its report under {@code docs/benchmarks/})
     * @return this builder
     */
    Builder<T> experimental(String why) {
      experimental = why;
      return this;
    }

    /**
     * @return the declaration
     * @throws IllegalStateException if the section, the documentation or the default (or what unset
     *     means) is missing, or the default is not a valid value
     */
    ConfigEntry<T> build() {
      if (section == null || doc == null || doc.isBlank() || unsetMeaning == null) {
        throw new IllegalStateException(
            key + ": section, doc and a default (or none) are required");
      }
      if (defaultText == null) {
        return new ConfigEntry<>(this, unsetValue);
      }
      try {
        return new ConfigEntry<>(this, type.parse(key, defaultText));
      } catch (ConfigValueException e) {
        throw new IllegalStateException(key + ": the default is not valid: " + e.getMessage(), e);
      }
    }
  }
}
