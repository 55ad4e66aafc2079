package io.wanshuffle.it.job;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A job whose tasks wait for a marker file: it keeps executors busy (so that dynamic allocation
 * asks for them and releases none) until the caller creates the file. The executors must see the
 * caller's file system (the testbed's hosts share this machine's).
 */
public final class HoldingJob {
  private HoldingJob() {}

  /**
   * Starts the job.
   *
   * @param jsc the driver
   * @param tasks tasks of the job, ≥ 1 (one per executor core to occupy)
   * @param marker file whose creation ends every task
   * @param longest how long a task waits at most when the file never appears
   * @return the running job; its result is {@code tasks}
   * @throws IllegalArgumentException if {@code tasks < 1}
   */
  public static JavaFutureAction<Long> start(
      JavaSparkContext jsc, int tasks, Path marker, Duration longest) {
    if (tasks < 1) {
      throw new IllegalArgumentException("a holding job needs at least one task, got " + tasks);
    }
    String path = marker.toAbsolutePath().toString();
    long waitNanos = longest.toNanos();
    List<Integer> slices = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      slices.add(i);
    }
    return jsc.parallelize(slices, tasks)
        .map(
            i -> {
              long deadline = System.nanoTime() + waitNanos;
              while (!Files.exists(Path.of(path)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
              }
              return i;
            })
        .countAsync();
  }
}
