package io.wanshuffle.spark.coordinator;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test listener that re-validates every computed plan against its own residual matrix (bytes turned
 * into seconds at the event's base speed) and platform, and keeps the messages of the plans that
 * fail {@code Schedule.validate}. Thread-safe: callbacks may come from any thread.
 */
final class PlanValidator implements CoordinatorListener {
  final List<String> invalid = new CopyOnWriteArrayList<>();

  @Override
  public void onPlanComputed(PlanEvent p) {
    double[][] sec = new double[p.senders().size()][p.receivers().size()];
    for (int i = 0; i < sec.length; i++) {
      for (int j = 0; j < sec[i].length; j++) {
        sec[i][j] = p.residualBytes().bytesAt(i, j) / (double) p.bytesPerSecond();
      }
    }
    try {
      p.schedule().validate(TrafficMatrix.of(sec), p.platform());
    } catch (RuntimeException e) {
      invalid.add(e.getMessage());
    }
  }
}
