package io.wanshuffle.bench.replan;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Times one re-plan ({@link StepScheduler#schedule}) of a residual matrix: a first (cold) run that
 * is checked with {@link Schedule#validate}, then {@code warmup} untimed and {@code runs} timed
 * runs on the calling thread. Wall time and the calling thread's CPU time are both kept: on a
 * loaded machine the CPU time is the steadier figure. When the first run takes longer than the time
 * limit, nothing more is run and the row says so.
 */
final class ReplanTiming {
  private final int warmup;
  private final int runs;
  private final double timeLimitSeconds;

  /**
   * @param warmup untimed runs after the first
   * @param runs timed runs, at least 1
   * @param timeLimitSeconds a first run slower than this ends the measurement of the pair
   */
  ReplanTiming(int warmup, int runs, double timeLimitSeconds) {
    this.warmup = warmup;
    this.runs = runs;
    this.timeLimitSeconds = timeLimitSeconds;
  }

  ReplanRow measure(
      ResidualInstances.Shape shape, int n, TrafficMatrix m, Platform p, StepScheduler s) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Schedule schedule;
    long firstCpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    try {
      schedule = s.schedule(m, p);
      schedule.validate(m, p);
    } catch (RuntimeException e) {
      return new ReplanRow(
          shape.label(),
          n,
          p.k(),
          m.nonZeroCount(),
          s.name(),
          0,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          0,
          Double.NaN,
          Double.NaN,
          "error: " + e.getMessage());
    }
    double firstSeconds = (System.nanoTime() - t0) / 1e9;
    double firstCpuMs = (threads.getCurrentThreadCpuTime() - firstCpu0) / 1e6;
    double ratio = schedule.cost(p.beta()) / LowerBound.of(m, p).eta();
    double firstStep =
        schedule.steps().isEmpty() ? 0 : p.beta() + schedule.steps().get(0).duration();
    if (firstSeconds > timeLimitSeconds) {
      return new ReplanRow(
          shape.label(),
          n,
          p.k(),
          m.nonZeroCount(),
          s.name(),
          0,
          firstSeconds * 1000,
          firstSeconds * 1000,
          firstCpuMs,
          schedule.stepCount(),
          firstStep,
          ratio,
          String.format(java.util.Locale.ROOT, "first run %.1f s > time limit", firstSeconds));
    }
    for (int i = 0; i < warmup; i++) {
      s.schedule(m, p);
    }
    double[] wall = new double[runs];
    double[] cpu = new double[runs];
    for (int i = 0; i < runs; i++) {
      long c0 = threads.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      s.schedule(m, p);
      wall[i] = (System.nanoTime() - w0) / 1e6;
      cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
    }
    double max = Arrays.stream(wall).max().orElse(Double.NaN);
    return new ReplanRow(
        shape.label(),
        n,
        p.k(),
        m.nonZeroCount(),
        s.name(),
        runs,
        median(wall),
        max,
        median(cpu),
        schedule.stepCount(),
        firstStep,
        ratio,
        "");
  }

  static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    int h = c.length / 2;
    return c.length % 2 == 1 ? c[h] : (c[h - 1] + c[h]) / 2;
  }
}
