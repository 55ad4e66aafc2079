package io.wanshuffle.cli;

import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The integer syntax of the CLI's options ({@code --k}, the δ lists): optionally signed ASCII
 * digits, surrounding blanks ignored, as {@link DecimalNumber} reads numbers. Java's own parsing
 * would also take non-ASCII digits ({@code ٣} as 3).
 */
public final class AsciiInteger implements ITypeConverter<Integer> {
  private static final Pattern SYNTAX = Pattern.compile("[+-]?[0-9]+");

  /**
   * @param text the text
   * @return its value
   * @throws NumberFormatException naming the text when it is not optionally signed ASCII digits or
   *     does not fit an int
   */
  public static int parse(String text) {
    String t = text.strip();
    if (!SYNTAX.matcher(t).matches()) {
      throw new NumberFormatException("'" + text + "' is not an int");
    }
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new NumberFormatException("'" + text + "' is not an int");
    }
  }

  /**
   * picocli's conversion of an option value.
   *
   * @param value the option's text
   * @return its value
   * @throws TypeConversionException {@code 'VALUE' is not an int} when {@link #parse} refuses it
   */
  @Override
  public Integer convert(String value) {
    try {
      return parse(value);
    } catch (NumberFormatException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
