package io.wanshuffle.spark.ui;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import org.apache.spark.util.kvstore.KVIndex;

/** A completed step in the application's status store, keyed by its step id. */
public final class StepRow {
  /** The natural key: the step id. */
  @KVIndex @JsonProperty public final long id;

  /** The step's event. */
  @JsonProperty public final WanShuffleStepCompleted event;

  /**
   * @param id the step id
   * @param event the step's event
   */
  @JsonCreator
  public StepRow(
      @JsonProperty("id") long id, @JsonProperty("event") WanShuffleStepCompleted event) {
    this.id = id;
    this.event = event;
  }
}
