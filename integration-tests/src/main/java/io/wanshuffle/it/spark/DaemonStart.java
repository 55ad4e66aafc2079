package io.wanshuffle.it.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a cluster of daemons (Spark standalone, YARN) starts in its run folder: the folder is made
 * and the daemons a crashed earlier run left in sibling folders are killed ({@link
 * DaemonRecord#reap}); then the cluster writes its configuration and starts its daemons, and
 * whatever failed stops what was started before the error reaches the caller.
 */
final class DaemonStart {
  /** Grace between SIGTERM and SIGKILL for the daemons of a crashed earlier run. */
  static final Duration KILL_GRACE = Duration.ofSeconds(5);

  /** A start-up step that writes files or starts processes. */
  @FunctionalInterface
  interface Step {
    void run() throws IOException, InterruptedException;
  }

  private DaemonStart() {}

  /**
   * @param runDir the cluster's run folder
   * @param what the cluster's kind for messages, e.g. {@code Spark}
   * @return the folder, absolute and created
   * @throws UncheckedIOException if it cannot be created or the earlier run's record not read
   */
  static Path prepare(Path runDir, String what) {
    Path dir = runDir.toAbsolutePath();
    try {
      Files.createDirectories(dir);
      DaemonRecord.reap(dir.getParent(), KILL_GRACE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the " + what + " run folder " + dir, e);
    }
    return dir;
  }

  /**
   * Runs the start-up steps; on any failure runs {@code close} and rethrows.
   *
   * @param dir the run folder (for messages)
   * @param what the cluster's kind for messages
   * @param close stops whatever was started
   * @param steps configuration, then daemons
   * @throws UncheckedIOException if a step fails on I/O
   * @throws IllegalStateException if interrupted
   */
  static void run(Path dir, String what, Runnable close, Step... steps) {
    try {
      for (Step s : steps) {
        s.run();
      }
    } catch (IOException e) {
      close.run();
      throw new UncheckedIOException(
          "cannot start " + what + " in " + dir + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      close.run();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + what, e);
    } catch (RuntimeException e) {
      close.run();
      throw e;
    }
  }
}
