package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.KVStoreIterator;
import scala.runtime.BoxedUnit;

/**
 * Keeps the capture's events in the application's status store as {@link StageRow}s and {@link
 * StepRow}s, and the executor hosts checked against the topology as {@link HostRow}s, for the WAN
 * Shuffle tab: on the driver's status queue of the live listener bus, and in the History Server
 * while it replays an event log. Past {@value #MAX_STEPS} steps the oldest tenth are dropped
 * (Spark's own retention works the same way, through the store's triggers), so a long application's
 * steps cannot fill the driver's memory.
 */
public final class WanShuffleStatusListener extends SparkListener {
  /** Most step rows kept. */
  static final long MAX_STEPS = 100_000;

  private final ElementTrackingStore store;
  private final long maxSteps;

  /**
   * @param store the application's status store
   */
  public WanShuffleStatusListener(ElementTrackingStore store) {
    this(store, MAX_STEPS);
  }

  /**
   * @param store the application's status store
   * @param maxSteps most step rows kept
   */
  WanShuffleStatusListener(ElementTrackingStore store, long maxSteps) {
    this.store = store;
    this.maxSteps = maxSteps;
    store.addTrigger(
        StepRow.class,
        maxSteps,
        count -> {
          dropOldestSteps((Long) count);
          return BoxedUnit.UNIT;
        });
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof WanShuffleStepCompleted s) {
      store.write(new StepRow(s.stepId(), s), true);
    } else if (event instanceof WanShuffleStageCaptured s) {
      store.write(StageRow.of(s));
    } else if (event instanceof WanShuffleTopologyHost h) {
      store.write(new HostRow(h.host(), h));
    }
  }

  private void dropOldestSteps(long count) {
    long drop = Math.max(1, count - maxSteps + maxSteps / 10);
    List<Long> ids = new ArrayList<>();
    try (KVStoreIterator<StepRow> it = store.view(StepRow.class).closeableIterator()) {
      while (it.hasNext() && ids.size() < drop) {
        ids.add(it.next().id);
      }
    } catch (Exception e) {
      return;
    }
    for (long id : ids) {
      store.delete(StepRow.class, id);
    }
  }
}
