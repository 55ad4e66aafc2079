package io.wanshuffle.spark.ui;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import org.apache.spark.util.kvstore.KVIndex;

/**
 * A gated stage in the application's status store (Spark's {@code KVStore}, kept in memory or, in
 * the History Server, on disk as JSON): its {@link WanShuffleStageCaptured} event under the key
 * {@code <stage id>.<attempt>}.
 */
public final class StageRow {
  /** The natural key: {@code <stage id>.<attempt>}. */
  @KVIndex @JsonProperty public final String id;

  /** The stage's event. */
  @JsonProperty public final WanShuffleStageCaptured event;

  /**
   * @param id {@code <stage id>.<attempt>}
   * @param event the stage's event
   */
  @JsonCreator
  public StageRow(
      @JsonProperty("id") String id, @JsonProperty("event") WanShuffleStageCaptured event) {
    this.id = id;
    this.event = event;
  }

  /**
   * @param e a stage's event
   * @return its row
   */
  static StageRow of(WanShuffleStageCaptured e) {
    return new StageRow(e.stageId() + "." + e.stageAttempt(), e);
  }
}
