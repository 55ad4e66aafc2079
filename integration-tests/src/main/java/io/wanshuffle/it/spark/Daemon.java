package io.wanshuffle.it.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark daemon JVM (Master or Worker) running as a child process whose output goes to a log file:
 * waits for readiness lines in that log, and kills process trees (a Worker's executors are its
 * children).
 */
final class Daemon {
  private final String name;
  private final Process process;
  private final Path log;

  /**
   * @param name name used in errors ({@code master}, {@code worker-a1})
   * @param process the daemon's process
   * @param log the file receiving its output
   */
  Daemon(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  /**
   * Waits until the log has a line matching {@code pattern}.
   *
   * @return the first match (group 1 if the pattern has a group, else the whole match)
   * @throws IllegalStateException if the process exits first or the timeout passes; the message
   *     names the daemon and ends with the last lines of its log
   * @throws InterruptedException if interrupted while waiting
   */
  String awaitLog(Pattern pattern, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String text = readLog();
      Matcher m = pattern.matcher(text);
      if (m.find()) {
        return m.groupCount() > 0 ? m.group(1) : m.group();
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name
                + " exited with status "
                + process.exitValue()
                + " before logging '"
                + pattern
                + "'; log "
                + log
                + ":\n"
                + tail(text));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            name
                + " did not log '"
                + pattern
                + "' within "
                + timeout.toSeconds()
                + " s; log "
                + log
                + ":\n"
                + tail(text));
      }
      Thread.sleep(100);
    }
  }

  private String readLog() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * @param text a log's text
   * @return its last 30 lines, for error messages
   */
  static String tail(String text) {
    String[] lines = text.split("\n");
    int from = Math.max(0, lines.length - 30);
    return String.join("\n", Arrays.copyOfRange(lines, from, lines.length));
  }

  /**
   * Kills processes: SIGTERM to all (a Worker then stops its executors), then SIGKILL to whatever
   * is still alive after {@code grace}.
   *
   * @param handles the processes
   * @param grace how long they may take to exit after SIGTERM
   */
  static void killAll(List<ProcessHandle> handles, Duration grace) {
    handles.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    for (ProcessHandle h : handles) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        try {
          h.onExit().get(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        } catch (Exception e) {
          // timed out: forced below
        }
      }
    }
    handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
