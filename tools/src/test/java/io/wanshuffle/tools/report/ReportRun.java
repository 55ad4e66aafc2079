package io.wanshuffle.tools.report;

import io.wanshuffle.cli.ExitStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * A run of {@code report} in the test JVM with the root command's exit handling ({@code
 * io.wanshuffle.app.WanShuffle}: {@link ExitStatus#badUsage} for bad input; an exception: status
 * 1).
 *
 * @param status the exit status
 * @param out what it printed on stdout
 * @param err what it printed on stderr
 */
record ReportRun(int status, String out, String err) {
  /**
   * @param args the command's arguments
   * @return its exit status and output
   */
  static ReportRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        new CommandLine(new ReportCommand())
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .setParameterExceptionHandler(ExitStatus::badUsage)
            .setExecutionExceptionHandler(
                (ex, c, parsed) -> {
                  c.getErr().println("report: " + ex);
                  return ExitStatus.FAILED;
                })
            .execute(args);
    return new ReportRun(status, out.toString(), err.toString());
  }
}
