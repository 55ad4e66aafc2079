package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.CapturedEvents;
import java.io.UncheckedIOException;
import org.apache.spark.util.kvstore.KVStore;
import org.apache.spark.util.kvstore.KVStoreIterator;

/** Reads the tab's rows ({@link StageRow}, {@link StepRow}) back from a status store. */
final class WanShuffleStore {
  private WanShuffleStore() {}

  /**
   * @param store an application's status store
   * @return its stages and steps as events, joined ({@link CapturedEvents})
   * @throws UncheckedIOException if the store cannot be read
   */
  static CapturedEvents of(KVStore store) {
    CapturedEvents events = new CapturedEvents();
    try (KVStoreIterator<StepRow> steps = store.view(StepRow.class).closeableIterator()) {
      while (steps.hasNext()) {
        events.add(steps.next().event);
      }
    } catch (Exception e) {
      throw new UncheckedIOException(new java.io.IOException("cannot read the step rows", e));
    }
    try (KVStoreIterator<StageRow> stages = store.view(StageRow.class).closeableIterator()) {
      while (stages.hasNext()) {
        events.add(stages.next().event);
      }
    } catch (Exception e) {
      throw new UncheckedIOException(new java.io.IOException("cannot read the stage rows", e));
    }
    return events;
  }
}
