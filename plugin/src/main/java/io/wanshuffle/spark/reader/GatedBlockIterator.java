package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.io.InputStream;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.storage.BlockId;
import scala.Tuple2;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;

/**
 * The reduce task's stream of (block, input stream) pairs over a chain of fetchers: one for the
 * same-cluster blocks, opened at once and never gated, and one per granted step for the
 * cross-cluster blocks. Gating happens between fetchers, never inside one, so requests held by a
 * fetcher cannot hold up a step.
 *
 * <p>One event loop on the task thread, as Spark's {@code ShuffleBlockFetcherIterator}: network,
 * timer and step-opener threads post the answers of the coordinator's calls as {@link ReaderEvent}s
 * on one queue, and {@link #hasNext()} consumes them ({@link ReaderStateMachine}) between reads.
 * The order of reading: the steps already reported (their bytes are here or due soon), the step
 * being fetched, the same-cluster blocks, then the ungated fetch if the reader fell back to one.
 * The registration and long-polls run while the task consumes same-cluster blocks; the task blocks
 * only when nothing else is left to read. That wait counts as shuffle fetch wait time, checks for
 * task kill every {@value #WAIT_SLICE_MS} ms, makes the task's other gated readers stand aside
 * ({@link TaskReaders}), and ends in ungated fetching (with a warning saying why) when the total
 * wait passes {@code spark.wanshuffle.grant.maxWait}.
 *
 * <p>A step is reported (its ports handed on) when {@link HandoverPredictor} says the next flow's
 * first byte would meet this step's last one ({@code spark.wanshuffle.step.handover = predicted},
 * the default), or at the latest when its last block arrives, before the task reads it ({@code
 * arrival}: only then); see {@link StepReport}. The grant that answers a reported step is opened
 * when it arrives ({@link StepOpener}); a task that reads slower than the network keeps getting its
 * grants opened while its unread steps and the new one fit within {@code
 * spark.reducer.maxSizeInFlight}, and hands them back beyond that ({@link OpenerGate}). With {@code
 * spark.wanshuffle.flow.rateCap} set, a step's blocks are fetched in paced chunks ({@link
 * StepRun}).
 *
 * <p>Fetch failures surface unchanged as Spark's {@code FetchFailedException} from the fetchers.
 */
final class GatedBlockIterator extends AbstractIterator<Tuple2<BlockId, InputStream>> {
  /** Longest single wait for an answer, ms: the task-kill check interval. */
  static final long WAIT_SLICE_MS = 100;

  private final TaskContext context;
  private final WanShuffleConf conf;
  private final ShuffleReadMetricsReporter metrics;
  private final ReaderContext executor;
  private final ReaderStateMachine machine;
  private final ReadFigures figures;
  private final Iterator<Tuple2<BlockId, InputStream>> local;
  private Iterator<Tuple2<BlockId, InputStream>> source;

  /** Time the task waited for answers so far, ms. */
  private long waitedMs;

  /**
   * Opens the same-cluster fetch at once; the cross-cluster demand is registered on the first read.
   *
   * @param context the task
   * @param fetchers opens the fetches
   * @param blocks the task's blocks split by the topology
   * @param client the coordinator's client
   * @param conf wan-shuffle configuration
   * @param metrics the task's shuffle read metrics
   * @param demand the cross-cluster demand (hosts and bytes as in {@code blocks})
   * @param executor the executor's context
   */
  GatedBlockIterator(
      TaskContext context,
      BlockOpener fetchers,
      CrossClusterBlocks blocks,
      DemandClient client,
      WanShuffleConf conf,
      ShuffleReadMetricsReporter metrics,
      RegisterDemand demand,
      ReaderContext executor) {
    this(context, fetchers, blocks, client, conf, metrics, demand, executor, ReadFigures.NONE);
  }

  /**
   * As above, counting the read's grant wait and gated bytes in {@code figures}.
   *
   * @param context the task
   * @param fetchers opens the fetches
   * @param blocks the task's blocks split by the topology
   * @param client the coordinator's client
   * @param conf wan-shuffle configuration
   * @param metrics the task's shuffle read metrics
   * @param demand the cross-cluster demand (hosts and bytes as in {@code blocks})
   * @param executor the executor's context
   * @param figures the task's accumulators and the executor's reader source
   */
  GatedBlockIterator(
      TaskContext context,
      BlockOpener fetchers,
      CrossClusterBlocks blocks,
      DemandClient client,
      WanShuffleConf conf,
      ShuffleReadMetricsReporter metrics,
      RegisterDemand demand,
      ReaderContext executor,
      ReadFigures figures) {
    if (Settings.PREDICTED.equals(conf.get(Settings.STEP_HANDOVER))) {
      long cap = conf.flowRateCap();
      executor
          .predictor()
          .boundFlowRate(
              cap > 0 ? Math.min(cap, executor.baseSpeed(conf)) : executor.baseSpeed(conf));
    }
    this.context = context;
    this.conf = conf;
    this.metrics = metrics;
    this.executor = executor;
    this.figures = figures;
    this.machine =
        new ReaderStateMachine(context, fetchers, blocks, client, conf, metrics, demand, executor);
    this.local = fetchers.open(blocks.sameCluster());
    if (!blocks.isEmpty()) {
      figures.gatedRead();
      context.addTaskCompletionListener(
          (org.apache.spark.util.TaskCompletionListener)
              ctx -> {
                machine.onTaskEnd(ctx);
                figures.readDone(waitedMs);
              });
    }
  }

  /**
   * @return the reader's phase (for tests)
   */
  ReaderPhase phase() {
    return machine.phase();
  }

  @Override
  public boolean hasNext() {
    machine.startReading();
    while (true) {
      machine.pump();
      machine.pollIfCaughtUp();
      if (machine.queueReportedStep()) {
        continue;
      }
      StepRun head = machine.firstReported();
      if (head != null) {
        if (head.current().hasNext()) {
          source = head.current();
          return true;
        }
        if (!head.openNextChunk()) { // a paced step taken over when going ungated opens on
          figures.gatedBytes(head.takenBytes());
          machine.readReported();
        }
        continue;
      }
      StepRun step = machine.currentStep();
      if (step != null) {
        if (step.current().hasNext()) {
          source = step.current();
          return true;
        }
        if (!step.openNextChunk()) {
          figures.gatedBytes(step.takenBytes());
          machine.finishStep();
        }
        continue;
      }
      if (local.hasNext()) {
        source = local;
        return true;
      }
      UngatedFetch ungated = machine.ungated();
      if (ungated != null) {
        if (ungated.blocks().hasNext()) {
          source = ungated.blocks();
          return true;
        }
        machine.finishUngated();
      }
      if (machine.nothingLeft()) {
        return false;
      }
      if (!machine.awaitingAnswer()) {
        machine.goUngated("no coordinator call outstanding");
        continue;
      }
      waitForAnswer();
    }
  }

  @Override
  public Tuple2<BlockId, InputStream> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return source.next();
  }

  /**
   * Blocks until the awaited answer comes, in slices of {@value #WAIT_SLICE_MS} ms: checks for task
   * kill, makes the task's other readers stand aside, and goes ungated past {@code
   * spark.wanshuffle.grant.maxWait}. The wait counts as shuffle fetch wait time.
   */
  private void waitForAnswer() {
    long t0 = System.nanoTime();
    try {
      while (!machine.answerArrived()) {
        context.killTaskIfInterrupted();
        for (TaskReaders.Reader other : executor.readers().siblings(context, machine)) {
          other.standAside();
        }
        long maxWaitMs = conf.get(Settings.MAX_GRANT_WAIT);
        if (waitedMs + (System.nanoTime() - t0) / 1_000_000 > maxWaitMs) {
          machine.goUngated(
              "waited longer than "
                  + Settings.MAX_GRANT_WAIT.key()
                  + " = "
                  + maxWaitMs
                  + " ms for grants");
          return;
        }
        try {
          machine.awaitAnswer(WAIT_SLICE_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          context.killTaskIfInterrupted();
          throw new IllegalStateException("interrupted while waiting for a wan-shuffle grant", e);
        }
      }
    } finally {
      long ms = (System.nanoTime() - t0) / 1_000_000;
      waitedMs += ms;
      metrics.incFetchWaitTime(ms);
      figures.grantWait(ms);
    }
  }
}
