package io.wanshuffle.it.fault;

import java.util.List;

/**
 * The faults of one run: a {@code run-app} run, or a measured run of an {@code e2e-bench} cell.
 *
 * @param measuredRun the measured run's number within its application, from 1 ({@code e2e-bench});
 *     null for a {@code run-app} run
 * @param reduceStageStart when the run's first reduce stage started, wall clock (ISO-8601, UTC):
 *     the faults' times count from it; null when none started (the faults were not applied)
 * @param reduceStageStartEpochMs the same, ms since the epoch, or null
 * @param faults what happened to each fault, in the order given
 * @param error why the faults could not be injected at all (the reduce-stage listener did not
 *     start), or null
 */
public record FaultRun(
    Integer measuredRun,
    String reduceStageStart,
    Long reduceStageStartEpochMs,
    List<FaultRecord> faults,
    String error) {

  /** Copies the list. */
  public FaultRun {
    faults = List.copyOf(faults);
  }

  /** A run without faults. */
  public static final FaultRun NONE = new FaultRun(null, null, null, List.of(), null);

  /**
   * @return true when the faults could not be injected, or applying or undoing one failed
   */
  public boolean failed() {
    return error != null || faults.stream().anyMatch(FaultRecord::failed);
  }
}
