package io.wanshuffle.bench;

import io.wanshuffle.bench.coordinator.CoordinatorBenchCommand;
import io.wanshuffle.bench.liquid.LiquidBenchCommand;
import io.wanshuffle.bench.quality.QualityCommand;
import io.wanshuffle.bench.replan.ReplanCommand;
import io.wanshuffle.bench.speed.SpeedCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command of {@code ./wan-shuffle bench}: {@code speed} (JMH time and memory of the step
 * schedulers, {@link SpeedCommand}), {@code quality} (cost/η per algorithm and k, {@link
 * QualityCommand}), {@code liquid} (liquid schedules and topologies, {@link LiquidBenchCommand})
 * {@code replan} (time of one re-plan of the plugin's coordinator on residual matrices of 50..300
 * hosts per cluster, {@link ReplanCommand}) and {@code coordinator} (the plugin's coordinator under
 * a simulated stage of many hosts and reduce tasks, {@link CoordinatorBenchCommand}).
 *
 * <p>A subcommand of the root command ({@code io.wanshuffle.app.WanShuffle}), which sets the exit
 * handling: 0 success, 1 failure while benchmarking, 2 bad options (one stderr line).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Scheduler benchmarks: speed quality liquid replan coordinator.",
    description =
        "Scheduler benchmark reports, written to run/bench/ unless --report names a file (the"
            + " published ones are in docs/benchmarks/).",
    subcommands = {
      SpeedCommand.class,
      QualityCommand.class,
      LiquidBenchCommand.class,
      ReplanCommand.class,
      CoordinatorBenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Bench implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Without a subcommand: a usage error. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "missing subcommand; try 'wan-shuffle bench --help'");
  }
}
