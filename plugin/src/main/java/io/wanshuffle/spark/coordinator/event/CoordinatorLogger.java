package io.wanshuffle.spark.coordinator.event;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one logger of the coordinator's driver-log lines (steps granted, stages done, decisions, the
 * {@code auto} values adopted), named after the façade, {@code
 * io.wanshuffle.spark.coordinator.StepCoordinator}, whichever role writes the line: an operator
 * sets one logger to see or silence them all (docs/plugin.md, docs/development.md).
 */
public final class CoordinatorLogger {
  /** The logger. */
  public static final Logger LOG =
      LoggerFactory.getLogger("io.wanshuffle.spark.coordinator.StepCoordinator");

  private CoordinatorLogger() {}
}
