package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.collection.Seq;

/**
 * The reduce task's stream of (block, input stream) pairs over a chain of fetchers: one for the
 * same-cluster blocks, opened at once and never gated, and one per granted step for the
 * cross-cluster blocks (ARCHITECTURE.md sec. 3: gating happens between fetchers, never inside one,
 * so requests held by a fetcher cannot deadlock a step barrier).
 *
 * <p>The conversation with the coordinator is asynchronous: registration and long-polls run while
 * the task consumes same-cluster blocks; the blocks of a granted step are consumed first (the step
 * barrier waits on them). The task blocks only when nothing else is left to read; that wait counts
 * as shuffle fetch wait time, checks for task kill every 100 ms, and ends in ungated fetching (with
 * a warning saying why) when the coordinator fails, times out, releases the demand, or the total
 * wait passes {@code spark.wanshuffle.grant.maxWait}.
 *
 * <p>A task may read several gated shuffles (cogroup, sort-merge join), one reader each, on its
 * task thread. A reader registers its demand on its first read, not at creation, and a reader about
 * to wait for a grant makes the task's other readers {@linkplain #standAside stand aside}, so a
 * grant never sits unstarted with a shuffle the task is not reading while the one it reads waits
 * (docs/plugin.md, "Tasks that read several shuffles").
 *
 * <p>A step is reported (its ports handed on) when the {@link HandoverPredictor} says the next
 * flow's first byte would meet this step's last one ({@code spark.wanshuffle.step.handover =
 * predicted}, the default; the time the last block arrived and the report time then follow in a
 * {@link FlowArrived}), or at the latest when its last block arrives, before the task reads it
 * ({@code arrival}: only then).
 *
 * <p>The grant that answers a reported step is acted on when it arrives: its blocks are taken and
 * their fetch opened on a step-opener thread, while the task thread may still be blocked reading
 * the reported step's last block or busy with its records (a task's next flow would otherwise start
 * only after that, which with one task per receiving executor is the case at nearly every hand-over
 * of a receiver's port). The task thread then reads the opened step after the reported one. A task
 * that reads slower than the network keeps getting its grants opened while the steps it has not
 * read yet and the new one fit within {@code spark.reducer.maxSizeInFlight} (what Spark's own
 * fetcher buffers); beyond that, or when it stalls, it hands its grants back.
 *
 * <p>With {@code spark.wanshuffle.flow.rateCap} set, a step's blocks are fetched in chunks paced so
 * that the task's bytes in the step never run ahead of (rate cap × flows of the step) — pacing at
 * block granularity.
 *
 * <p>Fetch failures surface unchanged as Spark's {@code FetchFailedException} from the fetchers.
 */
final class GatedBlockIterator extends AbstractIterator<Tuple2<BlockId, InputStream>> {
  private static final Logger LOG = LoggerFactory.getLogger(GatedBlockIterator.class);
  private static final long CHUNK_MS = 200;

  private final TaskContext context;
  private final BlockOpener fetchers;
  private final CrossClusterBlocks blocks;
  private final DemandClient channel;
  private final WanShuffleConf conf;
  private final ShuffleReadMetricsReporter metrics;
  private final RegisterDemand demand;
  private final String[] hosts;
  private final HandoverPredictor predictor;

  /** Most bytes one unpaced step takes: what the fetcher requests at once. */
  private final long maxStepBytes;

  private final Iterator<Tuple2<BlockId, InputStream>> local;
  private Iterator<Tuple2<BlockId, InputStream>> source;
  private CompletableFuture<?> pending;

  /** Volatile: reports and hand-backs are sent off the task thread too. */
  private volatile long demandId;

  private long waitedMs;
  private boolean registered;

  /** A sibling reader of the task waits for a grant; this one told the coordinator it is idle. */
  private volatile boolean idle;

  /**
   * {@code pending} is the reply to a reported step, mapped by {@link #openGranted}: it may carry a
   * step opened off the task thread, so the blocks taken for it are not lost to this reader.
   */
  private boolean openingOnGrant;

  /**
   * Guarded by this: steps opened off the task thread, not yet taken up by the task thread, in
   * order.
   */
  private final ArrayDeque<StepRun> opened = new ArrayDeque<>();

  /**
   * A grant was handed back ({@link GaveBack}): poll again once the task has caught up, that is
   * reads its last unread step (as a task that opens each step itself asks for the next one only
   * then). Task thread only.
   */
  private boolean pollWhenCaughtUp;

  /** Guarded by this: no step may be opened off the task thread any more (ungated, task ended). */
  private boolean closedToGrants;

  private StepRun step;

  /**
   * Steps already reported (their bytes arrived, or are due soon), oldest first: read before
   * anything else, while later steps' flows may already run. Task thread only.
   */
  private final ArrayDeque<StepRun> toRead = new ArrayDeque<>();

  /**
   * Guarded by this: steps whose blocks were taken and that the task has not read to the end, and
   * their bytes. A grant is opened off the task thread only while they leave room for it within
   * what Spark's fetcher buffers ({@link #openGranted}).
   */
  private int heldSteps;

  private long heldBytes;
  private Iterator<Tuple2<BlockId, InputStream>> ungated;
  private long[] ungatedBytes;
  private long ungatedStartMs;

  GatedBlockIterator(
      TaskContext context,
      BlockOpener fetchers,
      CrossClusterBlocks blocks,
      DemandClient channel,
      WanShuffleConf conf,
      ShuffleReadMetricsReporter metrics,
      RegisterDemand demand,
      HandoverPredictor predictor) {
    this.predictor = predictor;
    if (conf.predictedHandover()) {
      long cap = conf.flowRateCap();
      predictor.boundFlowRate(cap > 0 ? Math.min(cap, conf.baseSpeed()) : conf.baseSpeed());
    }
    this.context = context;
    this.fetchers = fetchers;
    this.blocks = blocks;
    this.channel = channel;
    this.conf = conf;
    this.metrics = metrics;
    this.demand = demand;
    this.hosts = demand.srcHosts();
    this.maxStepBytes = fetchers.maxBytesInFlight();
    this.local = fetchers.open(blocks.sameCluster());
    if (!blocks.isEmpty()) {
      context.addTaskCompletionListener(
          (org.apache.spark.util.TaskCompletionListener) this::onTaskEnd);
    }
  }

  /**
   * Registers the cross-cluster demand when the task first asks this reader for a block, not when
   * the reader is created: a task that creates the readers of several shuffles and reads them one
   * after the other (CoGroupedRDD) must not be granted flows for a shuffle it is not reading yet.
   */
  private void registerOnFirstRead() {
    if (registered) {
      return;
    }
    registered = true;
    if (!blocks.isEmpty()) {
      long sent = System.nanoTime();
      CompletableFuture<Registered> r = channel.register(demand);
      if (conf.predictedHandover()) {
        r.thenAccept(
            reg ->
                predictor.coordinatorRoundTrip(
                    Math.max(0, (System.nanoTime() - sent) / 1_000_000 - reg.heldMs())));
      }
      pending = r;
      TaskReaders.add(context, this);
    }
  }

  /**
   * Called (on the task thread) by another reader of the same task that is about to wait for a
   * grant: this reader says it is idle, so the coordinator takes back a grant it has not started
   * and does not plan it until it is read again. Does nothing while this reader fetches a step or
   * ungated. An idle reader's own next read says it is active again.
   */
  void standAside() {
    if (ungated == null) {
      takeUpReply();
    }
    if (ungated == null && conf.flowRateCap() > 0) {
      if (step != null && step.paced() && step.reply == null && pending == null) {
        cutPacedStep();
        return;
      }
    }
    if (step != null || openingOnGrant || ungated != null || blocks.isEmpty()) {
      return;
    }
    if (idle) {
      pump();
      return;
    }
    if (demandId <= 0) {
      if (pending != null && pending.isDone()) {
        idle = true; // the registration: an idle poll follows it, and a first grant goes back
        pump();
      }
      return;
    }
    idle = true;
    pending = channel.await(AwaitGrant.idle(demandId));
  }

  /**
   * Once the current step is reported (its bytes are here, or due soon), queues it to be read after
   * the steps reported before it, while the coordinator hands the ports on and the grant in its
   * reply is opened.
   *
   * @return true if the current step was queued
   */
  private boolean queueReportedStep() {
    if (step == null || step.reply == null) {
      return false;
    }
    toRead.addLast(step);
    pending = step.reply;
    openingOnGrant = true;
    step = null;
    return true;
  }

  /**
   * Acts on the reply to this reader's reported step when it has come, for a sibling reader about
   * to wait for a grant: a step opened on its grant is taken up (so that a paced one can be cut);
   * any other answer (the report's long-poll expired, or a grant not opened) is handled as an idle
   * reader's, so the coordinator hears from this demand again. Left alone, an expired poll was
   * never followed by another, and the coordinator's next grant to this demand, delivered to no
   * poll, held its flows (k = 1: the whole backbone direction) until the step's deadline while the
   * task waited on the sibling.
   */
  private void takeUpReply() {
    queueReportedStep(); // as the task thread's next read would: the step stays first to read
    if (!openingOnGrant || pending == null || !pending.isDone()) {
      return;
    }
    if (!pending.isCompletedExceptionally()
        && pending.getNow(null) instanceof GrantReply g
        && (g.status() == GrantReply.Status.GRANT || g.status() == GrantReply.Status.NOT_YET)) {
      idle = true; // a grant goes back, a NOT_YET is followed by an idle poll (onGrantReply)
    }
    pump();
  }

  /**
   * Ends the current paced step where the task left it, for a sibling reader about to wait for a
   * grant: a paced step opens its chunks only as the task reads them, so it would hold its flows
   * (and the receiver's ports the sibling's grant needs) until the task came back to this shuffle,
   * which it does only after the sibling's read: a wait until {@code grant.maxWait}. The blocks of
   * the chunks not opened go back for a later grant, the step is reported at once with what it
   * opened (idle: the coordinator grants this demand nothing until it is read again), and the task
   * reads the opened chunks when it comes back.
   */
  private void cutPacedStep() {
    StepRun s = step;
    unhold(s);
    long[] back = s.giveBackUnopened();
    if (!s.chunks.isEmpty()) {
      hold(s);
    }
    s.remaining = blocks.remainingBytes();
    idle = true;
    LOG.debug(
        "wan-shuffle: task {} reads another shuffle; its paced step {} ends at the chunks opened,"
            + " {} B go back for a later grant",
        demand.taskAttemptId(),
        s.stepId,
        java.util.Arrays.stream(back).sum());
    pending = s.reportOnce(System.currentTimeMillis(), true);
    openingOnGrant = true;
    toRead.addLast(s);
    step = null;
  }

  /** This reader is read again: a poll without the idle mark replaces the idle one. */
  private void resumeIfIdle() {
    if (!idle) {
      return;
    }
    idle = false;
    if (demandId > 0 && ungated == null) {
      pollWhenCaughtUp = false;
      pending = channel.await(AwaitGrant.poll(demandId));
    }
  }

  private void onTaskEnd(TaskContext ctx) {
    TaskReaders.remove(ctx);
    List<StepRun> unread;
    synchronized (this) {
      closedToGrants = true;
      unread = new ArrayList<>(opened);
    }
    if (step != null) {
      step.cancelTimer();
    }
    unread.forEach(StepRun::cancelTimer);
    String reason =
        ctx.isInterrupted() ? "task-killed" : ctx.isFailed() ? "task-failed" : "task-end";
    if (demandId > 0
        && ungated == null
        && (step != null || !unread.isEmpty() || !blocks.isEmpty())) {
      channel.release(new ReleaseDemand(demandId, reason));
    } else if (demandId <= 0 && pending != null && !blocks.isEmpty()) {
      // the registration is still held for the first grant: release the demand once its id is known
      pending.thenAccept(
          r -> {
            if (r instanceof Registered reg && reg.opensGatedDemand()) {
              channel.release(new ReleaseDemand(reg.demandId(), reason));
            }
          });
    }
  }

  @Override
  public boolean hasNext() {
    registerOnFirstRead();
    resumeIfIdle();
    while (true) {
      pump();
      if (pollWhenCaughtUp && pending == null && step == null && toRead.size() <= 1) {
        pollWhenCaughtUp = false;
        pending = channel.await(idle ? AwaitGrant.idle(demandId) : AwaitGrant.poll(demandId));
      }
      if (queueReportedStep()) {
        continue;
      }
      StepRun head = toRead.peekFirst();
      if (head != null) {
        if (head.current.hasNext()) {
          source = head.current;
          return true;
        }
        if (head.openNextChunk()) {
          continue; // a paced step taken over from the opened ones when going ungated
        }
        toRead.removeFirst();
        head.readAll();
        continue;
      }
      if (step != null) {
        if (step.current.hasNext()) {
          source = step.current;
          return true;
        }
        if (!step.openNextChunk()) {
          finishStep();
        }
        continue;
      }
      if (local.hasNext()) {
        source = local;
        return true;
      }
      if (ungated != null) {
        if (ungated.hasNext()) {
          source = ungated;
          return true;
        }
        finishUngated();
      }
      if (blocks.isEmpty() && !openingOnGrant) {
        return false;
      }
      if (pending == null) {
        goUngated("no coordinator call outstanding");
        continue;
      }
      waitForCoordinator();
    }
  }

  @Override
  public Tuple2<BlockId, InputStream> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return source.next();
  }

  /** Handles a completed coordinator call, without blocking. */
  private void pump() {
    if (pending == null || !pending.isDone()) {
      return;
    }
    CompletableFuture<?> p = pending;
    pending = null;
    openingOnGrant = false;
    Object r;
    try {
      r = p.join();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      goUngated("coordinator call failed: " + cause);
      return;
    }
    if (r instanceof OpenFailed f) {
      throw f.cause();
    } else if (r instanceof StepRun s) {
      synchronized (this) {
        opened.remove(s);
      }
      step = s; // granted and opened while the task read the previous step
    } else if (r instanceof Registered reg) {
      if (!reg.opensGatedDemand()) {
        goUngated("the coordinator does not gate (algorithm none or stopping)");
        return;
      }
      demandId = reg.demandId();
      if (reg.firstPoll() != null) {
        onGrantReply(reg.firstPoll());
      } else {
        pending = channel.await(idle ? AwaitGrant.idle(demandId) : AwaitGrant.poll(demandId));
      }
    } else if (r instanceof GrantReply g) {
      onGrantReply(g);
    } else if (r instanceof GaveBack) {
      // a normal poll replaces the idle one that handed the grant back once the task has caught up:
      // asked now, its grant would be opened on this thread beyond the in-flight limit, or held
      // unopened by a task that stalls right after this read
      pollWhenCaughtUp = true;
    }
  }

  /** Acts on the coordinator's answer to a poll (or to the registration, as the first poll). */
  private void onGrantReply(GrantReply g) {
    switch (g.status()) {
      case GRANT -> {
        if (idle) {
          // raced with the idle poll; the coordinator takes it back on that poll
          pending = channel.await(AwaitGrant.idle(demandId));
        } else {
          startStep(g);
        }
      }
      case NOT_YET ->
          pending = channel.await(idle ? AwaitGrant.idle(demandId) : AwaitGrant.poll(demandId));
      case FINISHED -> {
        if (!blocks.isEmpty()) {
          goUngated("the coordinator considers the demand complete but blocks are left");
        }
      }
      case UNGATED -> goUngated("the coordinator released the demand");
      default -> throw new IllegalStateException("unknown grant status " + g.status());
    }
  }

  private void waitForCoordinator() {
    long t0 = System.nanoTime();
    try {
      while (pending != null && !pending.isDone()) {
        context.killTaskIfInterrupted();
        for (GatedBlockIterator other : TaskReaders.siblings(context, this)) {
          other.standAside();
        }
        if (waitedMs + (System.nanoTime() - t0) / 1_000_000 > conf.maxGrantWaitMs()) {
          goUngated(
              "waited longer than "
                  + WanShuffleConf.MAX_GRANT_WAIT
                  + " = "
                  + conf.maxGrantWaitMs()
                  + " ms for grants");
          return;
        }
        try {
          pending.get(100, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
          // timeout: poll again; failure: handled by pump()
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
    }
  }

  /**
   * Opens the step a reported step's reply grants, on the step-opener thread: the task thread takes
   * it up on its next read. Not while this reader is idle (the coordinator takes that grant back),
   * ungated or its task ended, and not when the task is too far behind ({@link #roomFor}): then a
   * grant it would start only when it gets here would hold its ports meanwhile, so it is handed
   * back at once with an idle poll.
   *
   * @param reported the step whose report {@code g} answers
   * @param g the reply to the reported step
   * @return the opened step, {@code g} for the task thread to handle, or an {@link OpenFailed}
   *     whose exception the task thread rethrows (the step's blocks were taken: the task must fail
   *     as it would have had it opened the step itself, never carry on without them)
   */
  private Object openGranted(StepRun reported, GrantReply g) {
    if (g.status() != GrantReply.Status.GRANT) {
      return g;
    }
    synchronized (this) {
      if (idle || closedToGrants) {
        return g;
      }
      if (!roomFor(reported, g)) {
        // the task reads slower than the network (or has stalled): a grant it would start only when
        // it gets here would hold its ports meanwhile; hand it back at once, like an idle reader,
        // and ask again once the task has caught up
        LOG.debug(
            "wan-shuffle: task {} hands back its grant of step {}: {} step(s) of {} B not read yet{}",
            demand.taskAttemptId(),
            g.stepId(),
            heldSteps,
            heldBytes,
            opened.isEmpty() ? "" : ", " + opened.size() + " of them not taken up");
        channel.await(AwaitGrant.idle(demandId)); // its reply carries nothing the reader needs
        return GaveBack.INSTANCE;
      }
      StepRun s = newStep(g);
      try {
        if (!s.openNextChunk()) {
          return g; // nothing taken: the task thread finishes the empty step
        }
      } catch (RuntimeException e) {
        return new OpenFailed(e);
      }
      if (conf.predictedHandover() && reported.sentMs > 0) {
        // what the coordinator held the report for ports is not part of the loop: a receiver that
        // always waits
        // (behind a bottleneck's flows) would otherwise take its waits for c and hand its flows on
        // that much early
        predictor.handOverLoop(System.currentTimeMillis() - reported.sentMs - g.heldMs());
      }
      opened.addLast(s);
      return s;
    }
  }

  /**
   * Whether the grant {@code g}, the reply to {@code reported}'s report, may be opened now, off the
   * task thread (under this reader's lock): yes when no step but {@code reported} is still to be
   * read (the task reads it while the next one flows), or when the steps still to be read (taken up
   * or not) and the new one together fit within what Spark's fetcher requests at once ({@code
   * spark.reducer.maxSizeInFlight}). So a task that runs a few steps behind the network (busy with
   * the records of a large block, say) keeps its grants, a task that has stalled hands them back,
   * and a reader never buffers more than Spark's own reader would, or two steps.
   */
  private boolean roomFor(StepRun reported, GrantReply g) {
    int others = heldSteps - (reported.held ? 1 : 0);
    if (others <= 0) {
      return true;
    }
    long budget = 0;
    for (long b : g.budgets()) {
      budget += Math.max(0, b);
    }
    return Math.min(budget, maxStepBytes) <= maxStepBytes - heldBytes;
  }

  /** Counts a step whose blocks were taken until the task has read it ({@link StepRun#readAll}). */
  private synchronized void hold(StepRun s) {
    s.held = true;
    heldSteps++;
    heldBytes += s.takenBytes();
  }

  private synchronized void unhold(StepRun s) {
    if (s.held) {
      s.held = false;
      heldSteps--;
      heldBytes -= s.takenBytes();
    }
  }

  private void startStep(GrantReply g) {
    step = newStep(g);
    if (!step.openNextChunk()) {
      finishStep();
    }
  }

  /**
   * @return the run of granted step {@code g} with its blocks taken in chunks, not opened
   */
  private StepRun newStep(GrantReply g) {
    StepRun run = new StepRun(g.stepId());
    long cap = conf.flowRateCap();
    if (cap > 0) {
      takePaced(g, run, cap);
    } else {
      takeWithinFlight(g, run);
    }
    run.paceBytesPerSecond = cap <= 0 ? 0 : cap * Math.max(1, g.srcHosts().length);
    run.remaining = blocks.remainingBytes();
    run.startMs = System.currentTimeMillis();
    if (!run.chunks.isEmpty()) {
      hold(run);
    }
    return run;
  }

  /**
   * The blocks of an unpaced step, one chunk: the grant's budgets, but no more bytes than the
   * fetcher requests at once ({@link BlockOpener#maxBytesInFlight()}), so that the step's flow ends
   * when its bytes arrive whatever the task does with them; a task that stalls in the middle of its
   * read holds no ports. Each source host gets a share of that limit in proportion to its budget;
   * the step's first block is taken even when it alone is larger. What is not taken stays for later
   * grants (the report says so).
   */
  private void takeWithinFlight(GrantReply g, StepRun run) {
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
    long limit = maxStepBytes;
    double budgetSum = 0;
    for (long b : g.budgets()) {
      budgetSum += Math.max(0, b);
    }
    long total = 0;
    for (int i = 0; i < g.srcHosts().length; i++) {
      long share = Long.MAX_VALUE;
      if (limit != Long.MAX_VALUE) {
        share = budgetSum <= 0 ? limit : (long) (limit * (Math.max(0, g.budgets()[i]) / budgetSum));
        share = Math.max(0, Math.min(share, limit - total));
      }
      long b = blocks.take(g.srcHosts()[i], Math.max(1, g.budgets()[i]), share, total == 0, out);
      total += b;
      int idx = indexOf(g.srcHosts()[i]);
      if (idx >= 0) {
        run.fetched[idx] += b;
      }
    }
    if (!out.isEmpty()) {
      run.chunks.add(out);
      run.chunkBytes.add(total);
      run.chunkHostBytes.add(run.fetched.clone());
    }
  }

  /** The blocks of a step paced at {@code cap} bytes/s per flow: chunks of about CHUNK_MS each. */
  private void takePaced(GrantReply g, StepRun run, long cap) {
    // per source host, a chunk is about CHUNK_MS of data at the cap
    long chunk = Math.max(1, cap * CHUNK_MS / 1000);
    long[] taken = new long[g.srcHosts().length];
    boolean more = true;
    while (more) {
      more = false;
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
      long chunkBytes = 0;
      long[] byHost = new long[hosts.length];
      for (int i = 0; i < g.srcHosts().length; i++) {
        long left = g.budgets()[i] - taken[i];
        if (left <= 0 && taken[i] > 0) {
          continue;
        }
        long b = blocks.take(g.srcHosts()[i], Math.min(chunk, Math.max(1, left)), out);
        taken[i] += b;
        chunkBytes += b;
        int idx = indexOf(g.srcHosts()[i]);
        if (idx >= 0) {
          run.fetched[idx] += b;
          byHost[idx] += b;
        }
        if (b > 0 && taken[i] < g.budgets()[i]) {
          more = true;
        }
      }
      if (!out.isEmpty()) {
        run.chunks.add(out);
        run.chunkBytes.add(chunkBytes);
        run.chunkHostBytes.add(byHost);
      }
    }
  }

  private int indexOf(String host) {
    for (int i = 0; i < hosts.length; i++) {
      if (hosts[i].equals(host)) {
        return i;
      }
    }
    return -1;
  }

  private void finishStep() {
    StepRun s = step;
    step = null;
    pending = s.reportOnce(System.currentTimeMillis(), false);
    openingOnGrant = true;
    s.readAll();
  }

  private void goUngated(String reason) {
    if (ungated != null) {
      return;
    }
    synchronized (this) {
      closedToGrants = true;
      // their blocks were taken: read them before the ungated ones
      if (step != null) {
        toRead.addLast(step);
        step = null;
      }
      toRead.addAll(opened);
      opened.clear();
    }
    pending = null;
    openingOnGrant = false;
    pollWhenCaughtUp = false;
    LOG.warn(
        "wan-shuffle: task {} (stage {}.{}, shuffle {}) fetches its remaining cross-cluster "
            + "blocks without gating: {}",
        demand.taskAttemptId(),
        demand.stageId(),
        demand.stageAttempt(),
        demand.shuffleId(),
        reason);
    if (demandId > 0) {
      channel.release(new ReleaseDemand(demandId, "ungated"));
    }
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
    ungatedBytes = blocks.takeAll(out);
    ungatedStartMs = System.currentTimeMillis();
    ungated = fetchers.open(out);
  }

  private void finishUngated() {
    if (ungatedBytes == null) {
      return;
    }
    List<String> h = new ArrayList<>();
    List<Long> b = new ArrayList<>();
    for (int i = 0; i < hosts.length; i++) {
      if (ungatedBytes[i] > 0) {
        h.add(hosts[i]);
        b.add(ungatedBytes[i]);
      }
    }
    ungatedBytes = null;
    if (!h.isEmpty()) {
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
      channel.report(new UngatedReport(demandId, what, ungatedStartMs, System.currentTimeMillis()));
    }
  }

  /** Opening a granted step off the task thread failed; the task thread rethrows {@code cause}. */
  private record OpenFailed(RuntimeException cause) {}

  /**
   * A grant answered while the task was too far behind (its unread steps leave no room for it,
   * {@link #roomFor}), handed back with an idle poll; the task thread polls again when it gets
   * here.
   */
  private enum GaveBack {
    INSTANCE
  }

  /** Where steps granted while the task reads are opened: daemon threads, made on demand. */
  private static final class StepOpener {
    static final ExecutorService INSTANCE =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "wan-shuffle-step-opener");
              t.setDaemon(true);
              return t;
            });
  }

  /** The fetch of one granted step: its block chunks, opened one after the other. */
  private final class StepRun {
    final long stepId;
    final long[] fetched = new long[hosts.length];

    /** Bytes not yet taken per host once this step's blocks were taken. */
    long[] remaining;

    /**
     * The reply to the step's one report, null until it is sent, mapped by {@link #openGranted} (a
     * grant in it is opened as soon as it arrives). Set under this object's lock by {@link #send}:
     * on a network thread when the step's bytes all arrived (then it precedes any later call of
     * this reader on the executor's connection to the driver), on the hand-over timer thread when
     * reported ahead, else on the task thread, which then drops the step at once; so while the step
     * is current, non-null means "reported early".
     */
    volatile CompletableFuture<Object> reply;

    /** The report went out before the last block arrived; its arrival is still to be sent. */
    private boolean ahead;

    /** When the step was reported ahead, epoch ms. */
    private long reportedMs;

    /** Counted in the reader's held steps (guarded by the reader). */
    boolean held;

    /** When the step's report was sent, epoch ms (0: not yet); read on the step-opener thread. */
    volatile long sentMs;

    private ScheduledFuture<?> timer;
    final List<List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>>> chunks =
        new ArrayList<>();
    final List<Long> chunkBytes = new ArrayList<>();

    /** Per chunk, its bytes from each host of the reader's hosts. */
    final List<long[]> chunkHostBytes = new ArrayList<>();

    long paceBytesPerSecond;
    long startMs;
    int next;
    long issuedBytes;
    Iterator<Tuple2<BlockId, InputStream>> current;

    StepRun(long stepId) {
      this.stepId = stepId;
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

    /** Opens the next chunk (after pacing); false when the step has no chunk left. */
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
        current =
            fetchers.openStep(
                chunks.get(next++), this::arrived, conf.predictedHandover() ? this::aheadAt : null);
      } else {
        current = fetchers.open(chunks.get(next++));
      }
      return true;
    }

    /**
     * The step's report: bytes fetched from each host and left to fetch, the flow's time span, and
     * whether the task reads another shuffle now ({@code idle}).
     */
    AwaitGrant report(long endMs, boolean idle) {
      return new AwaitGrant(demandId, stepId, hosts, fetched, remaining, startMs, endMs, idle);
    }

    /**
     * @return true when the step's chunks are opened at a rate cap, as the task reads them
     */
    boolean paced() {
      return paceBytesPerSecond > 0;
    }

    /**
     * Gives the blocks of the chunks not opened yet back to the reader's queue and drops them from
     * this step (task thread; a paced step has no arrival callback or timer that could race).
     *
     * @return bytes given back per host of the reader's hosts
     */
    long[] giveBackUnopened() {
      long[] back = new long[hosts.length];
      for (int c = chunks.size() - 1; c >= next; c--) {
        blocks.giveBack(chunks.remove(c));
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
     * Reports the step unless it was reported already.
     *
     * @param endMs when its last block arrived (or the task read it), epoch ms
     * @param idle the task reads another shuffle now (a paced step cut for it)
     * @return the reply to the one report of this step, mapped by {@link #openGranted}
     */
    synchronized CompletableFuture<Object> reportOnce(long endMs, boolean idle) {
      cancelTimer();
      if (reply == null) {
        send(report(endMs, idle));
      }
      return reply;
    }

    /** Sends the step's one report; a grant in its reply is opened when it arrives. */
    private void send(AwaitGrant report) {
      sentMs = System.currentTimeMillis();
      reply = channel.await(report).thenApplyAsync(g -> openGranted(this, g), StepOpener.INSTANCE);
    }

    /**
     * Predicted hand-over: (re)schedules the report of this step ahead of its end at {@code
     * epochMs}; nothing once it is reported.
     */
    private synchronized void aheadAt(long epochMs) {
      if (reply != null) {
        return;
      }
      cancelTimer();
      timer = HandoverPredictor.schedule(this::reportAhead, epochMs - System.currentTimeMillis());
    }

    private synchronized void reportAhead() {
      if (reply == null) {
        ahead = true;
        reportedMs = System.currentTimeMillis();
        send(report(0, false));
      }
    }

    synchronized void cancelTimer() {
      if (timer != null) {
        timer.cancel(false);
      }
    }

    /**
     * Every block of the (single-chunk, unpaced) step is on this host: report it now, or send the
     * arrival time of a step reported ahead.
     */
    private void arrived() {
      long now = System.currentTimeMillis();
      boolean reportedNow;
      synchronized (this) {
        reportedNow = reply == null;
        reportOnce(now, false);
      }
      if (!reportedNow) {
        sendArrivalIfAhead(now);
      }
    }

    /**
     * The task read every block of the step: a step reported ahead whose arrival was never
     * signalled (the fetcher held requests back) gets its arrival time now.
     */
    void readAll() {
      unhold(this);
      sendArrivalIfAhead(System.currentTimeMillis());
    }

    /** Sends the arrival time of a step reported ahead, once. */
    private void sendArrivalIfAhead(long endMs) {
      synchronized (this) {
        cancelTimer();
        if (!ahead) {
          return;
        }
        ahead = false;
      }
      channel.arrived(new FlowArrived(demandId, stepId, reportedMs, endMs));
    }

    private void pace(long ms) {
      long t0 = System.nanoTime();
      try {
        long end = System.currentTimeMillis() + ms;
        while (System.currentTimeMillis() < end) {
          context.killTaskIfInterrupted();
          Thread.sleep(Math.min(100, Math.max(1, end - System.currentTimeMillis())));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        context.killTaskIfInterrupted();
        throw new IllegalStateException("interrupted while pacing a wan-shuffle step", e);
      } finally {
        metrics.incFetchWaitTime((System.nanoTime() - t0) / 1_000_000);
      }
    }
  }
}
