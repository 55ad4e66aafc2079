package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.WanShuffleLinkChanged;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.KVStoreIterator;
import scala.runtime.BoxedUnit;

/**
 * Keeps the capture's events in the application's status store as {@link StageRow}s, {@link
 * StepRow}s and {@link LinkChangeRow}s, and the executor hosts checked against the topology as
 * {@link HostRow}s, for the WAN Shuffle tab: on the driver's status queue of the live listener bus,
 * and in the History Server while it replays an event log. Past {@value #MAX_STEPS} steps, or
 * {@value #MAX_LINK_CHANGES} link changes, the oldest tenth are dropped (Spark's own retention
 * works the same way, through the store's triggers), so a long application cannot fill the driver's
 * memory.
 */
public final class WanShuffleStatusListener extends SparkListener {
  /** Most step rows kept. */
  static final long MAX_STEPS = 100_000;

  /** Most link change rows kept. */
  static final long MAX_LINK_CHANGES = 10_000;

  private final ElementTrackingStore store;
  private final long maxSteps;

  /** The next link change's key; the listener bus calls this listener on one thread. */
  private long nextLinkChange;

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
          dropOldest(StepRow.class, r -> r.id, (Long) count, maxSteps);
          return BoxedUnit.UNIT;
        });
    store.addTrigger(
        LinkChangeRow.class,
        MAX_LINK_CHANGES,
        count -> {
          dropOldest(LinkChangeRow.class, r -> r.id, (Long) count, MAX_LINK_CHANGES);
          return BoxedUnit.UNIT;
        });
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof WanShuffleStepCompleted s) {
      store.write(new StepRow(s.stepId(), s), true);
    } else if (event instanceof WanShuffleStageCaptured s) {
      store.write(StageRow.of(s));
    } else if (event instanceof WanShuffleLinkChanged c) {
      store.write(new LinkChangeRow(nextLinkChange++, c), true);
    } else if (event instanceof WanShuffleTopologyHost h) {
      store.write(new HostRow(h.host(), h));
    }
  }

  /** Drops the oldest rows of a type past its limit, a tenth of the limit below it. */
  private <R> void dropOldest(Class<R> type, ToLongFunction<R> key, long count, long max) {
    long drop = Math.max(1, count - max + max / 10);
    List<Long> ids = new ArrayList<>();
    try (KVStoreIterator<R> it = store.view(type).closeableIterator()) {
      while (it.hasNext() && ids.size() < drop) {
        ids.add(key.applyAsLong(it.next()));
      }
    } catch (Exception e) {
      return;
    }
    for (long id : ids) {
      store.delete(type, id);
    }
  }
}
