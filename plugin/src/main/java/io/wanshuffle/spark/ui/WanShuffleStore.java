package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.CapturedEvents;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.util.kvstore.KVStore;
import org.apache.spark.util.kvstore.KVStoreIterator;

/**
 * Reads the tab's rows ({@link StageRow}, {@link StepRow}, {@link LinkChangeRow}, {@link HostRow})
 * back from a status store.
 */
final class WanShuffleStore {
  private WanShuffleStore() {}

  /**
   * @param store an application's status store
   * @return its stages, steps and link changes as events, joined ({@link CapturedEvents})
   * @throws UncheckedIOException if the store cannot be read
   */
  static CapturedEvents of(KVStore store) {
    CapturedEvents events = new CapturedEvents();
    rows(store, StepRow.class, "step").forEach(r -> events.add(r.event));
    rows(store, StageRow.class, "stage").forEach(r -> events.add(r.event));
    rows(store, LinkChangeRow.class, "link change").forEach(r -> events.add(r.event));
    return events;
  }

  /**
   * @param store an application's status store
   * @return the executor hosts checked against the topology, sorted by host
   * @throws UncheckedIOException if the store cannot be read
   */
  static List<WanShuffleTopologyHost> hosts(KVStore store) {
    return rows(store, HostRow.class, "host").stream().map(r -> r.event).toList();
  }

  /** Every row of a type, in the order of its natural key. */
  private static <R> List<R> rows(KVStore store, Class<R> type, String what) {
    List<R> rows = new ArrayList<>();
    try (KVStoreIterator<R> it = store.view(type).closeableIterator()) {
      while (it.hasNext()) {
        rows.add(it.next());
      }
    } catch (Exception e) {
      throw new UncheckedIOException(new IOException("cannot read the " + what + " rows", e));
    }
    return rows;
  }
}
