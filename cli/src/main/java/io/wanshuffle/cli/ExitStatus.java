package io.wanshuffle.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Exit statuses of the {@code wan-shuffle} command line and the one stderr line a command prints
 * when it fails. The root command ({@code io.wanshuffle.app.WanShuffle}) applies {@link #badUsage}
 * to every command and {@link #planningFailure} to {@code plan} and {@code liquid}.
 *
 * <ul>
 *   <li>{@link #OK} (0): success.
 *   <li>{@link #FAILED} (1): the command failed on valid input; for {@code plan} and {@code liquid}
 *       an internal error (for instance an algorithm returned a schedule that does not validate).
 *   <li>{@link #BAD_INPUT} (2): bad usage or input; one stderr line {@code COMMAND: MESSAGE} naming
 *       the option, or the file with its 1-based line and column, and nothing on stdout.
 * </ul>
 */
public final class ExitStatus {
  /** Exit status of a successful run. */
  public static final int OK = 0;

  /** Exit status when a command fails on valid input (for plan and liquid: an internal error). */
  public static final int FAILED = 1;

  /** Exit status of bad input or usage. */
  public static final int BAD_INPUT = 2;

  private ExitStatus() {}

  /**
   * Reports bad usage (an unknown or missing option, a value picocli cannot convert, or a {@link
   * ParameterException} a command throws after checking its options): one line {@code COMMAND:
   * MESSAGE} on the failing command's stderr.
   *
   * @param ex the parameter error; its command line names the command at fault
   * @param args the arguments as given (unused: the message names the option)
   * @return {@link #BAD_INPUT}
   */
  public static int badUsage(ParameterException ex, String[] args) {
    CommandLine c = ex.getCommandLine();
    c.getErr().println(c.getCommandName() + ": " + oneLine(ex.getMessage()));
    c.getErr().flush();
    return BAD_INPUT;
  }

  /**
   * Reports an exception of {@code plan} or {@code liquid}: an {@link InputException} is bad input
   * (one line {@code COMMAND: MESSAGE}, {@link #BAD_INPUT}); any other exception is an internal
   * error (one line {@code COMMAND: internal error: EXCEPTION}, {@link #FAILED}).
   *
   * @param ex what the command threw
   * @param c the command line of the command that threw it
   * @param parsed the parse result (unused)
   * @return {@link #BAD_INPUT} or {@link #FAILED}
   */
  public static int planningFailure(Exception ex, CommandLine c, ParseResult parsed) {
    if (ex instanceof InputException) {
      c.getErr().println(c.getCommandName() + ": " + oneLine(ex.getMessage()));
      c.getErr().flush();
      return BAD_INPUT;
    }
    c.getErr().println(c.getCommandName() + ": internal error: " + oneLine(String.valueOf(ex)));
    c.getErr().flush();
    return FAILED;
  }

  /**
   * @param s a message, possibly null or on several lines
   * @return the message on one line, blanks at both ends removed ({@code ""} for null)
   */
  public static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ').strip();
  }
}
