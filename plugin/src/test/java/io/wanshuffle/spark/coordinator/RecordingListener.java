package io.wanshuffle.spark.coordinator;

import java.util.ArrayList;
import java.util.List;

/** Test listener that keeps every event. */
public final class RecordingListener implements CoordinatorListener {
  public final List<DemandEvent> demands = new ArrayList<>();
  public final List<PlanEvent> plans = new ArrayList<>();
  public final List<StepEvent> steps = new ArrayList<>();
  public final List<TransferRecord> transfers = new ArrayList<>();
  public final List<Object[]> done = new ArrayList<>();
  public final List<String> released = new ArrayList<>();
  public final List<StageSummary> stages = new ArrayList<>();

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
