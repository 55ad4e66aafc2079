package io.wanshuffle.it.bench;

import io.wanshuffle.it.net.Teardown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Busy processes that load the machine while a benchmark's runs go on ({@code e2e-bench --load N}):
 * N processes, each spinning on one core, outside the testbed's namespaces, so that the executors,
 * the driver and the delay line share the cores with work that is not theirs, as a user's executors
 * do. They are started by {@link #start} and stopped by {@link #close()}, and at JVM exit if still
 * running ({@link Teardown}); each also ends by itself once the JVM that started it is gone (its
 * loop runs while its parent process exists), so that a benchmark killed with SIGKILL leaves no
 * spinning process behind.
 */
final class MachineLoad implements AutoCloseable {
  /**
   * One busy process: a shell loop that spins while its parent (this JVM) exists; {@code kill -0}
   * is a shell builtin, so the loop forks nothing.
   */
  static final List<String> BUSY_COMMAND =
      List.of("sh", "-c", "while kill -0 $PPID 2>/dev/null; do :; done");

  /** How long a busy process may take to end after SIGTERM before it is killed, ms. */
  static final long STOP_WAIT_MS = 2000;

  /** Starts one busy process. */
  @FunctionalInterface
  interface Starter {
    /**
     * @return the started process
     * @throws IOException if it cannot be started
     */
    Process start() throws IOException;
  }

  private final List<Process> processes;
  private final Teardown teardown;

  private MachineLoad(List<Process> processes) {
    this.processes = processes;
    this.teardown =
        processes.isEmpty() ? null : Teardown.register(Teardown.SPARK_PRIORITY, this::stopAll);
  }

  /**
   * Starts {@code count} busy processes ({@link #BUSY_COMMAND}, output discarded).
   *
   * @param count how many, 0 or more (0: nothing runs)
   * @return the running load; {@link #close()} stops it
   * @throws IllegalArgumentException if {@code count} is negative
   * @throws UncheckedIOException if a process cannot be started (those already started are stopped)
   */
  static MachineLoad start(int count) {
    return start(
        count,
        () ->
            new ProcessBuilder(BUSY_COMMAND)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start());
  }

  /**
   * Starts {@code count} processes with {@code starter}.
   *
   * @param count how many, 0 or more
   * @param starter starts one
   * @return the running load
   * @throws IllegalArgumentException if {@code count} is negative
   * @throws UncheckedIOException if one cannot be started (those already started are stopped)
   */
  static MachineLoad start(int count, Starter starter) {
    if (count < 0) {
      throw new IllegalArgumentException("busy processes: 0 or more, got " + count);
    }
    List<Process> started = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        started.add(starter.start());
      }
    } catch (IOException | RuntimeException e) {
      stop(started);
      if (e instanceof IOException io) {
        throw new UncheckedIOException("cannot start a busy process for --load", io);
      }
      throw (RuntimeException) e;
    }
    return new MachineLoad(started);
  }

  /**
   * @return how many of the load's processes are alive
   */
  int running() {
    return (int) processes.stream().filter(Process::isAlive).count();
  }

  /** Stops every process (SIGTERM, then SIGKILL after {@value #STOP_WAIT_MS} ms). Idempotent. */
  @Override
  public void close() {
    if (teardown != null) {
      teardown.close();
    }
  }

  private void stopAll() {
    stop(processes);
  }

  private static void stop(List<Process> processes) {
    processes.forEach(Process::destroy);
    for (Process p : processes) {
      try {
        if (!p.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
