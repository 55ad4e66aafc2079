package io.wanshuffle.bench.coordinator;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * What the driver's side of a run costs: the coordinator's plans (listener: the scheduler's time of
 * each re-plan, steps and flows granted), the heap after each garbage collection (its peak is the
 * high-water mark of the live heap, an upper bound: old garbage not yet collected counts), and CPU
 * time (the whole process in rpc mode; in-process, the coordinator's own threads plus the time the
 * simulated tasks spent inside its calls).
 */
final class DriverProbe implements CoordinatorListener {
  private long[] planNanos = new long[256];
  private int plans;
  private long steps;
  private long flows;
  private double lastPlanBetaSeconds = Double.NaN;
  private volatile long peakHeapAfterGc;
  private final List<Runnable> unregister = new ArrayList<>();

  /** Starts watching the collections. */
  void watchHeap() {
    Set<String> heapPools = new HashSet<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        heapPools.add(p.getName());
      }
    }
    NotificationListener l =
        (Notification n, Object handback) -> {
          if (!n.getType()
              .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
          }
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
          long used = 0;
          for (Map.Entry<String, MemoryUsage> e :
              info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
              used += e.getValue().getUsed();
            }
          }
          synchronized (this) {
            peakHeapAfterGc = Math.max(peakHeapAfterGc, used);
          }
        };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter e) {
        e.addNotificationListener(l, null, null);
        unregister.add(
            () -> {
              try {
                e.removeNotificationListener(l);
              } catch (javax.management.ListenerNotFoundException x) {
                // already gone
              }
            });
      }
    }
  }

  /** Stops watching the collections. */
  void stopWatching() {
    unregister.forEach(Runnable::run);
    unregister.clear();
  }

  /**
   * @return the largest heap in use after a collection, bytes; without any collection yet, the heap
   *     in use now
   */
  long peakHeapBytes() {
    long p = peakHeapAfterGc;
    return p > 0 ? p : ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Forgets the plans, steps and flows seen so far (a warm-up stage's). */
  synchronized void clear() {
    plans = 0;
    steps = 0;
    flows = 0;
    lastPlanBetaSeconds = Double.NaN;
  }

  @Override
  public synchronized void onPlanComputed(PlanEvent e) {
    if (plans == planNanos.length) {
      planNanos = Arrays.copyOf(planNanos, 2 * plans);
    }
    planNanos[plans++] = e.planNanos();
    lastPlanBetaSeconds = e.platform().beta();
  }

  @Override
  public synchronized void onStepGranted(StepEvent e) {
    steps++;
    flows += e.flows().size();
  }

  /**
   * @return every re-plan's scheduler time, ms
   */
  synchronized double[] planMs() {
    double[] out = new double[plans];
    for (int i = 0; i < plans; i++) {
      out[i] = planNanos[i] / 1e6;
    }
    return out;
  }

  /**
   * @return β of the last plan since the last {@link #clear}, seconds; NaN without a plan
   */
  synchronized double lastPlanBetaSeconds() {
    return lastPlanBetaSeconds;
  }

  /**
   * @return steps granted
   */
  synchronized long steps() {
    return steps;
  }

  /**
   * @return flows granted
   */
  synchronized long flows() {
    return flows;
  }

  /**
   * @return CPU time of this JVM so far, ns
   */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * @param prefix a thread name prefix
   * @return CPU time of the live threads whose name starts with it, ns
   */
  static long threadCpuNanos(String prefix) {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo i : t.getThreadInfo(t.getAllThreadIds())) {
      if (i != null && i.getThreadName().startsWith(prefix)) {
        sum += Math.max(0, t.getThreadCpuTime(i.getThreadId()));
      }
    }
    return sum;
  }
}
