package io.wanshuffle.cli;

/**
 * Bad user input: a file, line, column or option at fault. {@link ExitStatus#planningFailure}
 * prints the message as the single stderr line and the command exits with status {@link
 * ExitStatus#BAD_INPUT}.
 */
public final class InputException extends RuntimeException {
  /**
   * @param message the whole line shown to the user; it names the file with its 1-based line and
   *     column, or the option, and the offending value
   */
  public InputException(String message) {
    super(message);
  }

  /**
   * @param file the input file as the user named it
   * @param line 1-based line number
   * @param column 1-based column (comma-separated cell number)
   * @param detail what is wrong, with the value
   * @return the exception with message {@code FILE: line L, column C (1-based): DETAIL}
   */
  public static InputException at(String file, int line, int column, String detail) {
    return new InputException(
        file + ": line " + line + ", column " + column + " (1-based): " + detail);
  }

  /**
   * @param file the input file as the user named it
   * @param line 1-based line number
   * @param detail what is wrong
   * @return the exception with message {@code FILE: line L (1-based): DETAIL}
   */
  public static InputException at(String file, int line, String detail) {
    return new InputException(file + ": line " + line + " (1-based): " + detail);
  }

  /**
   * @param option the option at fault, e.g. {@code --k}
   * @param detail what is wrong, with the value
   * @return the exception with message {@code option OPTION: DETAIL}
   */
  public static InputException option(String option, String detail) {
    return new InputException("option " + option + ": " + detail);
  }
}
