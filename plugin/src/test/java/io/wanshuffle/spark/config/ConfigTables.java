package io.wanshuffle.spark.config;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Renders the tables of {@code docs/configuration.md} from the declarations in {@link Settings}:
 * one table per {@link Section} of the settings that are not experimental, and one of the
 * experimental settings with the measurement that justifies each. Each table sits between a begin
 * and an end marker comment in the document; the prose around them is written by hand.
 */
final class ConfigTables {
  /** Id of the experimental settings' table in the markers. */
  static final String EXPERIMENTAL = "experimental";

  private ConfigTables() {}

  /**
   * @param id a section's {@link Section#id()} or {@value #EXPERIMENTAL}
   * @return the comment that starts the table
   */
  static String begin(String id) {
    return "<!-- settings: "
        + id
        + " (generated from io.wanshuffle.spark.config.Settings by ConfigDocTest; do not edit) -->";
  }

  /**
   * @param id a section's {@link Section#id()} or {@value #EXPERIMENTAL}
   * @return the comment that ends the table
   */
  static String end(String id) {
    return "<!-- end of settings: " + id + " -->";
  }

  /**
   * @param doc the document's text
   * @return the text with every table between its markers rendered from the declarations
   * @throws IllegalArgumentException if a table's markers are missing, repeated or out of order
   */
  static String render(String doc) {
    String out = doc;
    for (Section s : Section.values()) {
      out = replace(out, s.id(), table(s));
    }
    return replace(out, EXPERIMENTAL, experimentalTable());
  }

  /**
   * @param section a section
   * @return the Markdown table of the section's settings that are not experimental
   */
  static String table(Section section) {
    return "| key | default | type | meaning |\n| --- | --- | --- | --- |\n"
        + rows(e -> e.section() == section && e.experimental().isEmpty(), false);
  }

  /**
   * @return the Markdown table of the experimental settings, with why each is kept
   */
  static String experimentalTable() {
    return "| key | default | type | meaning | why it is kept |\n"
        + "| --- | --- | --- | --- | --- |\n"
        + rows(e -> e.experimental().isPresent(), true);
  }

  private static String rows(Predicate<ConfigEntry<?>> which, boolean why) {
    List<ConfigEntry<?>> entries = Settings.all().stream().filter(which).toList();
    return entries.stream()
        .map(
            e ->
                "| `"
                    + e.key()
                    + "` | "
                    + cell(defaultCell(e))
                    + " | "
                    + cell(e.typeDescription())
                    + " | "
                    + cell(e.doc())
                    + (why ? " | " + cell(e.experimental().orElseThrow()) : "")
                    + " |\n")
        .collect(Collectors.joining());
  }

  /**
   * @return the default in backticks, "empty" for an empty default, else what unset means
   */
  static String defaultCell(ConfigEntry<?> e) {
    return e.defaultText().map(d -> d.isEmpty() ? "empty" : "`" + d + "`").orElse(e.unsetMeaning());
  }

  /** One table cell: a pipe would end the cell, a line break the row. */
  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static String replace(String doc, String id, String table) {
    String b = begin(id);
    String e = end(id);
    int from = doc.indexOf(b);
    int to = doc.indexOf(e);
    if (from < 0 || to < 0 || to < from) {
      throw new IllegalArgumentException(
          "the document needs a line '" + b + "' and, after it, a line '" + e + "'");
    }
    if (doc.indexOf(b, from + 1) >= 0 || doc.indexOf(e, to + 1) >= 0) {
      throw new IllegalArgumentException("the markers of '" + id + "' appear more than once");
    }
    return doc.substring(0, from + b.length()) + "\n" + table + doc.substring(to);
  }
}
