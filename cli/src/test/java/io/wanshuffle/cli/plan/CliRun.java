package io.wanshuffle.cli.plan;

import io.wanshuffle.cli.ExitStatus;
import io.wanshuffle.cli.liquid.LiquidCommand;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs {@code plan} or {@code liquid} in-process with captured stdout and stderr and the exit
 * handling the root command gives them ({@link ExitStatus#badUsage}, {@link
 * ExitStatus#planningFailure}). The first argument names the command ({@code plan ...}, {@code
 * liquid ...}). Besides the registry's algorithms {@code plan} knows two test fixtures: {@code
 * one-per-step} (valid) and {@code broken} (returns a schedule that leaves the matrix uncovered).
 */
record CliRun(int status, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Object command =
        switch (args[0]) {
          case "plan" -> new PlanCommand(CliRun::algorithm);
          case "liquid" -> new LiquidCommand();
          default -> throw new IllegalArgumentException("not a planning command: " + args[0]);
        };
    int status =
        new CommandLine(command)
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .setParameterExceptionHandler(ExitStatus::badUsage)
            .setExecutionExceptionHandler(ExitStatus::planningFailure)
            .execute(Arrays.copyOfRange(args, 1, args.length));
    return new CliRun(status, out.toString(), err.toString());
  }

  static StepScheduler algorithm(String name) {
    if (name.equals("one-per-step")) {
      return new OneTransferPerStep();
    }
    if (name.equals("broken")) {
      return new StepScheduler() {
        @Override
        public String name() {
          return "broken";
        }

        @Override
        public Schedule schedule(TrafficMatrix m, Platform p) {
          return new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1e-3)))));
        }
      };
    }
    return Algorithms.byName(name);
  }

  /**
   * @return the stderr lines (without the trailing newline)
   */
  List<String> errLines() {
    return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
  }
}
