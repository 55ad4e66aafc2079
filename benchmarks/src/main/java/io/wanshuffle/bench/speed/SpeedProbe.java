package io.wanshuffle.bench.speed;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * Child-JVM probe run by {@link SpeedCommand} before JMH: schedules one dense instance once (cold),
 * validates the schedule, and prints one line
 * {@code seconds=<wall s> cpu=<thread CPU s> peakHeap=<bytes> steps=<n> ratio=<cost/η>}. The CPU
 * time of the calling thread is less disturbed than wall time when other processes load the
 * machine. The peak heap is the sum of
 * the heap memory pools' peak usage since a reset just before the call (an upper bound of the
 * high-water mark, garbage included). The parent kills the probe after its time limit.
 *
 * <p>Arguments: {@code ALGORITHM N SEED}.
 */
public final class SpeedProbe {
  private SpeedProbe() {}

  /**
   * @param args algorithm name, matrix size n, seed
   */
  public static void main(String[] args) {
    String algorithm = args[0];
    int n = Integer.parseInt(args[1]);
    long seed = Long.parseLong(args[2]);
    TrafficMatrix m = DenseInstances.matrix(n, seed);
    Platform p = DenseInstances.platform(n);
    var scheduler = Algorithms.byName(algorithm);
    System.gc();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    var threads = ManagementFactory.getThreadMXBean();
    long c0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    Schedule s = scheduler.schedule(m, p);
    long t1 = System.nanoTime();
    long c1 = threads.getCurrentThreadCpuTime();
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    s.validate(m, p);
    double ratio = s.cost(p.beta()) / LowerBound.of(m, p).eta();
    System.out.printf(Locale.ROOT, "seconds=%.6f cpu=%.6f peakHeap=%d steps=%d ratio=%.6f%n",
        (t1 - t0) / 1e9, (c1 - c0) / 1e9, peak, s.stepCount(), ratio);
  }
}
