package io.wanshuffle.bench;

import io.wanshuffle.bench.liquid.LiquidBenchCommand;
import io.wanshuffle.bench.quality.QualityCommand;
import io.wanshuffle.bench.replan.ReplanCommand;
import io.wanshuffle.bench.speed.SpeedCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command of {@code ./wan-shuffle bench}: {@code speed} (JMH time and memory of the step
 * schedulers, {@link SpeedCommand}), {@code quality} (cost/η per algorithm and k, {@link
 * QualityCommand}), {@code liquid} (liquid schedules and topologies, {@link LiquidBenchCommand})
 * and {@code replan} (time of one re-plan of the plugin's coordinator on residual matrices of
 * 50..300 hosts per cluster, {@link ReplanCommand}).
 *
 * <p>Exit status: 0 success, 1 failure while benchmarking, 2 bad options (one stderr line).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Scheduler benchmark reports (written under docs/benchmarks/).",
    subcommands = {
      SpeedCommand.class,
      QualityCommand.class,
      LiquidBenchCommand.class,
      ReplanCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Bench implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Without a subcommand: a usage error. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "missing subcommand; try 'wan-shuffle bench speed --help'");
  }

  /**
   * Runs {@code bench ARGS} and exits with its status. The launcher passes {@code bench} itself as
   * the first argument ({@code ./wan-shuffle bench speed ...}); it is skipped.
   *
   * @param args e.g. {@code bench speed --sizes 20,100}
   */
  public static void main(String[] args) {
    String[] rest =
        args.length > 0 && args[0].equals("bench")
            ? java.util.Arrays.copyOfRange(args, 1, args.length)
            : args;
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    int status = commandLine(out, err).execute(rest);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * @param out stdout of the commands
   * @param err stderr of the commands (one line per usage error)
   * @return the picocli command line with this tool's error handling
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Bench());
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          CommandLine c = ex.getCommandLine();
          c.getErr()
              .println(c.getCommandName() + ": " + ex.getMessage().replace('\n', ' ').strip());
          c.getErr().flush();
          return 2;
        });
    return cl;
  }
}
