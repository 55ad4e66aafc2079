package io.wanshuffle.cli.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: the trivial valid schedule (one step per non-zero entry, row-major order), so the
 * command's plumbing is tested whatever algorithms the registry holds.
 */
final class OneTransferPerStep implements StepScheduler {
  @Override
  public String name() {
    return "one-per-step";
  }

  @Override
  public Schedule schedule(TrafficMatrix m, Platform p) {
    p.requireShape(m);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        if (m.amount(i, j) > 0) {
          steps.add(Step.of(List.of(new Transfer(i, j, m.amount(i, j)))));
        }
      }
    }
    return new Schedule(steps);
  }
}
