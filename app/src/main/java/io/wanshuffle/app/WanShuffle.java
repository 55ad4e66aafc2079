package io.wanshuffle.app;

import io.wanshuffle.bench.Bench;
import io.wanshuffle.cli.CliVersion;
import io.wanshuffle.cli.ExitStatus;
import io.wanshuffle.cli.liquid.LiquidCommand;
import io.wanshuffle.cli.plan.PlanCommand;
import io.wanshuffle.it.TestbedCommand;
import io.wanshuffle.it.app.AppCommand;
import io.wanshuffle.it.bench.E2eBenchCommand;
import io.wanshuffle.it.bench.FaultMatrixCommand;
import io.wanshuffle.it.demo.DemoCommand;
import io.wanshuffle.tools.report.ReportCommand;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The root command of {@code ./wan-shuffle}: every command of the product is one of its
 * subcommands, and {@code wan-shuffle --help} lists them with one line each.
 *
 * <ul>
 *   <li>{@code plan}, {@code liquid}: schedules from a file (module cli).
 *   <li>{@code report}: an HTML page of an application's gated stages from its capture or event log
 *       (module tools).
 *   <li>{@code demo}, {@code run-app}, {@code e2e-bench}, {@code testbed}: the two-site testbed,
 *       the demo job and the end-to-end benchmark (module integration-tests).
 *   <li>{@code bench} with {@code speed}, {@code quality}, {@code liquid}, {@code replan}:
 *       scheduler benchmark reports (module benchmarks).
 * </ul>
 *
 * <p>Exit status ({@link ExitStatus}): 0 success; 2 bad usage or input, one stderr line {@code
 * COMMAND: MESSAGE} and nothing on stdout ({@link ExitStatus#badUsage}); 1 failure. {@code plan}
 * and {@code liquid} compute on a file, so an exception other than bad input is an internal error
 * ({@link ExitStatus#planningFailure}). The other commands drive networks, Spark clusters and child
 * JVMs, where an exception usually comes from the environment (no root, a port in use, a missing
 * build): one stderr line {@code wan-shuffle COMMAND: MESSAGE}, and with {@code
 * -Dwanshuffle.debug=true} the stack trace. A command may also return 1 itself (for instance {@code
 * demo} when the answers differ). Without a command the usage goes to stderr with status 2.
 */
@Command(
    name = "wan-shuffle",
    mixinStandardHelpOptions = true,
    versionProvider = CliVersion.class,
    description =
        "Step-scheduled cross-site shuffle for Apache Spark over a WAN backbone (KPBS): plan a"
            + " traffic matrix, report what an application's shuffles did, run the two-site demo,"
            + " benchmark the schedulers.",
    footer = {
      "",
      "Each command answers --help. JVM options go in WAN_SHUFFLE_JAVA_OPTS, e.g.",
      "  WAN_SHUFFLE_JAVA_OPTS=-Dwanshuffle.testbed=loopback ./wan-shuffle demo"
    },
    subcommands = {
      PlanCommand.class,
      LiquidCommand.class,
      ReportCommand.class,
      DemoCommand.class,
      AppCommand.class,
      E2eBenchCommand.class,
      FaultMatrixCommand.class,
      TestbedCommand.class,
      Bench.class,
      CommandLine.HelpCommand.class
    })
public final class WanShuffle implements Callable<Integer> {
  /** System property that adds the stack trace to the error line of a failed command. */
  static final String DEBUG_PROPERTY = "wanshuffle.debug";

  @Spec CommandSpec spec;

  /**
   * Without a command: the error line, then the usage with every command, on stderr.
   *
   * @return {@link ExitStatus#BAD_INPUT}
   */
  @Override
  public Integer call() {
    CommandLine cl = spec.commandLine();
    cl.getErr().println("wan-shuffle: missing subcommand");
    cl.usage(cl.getErr());
    cl.getErr().flush();
    return ExitStatus.BAD_INPUT;
  }

  /**
   * Runs the command line and exits the JVM with its status.
   *
   * @param args command and options, e.g. {@code plan --matrix m.csv --k 2 --beta 1}
   */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int status = commandLine(out, err).execute(args);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * Builds the command line with the exit handling described on this class.
   *
   * @param out stdout of every command (results, {@code --help}, {@code --version})
   * @param err stderr of every command (the one error line)
   * @return the command line, ready for {@link CommandLine#execute}
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl =
        new CommandLine(new WanShuffle())
            .setOut(out)
            .setErr(err)
            .setParameterExceptionHandler(ExitStatus::badUsage)
            .setExecutionExceptionHandler(WanShuffle::failed);
    withVersion(cl);
    return cl;
  }

  /** Gives every command without a version of its own the product's {@code --version} line. */
  private static void withVersion(CommandLine c) {
    CommandSpec s = c.getCommandSpec();
    if (s.versionProvider() == null && s.version().length == 0) {
      s.versionProvider(new CliVersion());
    }
    c.getSubcommands().values().forEach(WanShuffle::withVersion);
  }

  /**
   * Reports an exception a command threw (see the class comment).
   *
   * @param ex the exception
   * @param c the command line of the command that threw it
   * @param parsed the parse result
   * @return the exit status: 1, or 2 for bad input to {@code plan} or {@code liquid}
   */
  static int failed(Exception ex, CommandLine c, ParseResult parsed) {
    Object top = topLevel(c).getCommand();
    if (top instanceof PlanCommand || top instanceof LiquidCommand) {
      return ExitStatus.planningFailure(ex, c, parsed);
    }
    c.getErr().println(c.getCommandSpec().qualifiedName() + ": " + ExitStatus.oneLine(message(ex)));
    if (Boolean.getBoolean(DEBUG_PROPERTY)) {
      ex.printStackTrace(c.getErr());
    }
    c.getErr().flush();
    return ExitStatus.FAILED;
  }

  /**
   * @return the exception's message, or the exception itself when it has none (a bare {@code
   *     NullPointerException} says nothing otherwise)
   */
  private static String message(Exception ex) {
    return ex.getMessage() == null ? ex.toString() : ex.getMessage();
  }

  /**
   * @param c a command line of this tree
   * @return its ancestor just below the root ({@code c} itself when it is a command of the root)
   */
  private static CommandLine topLevel(CommandLine c) {
    CommandLine top = c;
    while (top.getParent() != null && top.getParent().getParent() != null) {
      top = top.getParent();
    }
    return top;
  }
}
