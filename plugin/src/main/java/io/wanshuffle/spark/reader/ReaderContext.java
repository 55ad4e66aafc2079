package io.wanshuffle.spark.reader;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What the gated readers of one executor share: the executor's {@link HandoverPredictor}, its
 * {@code gate.minBytes=auto} threshold on the coordinator's link model ({@link GateThreshold}), the
 * registry of each running task's readers ({@link TaskReaders}), the step-opener threads that open
 * a grant when it answers a step report ({@link StepOpener}) and the hand-over timer thread that
 * reports a step ahead of its end ({@link StepReport}). One instance per shuffle manager, closed by
 * {@code WanShuffleManager.stop()}.
 *
 * <p>Threads are started on first use, so a context on a driver that runs no reduce task costs
 * none. Both thread kinds are daemon threads. After {@link #close()}, {@link #execute} and {@link
 * #schedule} refuse work (the callers then act on the task thread or report on arrival), and the
 * registry is empty.
 *
 * <p>Thread-safe.
 */
public final class ReaderContext implements AutoCloseable {
  private final HandoverPredictor predictor = new HandoverPredictor();
  private final ReaderMetricsSource metrics = new ReaderMetricsSource();
  private final java.util.concurrent.atomic.AtomicBoolean metricsRegistered =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final TaskReaders readers = new TaskReaders();
  private final GateThreshold gateThreshold = new GateThreshold();
  private final ThreadPoolExecutor openers;
  private final ScheduledThreadPoolExecutor timer;
  private final long baseSpeed;

  /**
   * A context with no thread started yet, whose flows run at most at the base speed of the
   * configuration's rate keys.
   */
  public ReaderContext() {
    this(0);
  }

  /**
   * A context with no thread started yet.
   *
   * @param baseSpeed the bytes/s of one flow of the link model in use (a topology file's), the
   *     bound of a flow's predicted rate; 0 for the configuration's rate keys' ({@link
   *     io.wanshuffle.spark.config.WanShuffleConf#baseSpeed})
   */
  public ReaderContext(long baseSpeed) {
    this.baseSpeed = baseSpeed;
    // a cached pool: a thread per grant being opened at once, idle threads end after a minute
    openers =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            daemon("wan-shuffle-step-opener"));
    timer = new ScheduledThreadPoolExecutor(1, daemon("wan-shuffle-handover"));
    timer.setRemoveOnCancelPolicy(true); // a step whose bytes arrived first cancels its timer
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * @param conf the plugin's configuration
   * @return the bytes/s of one flow: the link model's, else the configuration's
   */
  long baseSpeed(io.wanshuffle.spark.config.WanShuffleConf conf) {
    return baseSpeed > 0 ? baseSpeed : conf.baseSpeed();
  }

  /**
   * @return the executor's estimates for predicted hand-over, fed by every gated step's fetch
   */
  HandoverPredictor predictor() {
    return predictor;
  }

  /**
   * @return the executor's {@code gate.minBytes=auto} threshold, on the coordinator's link model
   *     once a registration was answered
   */
  GateThreshold gateThreshold() {
    return gateThreshold;
  }

  /**
   * @return the gated readers of each running task of this executor
   */
  TaskReaders readers() {
    return readers;
  }

  /**
   * Runs {@code action} on a step-opener thread.
   *
   * @param action the opening of a granted step (may block on the fetcher's requests)
   * @return false when the context is closed (the action does not run)
   */
  boolean execute(Runnable action) {
    try {
      openers.execute(action);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  /**
   * Runs {@code action} after {@code delayMs} on the hand-over timer thread.
   *
   * @param action what to run (must not block)
   * @param delayMs ms from now (0 or less: at once)
   * @return the scheduled run, cancellable; null when the context is closed (it never runs)
   */
  ScheduledFuture<?> schedule(Runnable action, long delayMs) {
    try {
      return timer.schedule(action, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return null;
    }
  }

  /**
   * @return whether {@link #close()} was called
   */
  boolean isClosed() {
    return openers.isShutdown();
  }

  /**
   * @return the executor's reader figures (Spark metrics source {@value ReaderMetricsSource#NAME})
   */
  public ReaderMetricsSource metrics() {
    return metrics;
  }

  /**
   * Registers {@link #metrics()} with a metrics system, once.
   *
   * @param system the executor's metrics system (Spark's {@code SparkEnv.metricsSystem()})
   */
  public void registerMetrics(org.apache.spark.metrics.MetricsSystem system) {
    if (system != null && metricsRegistered.compareAndSet(false, true)) {
      system.registerSource(metrics);
    }
  }

  /**
   * @param task the task's accumulators (null when its shuffle handle carries none)
   * @return where a gated read of this executor counts its figures
   */
  ReadFigures figures(TaskAccumulators task) {
    return new ReadFigures(task, metrics);
  }

  /**
   * Stops the step-opener and timer threads (interrupting a running action, dropping scheduled
   * ones) and forgets every task's readers. Idempotent.
   */
  @Override
  public void close() {
    openers.shutdownNow();
    timer.shutdownNow();
    readers.clear();
  }

  /**
   * Waits for the threads to end after {@link #close()}.
   *
   * @param ms longest wait, ms
   * @return true if both thread kinds ended
   * @throws InterruptedException if interrupted while waiting
   */
  boolean awaitTermination(long ms) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    boolean o = openers.awaitTermination(ms, TimeUnit.MILLISECONDS);
    long left = Math.max(0, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()));
    return o && timer.awaitTermination(left, TimeUnit.MILLISECONDS);
  }
}
