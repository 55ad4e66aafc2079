package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.measure.MeasuredFlow;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.measure.NetworkEstimator;
import io.wanshuffle.spark.measure.NetworkMeter;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Feeds the coordinator's realised flows to a {@link NetworkMeter}: each task's bytes per source
 * host in a step become a {@link MeasuredFlow} with the step's grant time (none for ungated
 * fetches), as the report arrives; a flow reported stalled measures nothing. A {@link
 * CoordinatorListener}, so it sees what the capture sees; not thread-safe on its own (callbacks run
 * under the coordinator's lock), its meter is.
 */
public final class MeasuringListener implements CoordinatorListener {
  /** Grant times kept, by step id (the most recent). */
  private static final int KEEP = 4096;

  private final NetworkMeter meter;
  private final Map<Long, Long> grantedAtMs =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> e) {
          return size() > KEEP;
        }
      };

  /**
   * @param links the links each flow's route crosses
   */
  public MeasuringListener(LinkModel links) {
    this.meter = new NetworkMeter(NetworkEstimator.Routes.of(links));
  }

  /**
   * @return the current estimate of the network ({@link NetworkMeter#estimate()})
   */
  public NetworkEstimate estimate() {
    return meter.estimate();
  }

  /**
   * @return the meter
   */
  public NetworkMeter meter() {
    return meter;
  }

  @Override
  public void onStepGranted(StepEvent e) {
    grantedAtMs.put(e.stepId(), e.grantedAtMs());
  }

  @Override
  public void onTransferRealised(TransferRecord r) {
    if (r.stalled()) {
      return; // its time span holds the stall: no rate of the path
    }
    long granted = r.stepId() > 0 ? grantedAtMs.getOrDefault(r.stepId(), 0L) : 0;
    for (int i = 0; i < r.srcHosts().size(); i++) {
      meter.add(
          new MeasuredFlow(
              r.srcHosts().get(i), r.dstHost(), r.bytes()[i], granted, r.startMs(), r.endMs()));
    }
  }
}
