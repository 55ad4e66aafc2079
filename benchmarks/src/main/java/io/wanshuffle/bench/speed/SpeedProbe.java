package io.wanshuffle.bench.speed;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * Child-JVM probe run by {@link SpeedCommand} before JMH. Schedules one dense instance once in the
 * fresh JVM (cold), validates the schedule, then repeats the call (warm) while the time budget
 * allows, at most {@value #MAX_WARM} times. Prints one line
 *
 * <pre>
 * seconds=&lt;cold wall s&gt; cpu=&lt;cold CPU s&gt; warmSeconds=&lt;min warm wall s&gt;
 * warmCpu=&lt;min warm CPU s&gt; warmRuns=&lt;n&gt; peakHeap=&lt;bytes&gt; steps=&lt;n&gt; ratio=&lt;cost/η&gt;
 * </pre>
 *
 * (on one line; warm figures are NaN when no warm run fitted). CPU time is the CPU time of the
 * whole probe JVM during the call (the scheduling thread plus the garbage collector and JIT threads
 * it keeps busy), less disturbed than wall time when other processes load the machine. The peak
 * heap is the sum of the heap memory pools' peak usage from just before the cold call to the end
 * (an upper bound of the high-water mark, garbage included). The parent kills the probe at its time
 * limit.
 *
 * <p>Arguments: {@code ALGORITHM N SEED BUDGET_SECONDS}.
 */
public final class SpeedProbe {
  /** Most warm repetitions. */
  static final int MAX_WARM = 5;

  private SpeedProbe() {}

  /**
   * @param args algorithm name, matrix size n, seed, time budget in seconds for the warm runs
   */
  public static void main(String[] args) {
    String algorithm = args[0];
    int n = Integer.parseInt(args[1]);
    long seed = Long.parseLong(args[2]);
    double budget = Double.parseDouble(args[3]);
    TrafficMatrix m = DenseInstances.matrix(n, seed);
    Platform p = DenseInstances.platform(n);
    StepScheduler scheduler = Algorithms.byName(algorithm);
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    long start = System.nanoTime();
    long c0 = processCpuNanos();
    Schedule s = scheduler.schedule(m, p);
    long t1 = System.nanoTime();
    long c1 = processCpuNanos();
    double coldWall = (t1 - start) / 1e9;
    double coldCpu = (c1 - c0) / 1e9;
    s.validate(m, p);
    double ratio = s.cost(p.beta()) / LowerBound.of(m, p).eta();
    double warmWall = Double.NaN;
    double warmCpu = Double.NaN;
    int warm = 0;
    double last = coldWall;
    while (warm < MAX_WARM && (System.nanoTime() - start) / 1e9 + last < budget) {
      long w0 = System.nanoTime();
      long wc0 = processCpuNanos();
      if (scheduler.schedule(m, p).stepCount() != s.stepCount()) {
        throw new IllegalStateException(algorithm + " is not deterministic");
      }
      last = (System.nanoTime() - w0) / 1e9;
      double cpu = (processCpuNanos() - wc0) / 1e9;
      warmWall = warm == 0 ? last : Math.min(warmWall, last);
      warmCpu = warm == 0 ? cpu : Math.min(warmCpu, cpu);
      warm++;
    }
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf(
        Locale.ROOT,
        "seconds=%.6f cpu=%.6f warmSeconds=%.6f warmCpu=%.6f warmRuns=%d peakHeap=%d steps=%d"
            + " ratio=%.6f%n",
        coldWall,
        coldCpu,
        warmWall,
        warmCpu,
        warm,
        peak,
        s.stepCount(),
        ratio);
  }

  /**
   * @return CPU time of this JVM process so far, nanoseconds
   */
  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      return hotspot.getProcessCpuTime();
    }
    throw new IllegalStateException("process CPU time is not available on this JVM");
  }
}
