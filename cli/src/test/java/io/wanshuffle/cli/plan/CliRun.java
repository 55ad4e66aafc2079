package io.wanshuffle.cli.plan;

import io.wanshuffle.cli.WanShuffle;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs {@code wan-shuffle} in-process with captured stdout and stderr. Besides the registry's
 * algorithms it knows two test fixtures: {@code one-per-step} (valid) and {@code broken} (returns a
 * schedule that leaves the matrix uncovered).
 */
record CliRun(int status, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine.IFactory factory =
        new CommandLine.IFactory() {
          @Override
          public <K> K create(Class<K> cls) throws Exception {
            if (cls == PlanCommand.class) {
              return cls.cast(new PlanCommand(CliRun::algorithm));
            }
            return CommandLine.defaultFactory().create(cls);
          }
        };
    int status =
        WanShuffle.commandLine(factory, new PrintWriter(out, true), new PrintWriter(err, true))
            .execute(args);
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
