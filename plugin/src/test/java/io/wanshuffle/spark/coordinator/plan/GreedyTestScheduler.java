package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.List;

/**
 * Test double: a valid, non-preemptive KPBS scheduler (largest remaining transfers first, each step
 * a maximal set within k and δ). Lets the coordinator tests pin exact steps independent of the
 * production algorithms, which have their own tests in scheduler-core.
 */
public final class GreedyTestScheduler implements StepScheduler {
  @Override
  public String name() {
    return "greedy-test";
  }

  @Override
  public Schedule schedule(TrafficMatrix m, Platform p) {
    p.requireShape(m);
    double[] left = m.toRowMajor();
    int cols = m.cols();
    List<Step> steps = new ArrayList<>();
    while (true) {
      List<Integer> order = new ArrayList<>();
      for (int e = 0; e < left.length; e++) {
        if (left[e] > 0) {
          order.add(e);
        }
      }
      if (order.isEmpty()) {
        return new Schedule(steps);
      }
      order.sort((a, b) -> Double.compare(left[b], left[a]));
      int[] su = new int[m.rows()];
      int[] ru = new int[cols];
      List<Transfer> ts = new ArrayList<>();
      for (int e : order) {
        int i = e / cols;
        int j = e % cols;
        if (ts.size() < p.k() && su[i] < p.senderPorts(i) && ru[j] < p.receiverPorts(j)) {
          su[i]++;
          ru[j]++;
          ts.add(new Transfer(i, j, left[e]));
          left[e] = 0;
        }
      }
      steps.add(Step.of(ts));
    }
  }
}
