package io.wanshuffle.spark.reader;

/**
 * Where one gated read counts its figures: the task's named accumulators (null outside a task that
 * carries them) and the executor's {@link ReaderMetricsSource}.
 */
final class ReadFigures {
  /** Counts nowhere (tests). */
  static final ReadFigures NONE = new ReadFigures(null, null);

  private final TaskAccumulators task;
  private final ReaderMetricsSource executor;

  /**
   * @param task the task's accumulators, or null
   * @param executor the executor's source, or null
   */
  ReadFigures(TaskAccumulators task, ReaderMetricsSource executor) {
    this.task = task;
    this.executor = executor;
  }

  /** A gated read started. */
  void gatedRead() {
    if (executor != null) {
      executor.gatedReads.inc();
    }
  }

  /**
   * @param ms time the task blocked waiting for a grant, ms
   */
  void grantWait(long ms) {
    if (task != null) {
      task.grantWaitMs().add(ms);
    }
  }

  /**
   * The read is over: its total grant wait goes to the executor's histogram.
   *
   * @param totalMs the read's total grant wait, ms
   */
  void readDone(long totalMs) {
    if (executor != null) {
      executor.grantWaitMs.update(totalMs);
    }
  }

  /**
   * @param bytes cross-site bytes read inside one granted step
   */
  void gatedBytes(long bytes) {
    if (task != null) {
      task.gatedBytes().add(bytes);
    }
    if (executor != null) {
      executor.gatedBytes.inc(bytes);
    }
  }
}
