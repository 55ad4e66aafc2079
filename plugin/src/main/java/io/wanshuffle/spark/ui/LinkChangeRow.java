package io.wanshuffle.spark.ui;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.wanshuffle.spark.capture.WanShuffleLinkChanged;
import org.apache.spark.util.kvstore.KVIndex;

/**
 * A link's window or this application's share of it that moved, in the application's status store,
 * keyed by the order its event arrived in.
 */
public final class LinkChangeRow {
  /** The natural key: the event's place in the order they arrived (0 first). */
  @KVIndex @JsonProperty public final long id;

  /** The change's event. */
  @JsonProperty public final WanShuffleLinkChanged event;

  /**
   * @param id the event's place in the order they arrived
   * @param event the change's event
   */
  @JsonCreator
  public LinkChangeRow(
      @JsonProperty("id") long id, @JsonProperty("event") WanShuffleLinkChanged event) {
    this.id = id;
    this.event = event;
  }
}
