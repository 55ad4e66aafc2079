package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * The fetch of a reader's remaining cross-cluster blocks without gating (the fall-back when the
 * coordinator fails, times out, releases the demand, or the wait passes {@code
 * spark.wanshuffle.grant.maxWait}): one fetcher over every block not taken yet, and, once the task
 * has read them, the report of their bytes per source host for the capture. Task thread only.
 */
final class UngatedFetch {
  private final Iterator<Tuple2<BlockId, InputStream>> blocks;
  private final long startMs;

  /** Bytes taken per host of the reader's hosts; null once reported. */
  private long[] bytes;

  private UngatedFetch(Iterator<Tuple2<BlockId, InputStream>> blocks, long[] bytes, long startMs) {
    this.blocks = blocks;
    this.bytes = bytes;
    this.startMs = startMs;
  }

  /**
   * Takes every block left and opens their fetch.
   *
   * @param cross the reader's cross-cluster blocks
   * @param fetchers opens the fetch
   * @return the fetch, its requests sent
   */
  static UngatedFetch start(CrossClusterBlocks cross, BlockOpener fetchers) {
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
    long[] taken = cross.takeAll(out);
    long start = System.currentTimeMillis();
    return new UngatedFetch(fetchers.open(out), taken, start);
  }

  /**
   * @return the (block, stream) pairs of the fetch
   */
  Iterator<Tuple2<BlockId, InputStream>> blocks() {
    return blocks;
  }

  /**
   * The report of what the fetch took, once, after the task has read it.
   *
   * @param demand the reader's demand (stage, task, hosts)
   * @param demandId the registered demand's id, 0 when none was registered
   * @return the bytes per source host that had any, with the fetch's time span; null when nothing
   *     was taken or it was reported already
   */
  UngatedReport finish(RegisterDemand demand, long demandId) {
    if (bytes == null) {
      return null;
    }
    String[] hosts = demand.srcHosts();
    List<String> h = new ArrayList<>();
    List<Long> b = new ArrayList<>();
    for (int i = 0; i < hosts.length; i++) {
      if (bytes[i] > 0) {
        h.add(hosts[i]);
        b.add(bytes[i]);
      }
    }
    bytes = null;
    if (h.isEmpty()) {
      return null;
    }
    RegisterDemand what =
        new RegisterDemand(
            demand.stageId(),
            demand.stageAttempt(),
            demand.shuffleId(),
            demand.taskAttemptId(),
            demand.executorId(),
            demand.dstHost(),
            h.toArray(new String[0]),
            b.stream().mapToLong(Long::longValue).toArray());
    return new UngatedReport(demandId, what, startMs, System.currentTimeMillis());
  }
}
