package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.executor.ShuffleReadMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * Spark listener keeping, per stage, submission and completion times and the reduce-side metrics of
 * its tasks (Spark's listener bus, so the figures are Spark's own).
 */
final class StageRecorder extends SparkListener {
  /** Per-stage aggregate. */
  static final class Stage {
    long submittedMs;
    int shuffleId = -1;
    long completedMs;
    int tasks;
    int failed;
    long fetchWaitMs;
    long remoteBytes;
    long localBytes;
    long remoteBytesToDisk;

    /**
     * Shuffle bytes written by the stage's successful tasks, by host (exact, from the task
     * metrics).
     */
    final Map<String, Long> writtenByHost = new TreeMap<>();

    /**
     * Remote shuffle bytes read by the stage's successful tasks, by host (exact, from the task
     * metrics).
     */
    final Map<String, Long> remoteReadByHost = new TreeMap<>();

    final List<RunResult.TaskSpan> spans = new ArrayList<>();
  }

  private final Map<Integer, Stage> stages = new TreeMap<>();
  private volatile Runnable onFirstReduceTaskStart;

  synchronized void clear() {
    stages.clear();
  }

  synchronized Map<Integer, Stage> snapshot() {
    return new TreeMap<>(stages);
  }

  /** Runs {@code action} once, when the first task of the next result (reduce) stage starts. */
  void onFirstReduceTask(Runnable action) {
    onFirstReduceTaskStart = action;
  }

  private Stage stage(int id) {
    return stages.computeIfAbsent(id, k -> new Stage());
  }

  @Override
  public synchronized void onStageSubmitted(SparkListenerStageSubmitted e) {
    Stage s = stage(e.stageInfo().stageId());
    if (s.submittedMs == 0) {
      s.submittedMs = System.currentTimeMillis();
    }
    if (e.stageInfo().shuffleDepId().isDefined()) {
      s.shuffleId = (Integer) e.stageInfo().shuffleDepId().get();
    }
  }

  @Override
  public synchronized void onStageCompleted(SparkListenerStageCompleted e) {
    stage(e.stageInfo().stageId()).completedMs = System.currentTimeMillis();
  }

  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    Runnable r = onFirstReduceTaskStart;
    boolean resultStage;
    synchronized (this) {
      Stage s = stages.get(e.stageId());
      resultStage = s != null && s.shuffleId < 0;
    }
    if (r != null && resultStage) {
      onFirstReduceTaskStart = null;
      r.run();
    }
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
    Stage s = stage(e.stageId());
    if (!e.taskInfo().successful()) {
      s.failed++;
      return;
    }
    s.tasks++;
    long cpuMs = e.taskMetrics() == null ? 0 : e.taskMetrics().executorCpuTime() / 1_000_000L;
    s.spans.add(
        new RunResult.TaskSpan(
            e.taskInfo().host(),
            e.taskInfo().partitionId(),
            e.taskInfo().launchTime(),
            e.taskInfo().finishTime(),
            cpuMs));
    if (e.taskMetrics() != null) {
      ShuffleReadMetrics m = e.taskMetrics().shuffleReadMetrics();
      s.fetchWaitMs += m.fetchWaitTime();
      s.remoteBytes += m.remoteBytesRead();
      s.localBytes += m.localBytesRead();
      s.remoteBytesToDisk += m.remoteBytesReadToDisk();
      String host = e.taskInfo().host();
      if (m.remoteBytesRead() > 0) {
        s.remoteReadByHost.merge(host, m.remoteBytesRead(), Long::sum);
      }
      long written = e.taskMetrics().shuffleWriteMetrics().bytesWritten();
      if (written > 0) {
        s.writtenByHost.merge(host, written, Long::sum);
      }
    }
  }
}
