package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.compat.ScalaCollections;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * The blocks of one reduce task split by the topology: same-cluster blocks (fetched at once) and,
 * per cross-cluster source host, a queue of blocks taken out step by step as grants arrive. Block
 * sizes are those the MapOutputTracker reports (bytes). Empty blocks go with the same-cluster ones.
 *
 * <p>Not thread-safe: one thread uses it at a time, and it changes hands only where the reader
 * hands over control. It belongs to the reader's task thread, except while the reader awaits the
 * answer to a step report ({@link ReaderPhase#REPORTED}, or a step reported off the task thread
 * that the task has not noticed yet): then the {@link StepOpener} that acts on that answer may take
 * a grant's blocks, on a step-opener thread and only under the reader's {@link OpenerGate} lock
 * while the gate is open, and the task thread leaves the blocks alone. The task thread gets them
 * back when it takes the opener's answer from the reader's queue (the post happens-before the
 * take), or when it closes the gate under its lock (going ungated, task end), after which no opener
 * takes any. {@link #hosts()}, {@link #registeredBytes()} and {@link #sameCluster()} are fixed when
 * it is built.
 */
final class CrossClusterBlocks {
  /** One block: where it lives and Spark's (block id, size, map index) triple. */
  private record Block(BlockManagerId address, Tuple3<BlockId, Object, Object> info) {
    long size() {
      return (Long) info._2();
    }
  }

  private final List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> sameCluster =
      new ArrayList<>();

  /** Blocks not taken yet per source host. Confined: the task thread, or an opener (above). */
  private final Map<String, ArrayDeque<Block>> cross = new LinkedHashMap<>();

  /** Bytes not taken yet per source host. Confined as {@link #cross}. */
  private final Map<String, Long> remaining = new LinkedHashMap<>();

  /** Bytes per source host when built. Fixed. */
  private final Map<String, Long> registered = new LinkedHashMap<>();

  /**
   * @param blocks Spark's blocks by address for this task
   * @param localHost the host the task runs on
   * @param topology the cluster topology
   */
  CrossClusterBlocks(
      Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      String localHost,
      ClusterTopology topology) {
    while (blocks.hasNext()) {
      Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> t = blocks.next();
      String host = t._1().host();
      if (topology.sameCluster(localHost, host)) {
        sameCluster.add(t);
        continue;
      }
      List<Tuple3<BlockId, Object, Object>> empty = new ArrayList<>();
      for (Tuple3<BlockId, Object, Object> b : ScalaCollections.asJava(t._2())) {
        long size = (Long) b._2();
        if (size <= 0) {
          empty.add(b);
        } else {
          cross.computeIfAbsent(host, h -> new ArrayDeque<>()).add(new Block(t._1(), b));
          remaining.merge(host, size, Long::sum);
        }
      }
      if (!empty.isEmpty()) {
        sameCluster.add(new Tuple2<>(t._1(), ScalaCollections.toList(empty)));
      }
    }
    registered.putAll(remaining);
  }

  /**
   * @return blocks to fetch at once (same cluster, unknown hosts, empty blocks)
   */
  List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> sameCluster() {
    return sameCluster;
  }

  /**
   * @return cross-cluster source hosts, in first-seen order
   */
  String[] hosts() {
    return registered.keySet().toArray(new String[0]);
  }

  /**
   * @return bytes registered per host of {@link #hosts()}
   */
  long[] registeredBytes() {
    return registered.values().stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * @return bytes not yet taken per host of {@link #hosts()}
   */
  long[] remainingBytes() {
    String[] h = hosts();
    long[] r = new long[h.length];
    for (int i = 0; i < h.length; i++) {
      r[i] = remaining.getOrDefault(h[i], 0L);
    }
    return r;
  }

  /**
   * @return true when every cross-cluster block has been taken
   */
  boolean isEmpty() {
    for (ArrayDeque<Block> q : cross.values()) {
      if (!q.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Takes blocks of {@code host} in order while less than {@code budget} bytes are taken: at least
   * one block when any is left, at most one block beyond the budget.
   *
   * @param host source host
   * @param budget byte budget of the grant
   * @param out where the taken blocks are appended (grouped by block manager)
   * @return bytes taken
   */
  long take(
      String host,
      long budget,
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out) {
    return take(host, budget, Long.MAX_VALUE, true, out);
  }

  /**
   * Like {@link #take(String, long, List)}, but never beyond {@code limit} bytes: a block that
   * would bring the bytes taken above it stops the take, unless it is the first and {@code
   * firstAnyway}.
   *
   * @param host source host
   * @param budget byte budget of the grant
   * @param limit most bytes to take
   * @param firstAnyway take the first block even when it alone is larger than {@code limit}
   * @param out where the taken blocks are appended (grouped by block manager)
   * @return bytes taken
   */
  long take(
      String host,
      long budget,
      long limit,
      boolean firstAnyway,
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out) {
    ArrayDeque<Block> q = cross.get(host);
    List<Block> taken = new ArrayList<>();
    long bytes = 0;
    while (q != null && !q.isEmpty() && (taken.isEmpty() || bytes < budget)) {
      if (bytes + q.peek().size() > limit && !(firstAnyway && taken.isEmpty())) {
        break;
      }
      Block b = q.poll();
      taken.add(b);
      bytes += b.size();
    }
    if (bytes > 0) {
      remaining.merge(host, -bytes, Long::sum);
    }
    group(taken, out);
    return bytes;
  }

  /**
   * Puts blocks taken by {@link #take} back, ahead of the blocks not taken yet (a paced step cut
   * before it opened them), so that a later grant takes them.
   *
   * @param taken blocks as {@code take} appended them (grouped by block manager)
   */
  void giveBack(List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> taken) {
    List<Block> back = new ArrayList<>();
    for (Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> t : taken) {
      for (Tuple3<BlockId, Object, Object> b : ScalaCollections.asJava(t._2())) {
        back.add(new Block(t._1(), b));
      }
    }
    for (int i = back.size() - 1; i >= 0; i--) {
      Block b = back.get(i);
      cross.computeIfAbsent(b.address().host(), h -> new ArrayDeque<>()).addFirst(b);
      remaining.merge(b.address().host(), b.size(), Long::sum);
    }
  }

  /**
   * Takes every block left.
   *
   * @param out where the blocks are appended
   * @return bytes taken per host of {@link #hosts()}
   */
  long[] takeAll(List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out) {
    String[] h = hosts();
    long[] taken = new long[h.length];
    for (int i = 0; i < h.length; i++) {
      taken[i] = take(h[i], Long.MAX_VALUE, out);
    }
    return taken;
  }

  private static void group(
      List<Block> blocks, List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out) {
    Map<BlockManagerId, List<Tuple3<BlockId, Object, Object>>> by = new LinkedHashMap<>();
    for (Block b : blocks) {
      by.computeIfAbsent(b.address(), a -> new ArrayList<>()).add(b.info());
    }
    for (Map.Entry<BlockManagerId, List<Tuple3<BlockId, Object, Object>>> e : by.entrySet()) {
      out.add(new Tuple2<>(e.getKey(), ScalaCollections.toList(e.getValue())));
    }
  }
}
