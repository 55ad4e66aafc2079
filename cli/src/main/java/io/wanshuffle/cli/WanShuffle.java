package io.wanshuffle.cli;

import io.wanshuffle.cli.liquid.LiquidCommand;
import io.wanshuffle.cli.plan.PlanCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command of {@code ./wan-shuffle}. Subcommands: {@code plan} ({@link PlanCommand}), {@code
 * liquid} ({@link LiquidCommand}).
 *
 * <p>Exit status: {@link #EXIT_OK} on success, {@link #EXIT_BAD_INPUT} for bad input or usage (a
 * single line on stderr naming the file, line and column or the option at fault; nothing on
 * stdout), {@link #EXIT_INTERNAL} when the program itself fails (for instance an algorithm returns
 * a schedule that does not validate).
 */
@Command(
    name = "wan-shuffle",
    mixinStandardHelpOptions = true,
    versionProvider = CliVersion.class,
    description = "Cross-cluster shuffle scheduling over a WAN backbone (KPBS steps).",
    subcommands = {PlanCommand.class, LiquidCommand.class, CommandLine.HelpCommand.class})
public final class WanShuffle implements Runnable {
  /** Exit status of a successful run. */
  public static final int EXIT_OK = 0;

  /** Exit status when the program fails on valid input. */
  public static final int EXIT_INTERNAL = 1;

  /** Exit status of bad input or usage. */
  public static final int EXIT_BAD_INPUT = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Without a subcommand: prints usage to stderr and fails as bad usage. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "missing subcommand; try 'wan-shuffle plan --help'");
  }

  /**
   * Runs the command line and exits the JVM with its status.
   *
   * @param args command-line arguments, e.g. {@code plan --matrix m.csv --k 2 --beta 1}
   */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int status = execute(out, err, args);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * Runs the command line in-process (tests and other tools).
   *
   * @param out where results go (stdout)
   * @param err where the one-line error goes (stderr)
   * @param args command-line arguments
   * @return the exit status: 0 ok, 1 internal error, 2 bad input or usage
   */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    int status = commandLine(CommandLine.defaultFactory(), out, err).execute(args);
    out.flush();
    return status;
  }

  /**
   * Builds the picocli command line with this tool's error handling: a parameter error or an {@link
   * InputException} prints one stderr line and gives {@link #EXIT_BAD_INPUT}; any other exception
   * prints one "internal error" line and gives {@link #EXIT_INTERNAL}.
   *
   * @param factory creates the command objects (tests pass one that injects collaborators)
   * @param out stdout of the commands
   * @param err stderr of the commands
   * @return the command line, ready for {@link CommandLine#execute}
   */
  public static CommandLine commandLine(
      CommandLine.IFactory factory, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new WanShuffle(), factory);
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          CommandLine c = ex.getCommandLine();
          c.getErr().println(c.getCommandName() + ": " + oneLine(ex.getMessage()));
          c.getErr().flush();
          return EXIT_BAD_INPUT;
        });
    cl.setExecutionExceptionHandler(
        (ex, c, parsed) -> {
          if (ex instanceof InputException) {
            c.getErr().println(c.getCommandName() + ": " + oneLine(ex.getMessage()));
            c.getErr().flush();
            return EXIT_BAD_INPUT;
          }
          c.getErr()
              .println(c.getCommandName() + ": internal error: " + oneLine(String.valueOf(ex)));
          c.getErr().flush();
          return EXIT_INTERNAL;
        });
    return cl;
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ').strip();
  }
}
