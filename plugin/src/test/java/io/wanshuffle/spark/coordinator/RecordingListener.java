package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test listener that keeps every event. Its lists are thread-safe: the coordinator's threads add
 * while a test thread polls their size and prints them.
 */
public final class RecordingListener implements CoordinatorListener {
  public final List<DemandEvent> demands = new CopyOnWriteArrayList<>();
  public final List<PlanEvent> plans = new CopyOnWriteArrayList<>();
  public final List<StepEvent> steps = new CopyOnWriteArrayList<>();
  public final List<TransferRecord> transfers = new CopyOnWriteArrayList<>();
  public final List<Object[]> done = new CopyOnWriteArrayList<>();
  public final List<String> released = new CopyOnWriteArrayList<>();
  public final List<StageSummary> stages = new CopyOnWriteArrayList<>();

  @Override
  public void onDemandRegistered(DemandEvent e) {
    demands.add(e);
  }

  @Override
  public void onPlanComputed(PlanEvent e) {
    plans.add(e);
  }

  @Override
  public void onStepGranted(StepEvent e) {
    steps.add(e);
  }

  @Override
  public void onTransferRealised(TransferRecord r) {
    transfers.add(r);
  }

  @Override
  public void onStepDone(StepEvent e, long endMs, boolean deadlinePassed) {
    done.add(new Object[] {e.stepId(), deadlinePassed});
  }

  @Override
  public void onDemandReleased(long demandId, long taskAttemptId, long unrealised, String reason) {
    released.add(taskAttemptId + ":" + reason + ":" + unrealised);
  }

  @Override
  public void onStageDone(StageSummary s) {
    stages.add(s);
  }
}
