package io.wanshuffle.spark.reader;

import java.io.InputStream;
import java.util.List;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/** Opens a fetch over a subset of a task's blocks ({@link Fetchers} in production). */
interface BlockOpener {
  /**
   * @param blocks blocks by address, Spark's (block id, size in bytes, map index) triples
   * @return (block id, stream) pairs; requests are sent when this is called
   */
  Iterator<Tuple2<BlockId, InputStream>> open(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks);

  /**
   * Bytes a fetcher sends requests for at once, before the task has read any of them ({@code
   * spark.reducer.maxSizeInFlight} in production): blocks beyond it are requested only as the task
   * reads, so a step that took more would end at the task's pace, not the network's. The default is
   * unbounded.
   *
   * @return bytes, positive
   */
  default long maxBytesInFlight() {
    return Long.MAX_VALUE;
  }

  /**
   * Opens the fetch of a granted step and runs {@code onArrived} once every block's bytes have
   * reached this host, before the task has read them (from any thread; never if a block fails or
   * the opener cannot tell), tells {@code ahead} (if not null) when the step may be reported ahead
   * of its end, as {@link HandoverPredictor} predicts, and {@code progress} how its bytes advance.
   * The default does none of these.
   *
   * @param blocks blocks by address, Spark's (block id, size in bytes, map index) triples
   * @param onArrived what to do when the step's flow has ended on the network
   * @param ahead told the predicted hand-over time (epoch ms), maybe several times; null for none
   * @param progress told the step's requests sent, bytes streamed and blocks settled (its stall
   *     watch reads it); the default never tells it, so the step never looks stalled
   * @return (block id, stream) pairs; requests are sent when this is called
   */
  default Iterator<Tuple2<BlockId, InputStream>> openStep(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      Runnable onArrived,
      ArrivalTrackingClient.AheadSignal ahead,
      FlowProgress progress) {
    return open(blocks);
  }
}
