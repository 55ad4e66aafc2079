package io.wanshuffle.bench.coordinator;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the simulated tasks of one JVM saw: every flow they fetched (source and receiving host, from
 * the grant's arrival to the report that handed its ports back, {@code System.nanoTime()}, which on
 * Linux is one clock for every process of the machine), and their tallies: tasks finished with
 * every byte granted, tasks told to fetch ungated, failed calls, RPC messages sent to the
 * coordinator, the first and last launch of a task and every task's end. Thread-safe; written to
 * and read from a file in rpc mode.
 */
final class FlowLog {
  private int size;
  private int[] src = new int[1024];
  private int[] dst = new int[1024];
  private long[] start = new long[1024];
  private long[] end = new long[1024];
  private long[] taskEnds = new long[1024];
  private int tasksEnded;

  long messages;
  long expiredPolls;
  long finished;
  long ungated;
  long failures;
  long firstLaunchNanos = Long.MAX_VALUE;
  long lastLaunchNanos = Long.MIN_VALUE;
  long lastEndNanos = Long.MIN_VALUE;

  /**
   * @param s sending host index
   * @param d receiving host index
   * @param startNanos the grant reached the task
   * @param endNanos the task reported the flow's end (its ports are free)
   */
  synchronized void flow(int s, int d, long startNanos, long endNanos) {
    if (size == src.length) {
      int cap = 2 * size;
      src = Arrays.copyOf(src, cap);
      dst = Arrays.copyOf(dst, cap);
      start = Arrays.copyOf(start, cap);
      end = Arrays.copyOf(end, cap);
    }
    src[size] = s;
    dst[size] = d;
    start[size] = startNanos;
    end[size] = endNanos;
    size++;
  }

  synchronized void message() {
    messages++;
  }

  /** A long-poll was answered "not yet" (it expired without a grant; the task asks again). */
  synchronized void expiredPoll() {
    expiredPolls++;
  }

  synchronized void launched(long nanos) {
    firstLaunchNanos = Math.min(firstLaunchNanos, nanos);
    lastLaunchNanos = Math.max(lastLaunchNanos, nanos);
  }

  synchronized void ended(long nanos, boolean complete, boolean wasUngated) {
    lastEndNanos = Math.max(lastEndNanos, nanos);
    addTaskEnd(nanos);
    if (complete) {
      finished++;
    }
    if (wasUngated) {
      ungated++;
    }
  }

  synchronized void failure() {
    failures++;
  }

  synchronized int size() {
    return size;
  }

  synchronized int src(int i) {
    return src[i];
  }

  synchronized int dst(int i) {
    return dst[i];
  }

  synchronized long start(int i) {
    return start[i];
  }

  synchronized long end(int i) {
    return end[i];
  }

  private void addTaskEnd(long nanos) {
    if (tasksEnded == taskEnds.length) {
      taskEnds = Arrays.copyOf(taskEnds, 2 * tasksEnded);
    }
    taskEnds[tasksEnded++] = nanos;
  }

  /**
   * @return when each task ended, {@code System.nanoTime()}, ascending
   */
  synchronized long[] taskEnds() {
    long[] out = Arrays.copyOf(taskEnds, tasksEnded);
    Arrays.sort(out);
    return out;
  }

  /**
   * Adds another JVM's log to this one.
   *
   * @param o the other log
   */
  synchronized void addAll(FlowLog o) {
    for (int i = 0; i < o.size(); i++) {
      flow(o.src(i), o.dst(i), o.start(i), o.end(i));
    }
    messages += o.messages;
    expiredPolls += o.expiredPolls;
    finished += o.finished;
    ungated += o.ungated;
    failures += o.failures;
    firstLaunchNanos = Math.min(firstLaunchNanos, o.firstLaunchNanos);
    lastLaunchNanos = Math.max(lastLaunchNanos, o.lastLaunchNanos);
    lastEndNanos = Math.max(lastEndNanos, o.lastEndNanos);
    for (long t : o.taskEnds()) {
      addTaskEnd(t);
    }
  }

  /**
   * @param file where to write the log
   * @throws IOException if it cannot be written
   */
  synchronized void write(Path file) throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeLong(messages);
      out.writeLong(expiredPolls);
      out.writeLong(finished);
      out.writeLong(ungated);
      out.writeLong(failures);
      out.writeLong(firstLaunchNanos);
      out.writeLong(lastLaunchNanos);
      out.writeLong(lastEndNanos);
      out.writeInt(size);
      for (int i = 0; i < size; i++) {
        out.writeInt(src[i]);
        out.writeInt(dst[i]);
        out.writeLong(start[i]);
        out.writeLong(end[i]);
      }
      out.writeInt(tasksEnded);
      for (int i = 0; i < tasksEnded; i++) {
        out.writeLong(taskEnds[i]);
      }
    }
  }

  /**
   * @param file a log written by {@link #write}
   * @return the log
   * @throws IOException if it cannot be read
   */
  static FlowLog read(Path file) throws IOException {
    FlowLog log = new FlowLog();
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      log.messages = in.readLong();
      log.expiredPolls = in.readLong();
      log.finished = in.readLong();
      log.ungated = in.readLong();
      log.failures = in.readLong();
      log.firstLaunchNanos = in.readLong();
      log.lastLaunchNanos = in.readLong();
      log.lastEndNanos = in.readLong();
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        log.flow(in.readInt(), in.readInt(), in.readLong(), in.readLong());
      }
      int ended = in.readInt();
      for (int i = 0; i < ended; i++) {
        log.addTaskEnd(in.readLong());
      }
    }
    return log;
  }
}
