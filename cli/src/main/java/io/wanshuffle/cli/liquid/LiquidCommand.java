package io.wanshuffle.cli.liquid;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.cli.CliVersion;
import io.wanshuffle.cli.DecimalNumber;
import io.wanshuffle.cli.InputException;
import io.wanshuffle.cli.OutputFormat;
import io.wanshuffle.scheduler.liquid.LiquidSchedule;
import io.wanshuffle.scheduler.liquid.LiquidSearch;
import io.wanshuffle.scheduler.liquid.Traffic;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code liquid}: schedules unit-size transfers into time frames with the exact liquid-schedule
 * search (liquid-schedules paper, Gabrielyan and Hersch, sec. 3) and DSatur as its fallback.
 *
 * <pre>
 * ./wan-shuffle liquid --transfers FILE [--time-limit SECONDS] [--format json|text]
 * </pre>
 *
 * JSON output (a contract): {@code {"duration": int, "lowerBound": int, "optimal": bool, "frames":
 * [["NAME", ...], ...]}}: duration = number of time frames of the schedule, lowerBound = Λ (the
 * bottleneck load), optimal = no shorter schedule exists (proved by the search), frames in
 * execution order. Exit status 0 on success, 2 with one stderr line naming the file and line (or
 * the option) on bad input.
 */
@Command(
    name = "liquid",
    mixinStandardHelpOptions = true,
    header = "Group unit transfers into the fewest link-disjoint time frames.",
    versionProvider = CliVersion.class,
    description =
        "Group unit-size transfers (NAME: link link ...) into the fewest time frames in"
            + " which no link carries two transfers (liquid schedules).",
    sortOptions = false)
public final class LiquidCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--transfers",
      required = true,
      paramLabel = "FILE",
      description =
          "Transfers, one per line: 'NAME: link link ...' (links separated by blanks); '#' starts a comment.")
  Path transfers;

  @Option(
      names = "--time-limit",
      paramLabel = "SECONDS",
      defaultValue = "10",
      converter = DecimalNumber.class,
      description =
          "Stop the exact search after this many seconds and print the best schedule"
              + " found (default ${DEFAULT-VALUE}).")
  double timeLimit;

  @Option(
      names = "--format",
      paramLabel = "json|text",
      defaultValue = "text",
      description = "Output: text (default) or json (one JSON object).")
  OutputFormat format;

  /**
   * The JSON document printed with {@code --format json}.
   *
   * @param duration number of time frames of the schedule
   * @param lowerBound Λ, the load of the bottleneck links
   * @param optimal true when no shorter schedule exists
   * @param frames transfer names per frame, in execution order
   */
  public record Result(int duration, int lowerBound, boolean optimal, List<List<String>> frames) {}

  /**
   * @return 0 on success
   * @throws InputException on bad input (file and line, or the option); {@link
   *     io.wanshuffle.cli.ExitStatus#planningFailure} prints it as one stderr line and the command
   *     exits with status 2
   * @throws Exception if the output cannot be written
   */
  @Override
  public Integer call() throws Exception {
    if (!(timeLimit >= 0) || Double.isInfinite(timeLimit)) {
      throw InputException.option(
          "--time-limit", "must be a finite number of seconds >= 0, got " + timeLimit);
    }
    Traffic traffic = TransfersFile.read(transfers, transfers.toString());
    LiquidSearch.Result r =
        LiquidSearch.solve(
            traffic, Duration.ofNanos((long) Math.min(Long.MAX_VALUE / 2.0, timeLimit * 1e9)));
    LiquidSchedule s = r.schedule();
    s.validate();
    Result out = new Result(s.length(), s.lowerBound(), s.optimal(), s.frameNames());
    PrintWriter w = spec.commandLine().getOut();
    if (format == OutputFormat.json) {
      w.println(new ObjectMapper().writeValueAsString(out));
    } else {
      w.printf(
          "%d transfers, %d links, bottleneck load (lower bound) %d, liquid throughput %.3f"
              + " links%n",
          traffic.size(), traffic.linkCount(), s.lowerBound(), traffic.liquidThroughput());
      w.printf(
          "schedule: %d frames (%s; %s, DSatur %d frames, search %.3f s)%n",
          s.length(),
          s.optimal() ? "optimal" : "not proven optimal",
          describe(r.outcome()),
          r.dsaturLength(),
          r.nanos() / 1e9);
      for (int f = 0; f < out.frames().size(); f++) {
        w.printf("frame %d: %s%n", f + 1, String.join(" ", out.frames().get(f)));
      }
    }
    w.flush();
    return 0;
  }

  private static String describe(LiquidSearch.Outcome o) {
    return switch (o) {
      case LIQUID -> "liquid";
      case OPTIMAL_NOT_LIQUID -> "no liquid schedule exists";
      case TIME_LIMIT -> "time limit reached";
      case TOO_LARGE -> "too many transfers to search, DSatur only";
    };
  }
}
