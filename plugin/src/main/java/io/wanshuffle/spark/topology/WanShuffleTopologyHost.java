package io.wanshuffle.spark.topology;

import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * SparkListener event posted on the driver's listener bus the first time an executor host
 * registers: whether the topology maps it. Lands in the event log (Spark serialises it with
 * Jackson, the class name in the {@code Event} field), so the WAN Shuffle tab lists the mapped and
 * unmapped hosts in the live UI and in the History Server.
 *
 * @param executorId the first executor seen on the host
 * @param host the host, as its block manager reports it
 * @param path its network path ({@code /cluster/rack}), null when the topology does not map it
 */
public record WanShuffleTopologyHost(String executorId, String host, String path)
    implements SparkListenerEvent {
  /**
   * @return true when the topology maps the host
   */
  public boolean mapped() {
    return path != null;
  }
}
