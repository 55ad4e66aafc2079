package io.wanshuffle.it;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the integration-tests module: {@code ./wan-shuffle demo | e2e-bench | testbed |
 * run-app}.
 */
@Command(
    name = "wan-shuffle",
    mixinStandardHelpOptions = true,
    subcommands = {
      io.wanshuffle.it.demo.DemoCommand.class,
      io.wanshuffle.it.bench.E2eBenchCommand.class,
      TestbedCommand.class,
      io.wanshuffle.it.app.AppCommand.class
    },
    description = "Two-cluster WAN testbed, the demo job and the end-to-end benchmark.")
public final class Main {
  private Main() {}

  /**
   * Runs a subcommand and exits with its status (2 on a usage error).
   *
   * @param args subcommand and options
   */
  public static void main(String[] args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          cmd.getErr().println("wan-shuffle " + cmd.getCommandName() + ": " + ex.getMessage());
          if (Boolean.getBoolean("wanshuffle.debug")) {
            ex.printStackTrace(cmd.getErr());
          }
          return 1;
        });
    System.exit(cl.execute(args));
  }
}
