package io.wanshuffle.bench.speed;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * JMH benchmark: one call of {@link StepScheduler#schedule} on a dense n x n instance ({@link
 * DenseInstances}), one thread, average time per call. {@link SpeedCommand} sets the parameters,
 * forks, iterations and the GC profiler; run it through {@code ./wan-shuffle bench speed}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
public class SchedulerSpeedBenchmark {
  /** Seed of the benchmark matrices. */
  public static final long SEED = 20261120L;

  /** Matrix size n (senders = receivers = n). */
  @Param({"20", "100", "500", "1000"})
  public int n;

  /** Algorithm name from the registry. */
  @Param({"auto"})
  public String algorithm;

  private TrafficMatrix matrix;
  private Platform platform;
  private StepScheduler scheduler;

  /** Builds the instance and the scheduler once per trial. */
  @Setup(Level.Trial)
  public void setUp() {
    matrix = DenseInstances.matrix(n, SEED);
    platform = DenseInstances.platform(n);
    scheduler = Algorithms.byName(algorithm);
  }

  /**
   * @return the schedule (returned so JMH keeps the work)
   */
  @Benchmark
  public Schedule schedule() {
    return scheduler.schedule(matrix, platform);
  }
}
