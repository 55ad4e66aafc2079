package io.wanshuffle.spark.ui;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import org.apache.spark.util.kvstore.KVIndex;

/**
 * An executor host in the application's status store: its {@link WanShuffleTopologyHost} event
 * (whether the topology maps it) under the key of the host's name.
 */
public final class HostRow {
  /** The natural key: the host. */
  @KVIndex @JsonProperty public final String host;

  /** The host's event. */
  @JsonProperty public final WanShuffleTopologyHost event;

  /**
   * @param host the host
   * @param event its event
   */
  @JsonCreator
  public HostRow(
      @JsonProperty("host") String host, @JsonProperty("event") WanShuffleTopologyHost event) {
    this.host = host;
    this.event = event;
  }
}
