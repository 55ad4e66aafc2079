package io.wanshuffle.bench;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * {@code bench} on its own command line for in-process tests, with the root command's report of bad
 * usage: one stderr line {@code COMMAND: MESSAGE} and exit status 2 (the root's own test checks
 * that report through {@code wan-shuffle bench ...}).
 */
public final class BenchRun {
  private BenchRun() {}

  /**
   * @param out stdout of the commands
   * @param err stderr of the commands
   * @return the command line of {@link Bench}, ready for {@link CommandLine#execute}
   */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    return new CommandLine(new Bench())
        .setOut(out)
        .setErr(err)
        .setParameterExceptionHandler(
            (ex, args) -> {
              CommandLine c = ex.getCommandLine();
              c.getErr()
                  .println(c.getCommandName() + ": " + ex.getMessage().replace('\n', ' ').strip());
              c.getErr().flush();
              return 2;
            });
  }
}
