package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * The fetch of one granted step: the blocks {@link StepTaker} took for it, in chunks opened one
 * after the other, its one {@link StepReport}, and what the report says (bytes fetched from each
 * source host and left to fetch, the flow's time span).
 *
 * <p>An unpaced step is one chunk, opened through {@link BlockOpener#openStep} so that its arrival
 * and predicted hand-over report it off the task thread. A paced step ({@code
 * spark.wanshuffle.flow.rateCap}) opens its chunks as the task reads them, each no earlier than the
 * step's bytes so far are due at (rate cap × flows of the step); it is reported when the task has
 * read it, or when it is cut ({@link #giveBackUnopened()}).
 *
 * <p>Threads: built on the task thread or a step-opener thread, then owned by the task thread
 * (posted to it in a {@link ReaderEvent.StepOpened}); its report is sent from any thread ({@link
 * StepReport}), reading the fields fixed when the step was taken.
 */
final class StepRun {
  private static final Logger LOG = LoggerFactory.getLogger(StepRun.class);

  /**
   * What the steps of one reader use.
   *
   * @param stallTimeoutMs quiet time after which a step's flows are reported stalled ({@code
   *     spark.wanshuffle.flow.stallTimeout}), ms; 0 for never
   */
  record Env(
      BlockOpener fetchers,
      CrossClusterBlocks blocks,
      String[] hosts,
      CoordinatorConversation conversation,
      OpenerGate gate,
      ReaderContext executor,
      TaskContext task,
      ShuffleReadMetricsReporter metrics,
      boolean predictedHandover,
      long stallTimeoutMs) {}

  /** Where the answer to a step's report goes. */
  interface Answers {
    /**
     * @param reported the step whose report was sent
     * @param call the report's number
     * @param reply the coordinator's answer
     * @param idle whether the report said the task reads another shuffle now
     */
    void reported(StepRun reported, long call, CompletableFuture<GrantReply> reply, boolean idle);
  }

  private final Env env;
  private final long stepId;
  private final StepReport report;

  /** Bytes taken per host of the reader's hosts. */
  private final long[] fetched;

  /** Bytes not yet taken per host once this step's blocks were taken (or it was cut). */
  private long[] remaining;

  private final List<List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>>> chunks =
      new ArrayList<>();
  private final List<Long> chunkBytes = new ArrayList<>();

  /** Per chunk, its bytes from each host of the reader's hosts. */
  private final List<long[]> chunkHostBytes = new ArrayList<>();

  private final long paceBytesPerSecond;

  /** When the step's blocks were taken, epoch ms: the flow's start. */
  private long startMs;

  private int next;
  private long issuedBytes;
  private Iterator<Tuple2<BlockId, InputStream>> current;

  /**
   * @param env the reader's parts
   * @param stepId the granted step
   * @param paceBytesPerSecond the step's pace, bytes/s; 0 for none
   * @param answers where the answer to the step's report goes
   */
  StepRun(Env env, long stepId, long paceBytesPerSecond, Answers answers) {
    this.env = env;
    this.stepId = stepId;
    this.paceBytesPerSecond = paceBytesPerSecond;
    this.fetched = new long[env.hosts().length];
    this.report =
        new StepReport(
            new StepReport.Sender() {
              @Override
              public long send(long endMs, boolean idle, long stalledMs) {
                if (stalledMs > 0) {
                  LOG.info(
                      "wan-shuffle demand {}: the flows of step {} made no progress for {} ms; the"
                          + " step is reported stalled and its ports go back to the coordinator"
                          + " (its blocks still arrive or fail through Spark's fetch)",
                      env.conversation().demandId(),
                      stepId,
                      stalledMs);
                }
                CoordinatorConversation.ReportCall c =
                    env.conversation().report(content(endMs, idle, stalledMs));
                answers.reported(StepRun.this, c.call(), c.reply(), idle);
                return c.call();
              }

              @Override
              public void arrived(long reportedMs, long endMs, long stalledMs) {
                env.conversation()
                    .arrived(
                        new FlowArrived(
                            env.conversation().demandId(), stepId, reportedMs, endMs, stalledMs));
              }
            },
            env.executor());
  }

  /**
   * Adds a chunk of taken blocks ({@link StepTaker}).
   *
   * @param blocks the chunk's blocks by address
   * @param bytes their bytes
   * @param hostBytes their bytes per host of the reader's hosts
   */
  void addChunk(
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      long bytes,
      long[] hostBytes) {
    chunks.add(blocks);
    chunkBytes.add(bytes);
    chunkHostBytes.add(hostBytes.clone());
  }

  /**
   * @param host index into the reader's hosts
   * @param bytes bytes taken from it for this step
   */
  void addFetched(int host, long bytes) {
    fetched[host] += bytes;
  }

  /**
   * The step's blocks are taken: its flow starts now.
   *
   * @param remaining bytes not yet taken per host of the reader's hosts
   */
  void taken(long[] remaining) {
    this.remaining = remaining;
    this.startMs = System.currentTimeMillis();
  }

  /**
   * @param remaining bytes not yet taken per host of the reader's hosts, after a cut
   */
  void remaining(long[] remaining) {
    this.remaining = remaining;
  }

  /**
   * @return the granted step's id
   */
  long stepId() {
    return stepId;
  }

  /**
   * @return the step's one report
   */
  StepReport report() {
    return report;
  }

  /**
   * @return bytes taken per host of the reader's hosts (a copy)
   */
  long[] fetched() {
    return fetched.clone();
  }

  /**
   * @return chunks of blocks the step took (opened or not)
   */
  int chunks() {
    return chunks.size();
  }

  /**
   * @return true when the step took no block
   */
  boolean isEmpty() {
    return chunks.isEmpty();
  }

  /**
   * @return the bytes of the blocks this step took (all its chunks)
   */
  long takenBytes() {
    long bytes = 0;
    for (long b : chunkBytes) {
      bytes += b;
    }
    return bytes;
  }

  /**
   * @return true when the step's chunks are opened at a rate cap, as the task reads them
   */
  boolean paced() {
    return paceBytesPerSecond > 0;
  }

  /**
   * @return the (block, stream) pairs of the chunk opened last; null before the first
   */
  Iterator<Tuple2<BlockId, InputStream>> current() {
    return current;
  }

  /**
   * Opens the next chunk, after waiting for the pace (task thread, or the step-opener for an
   * unpaced step's one chunk).
   *
   * @return false when the step has no chunk left
   * @throws org.apache.spark.TaskKilledException if the task is killed while pacing
   */
  boolean openNextChunk() {
    if (next >= chunks.size()) {
      return false;
    }
    if (paceBytesPerSecond > 0 && issuedBytes > 0) {
      long due = startMs + issuedBytes * 1000 / paceBytesPerSecond;
      long wait = due - System.currentTimeMillis();
      if (wait > 0) {
        pace(wait);
      }
    }
    issuedBytes += chunkBytes.get(next);
    if (chunks.size() == 1 && paceBytesPerSecond <= 0) {
      FlowProgress progress = new FlowProgress();
      if (env.stallTimeoutMs() > 0) {
        // watched from before the requests: opening may block on a new connection to a host the
        // network no longer reaches
        report.watchStall(progress, env.stallTimeoutMs(), System::currentTimeMillis);
      }
      current =
          env.fetchers()
              .openStep(
                  chunks.get(next++),
                  report::arrived,
                  env.predictedHandover() ? report::aheadAt : null,
                  progress);
    } else {
      current = env.fetchers().open(chunks.get(next++));
    }
    return true;
  }

  /**
   * The step's report: bytes fetched from each host and left to fetch, the flow's time span, and
   * whether the task reads another shuffle now ({@code idle}).
   */
  private AwaitGrant content(long endMs, boolean idle, long stalledMs) {
    return new AwaitGrant(
        env.conversation().demandId(),
        stepId,
        env.hosts(),
        fetched,
        remaining,
        startMs,
        endMs,
        idle,
        stalledMs);
  }

  /**
   * Gives the blocks of the chunks not opened yet back to the reader's blocks and drops them from
   * this step (task thread; a paced step has no arrival callback or timer that could race).
   *
   * @return bytes given back per host of the reader's hosts
   */
  long[] giveBackUnopened() {
    long[] back = new long[fetched.length];
    for (int c = chunks.size() - 1; c >= next; c--) {
      env.blocks().giveBack(chunks.remove(c));
      chunkBytes.remove(c);
      long[] hb = chunkHostBytes.remove(c);
      for (int h = 0; h < back.length; h++) {
        back[h] += hb[h];
        fetched[h] -= hb[h];
      }
    }
    return back;
  }

  /**
   * The task read every block of the step: it no longer counts against the room for grants, and a
   * step reported ahead whose arrival was never signalled gets its arrival time now.
   */
  void readAll() {
    env.gate().unhold(this);
    report.readAll();
  }

  private void pace(long ms) {
    long t0 = System.nanoTime();
    try {
      long end = System.currentTimeMillis() + ms;
      while (System.currentTimeMillis() < end) {
        env.task().killTaskIfInterrupted();
        Thread.sleep(Math.min(100, Math.max(1, end - System.currentTimeMillis())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      env.task().killTaskIfInterrupted();
      throw new IllegalStateException("interrupted while pacing a wan-shuffle step", e);
    } finally {
      env.metrics().incFetchWaitTime((System.nanoTime() - t0) / 1_000_000);
    }
  }
}
