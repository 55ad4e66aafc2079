package io.wanshuffle.spark.coordinator.event;

/**
 * One attempt of one Spark stage.
 *
 * @param stageId Spark's stage id
 * @param attempt the stage attempt number (0 for the first attempt)
 */
public record StageRef(int stageId, int attempt) implements java.io.Serializable {
  @Override
  public String toString() {
    return stageId + "." + attempt;
  }
}
