package io.wanshuffle.it.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The record of a deployment's daemons, {@code <runDir>/daemons.pid}: one line {@code <pid> <start
 * epoch ms> <owner pid>} per daemon, so that the daemons of a JVM killed without closing (SIGKILL)
 * can be found and killed by the next deployment under the same parent folder ({@link #reap}).
 */
final class DaemonRecord {
  static final String FILE = "daemons.pid";

  private DaemonRecord() {}

  /**
   * Appends a daemon to the record of {@code runDir}, owned by this JVM.
   *
   * @param runDir the deployment's run folder
   * @param daemon the daemon's process
   * @throws IOException if the record cannot be written
   */
  static void add(Path runDir, ProcessHandle daemon) throws IOException {
    Files.writeString(
        runDir.resolve(FILE),
        daemon.pid()
            + " "
            + daemon.info().startInstant().map(Instant::toEpochMilli).orElse(0L)
            + " "
            + ProcessHandle.current().pid()
            + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /**
   * Removes the record of {@code runDir}.
   *
   * @param runDir the deployment's run folder
   * @throws IOException if it cannot be removed
   */
  static void remove(Path runDir) throws IOException {
    Files.deleteIfExists(runDir.resolve(FILE));
  }

  /**
   * Kills the daemons (and their descendants) recorded in {@code <runRoot>/<any>/daemons.pid} by
   * deployments whose owning JVM is gone, and removes those records. A daemon counts only if its
   * process still has the recorded start time, so reused PIDs are left alone; records of a live
   * owner (this JVM or another) are kept.
   *
   * @param runRoot folder whose sub-folders are run folders
   * @param grace how long the daemons may take to exit after SIGTERM
   * @throws IOException if the folder cannot be listed or a record read or removed
   */
  static void reap(Path runRoot, Duration grace) throws IOException {
    List<Path> records;
    try (Stream<Path> dirs = Files.list(runRoot)) {
      records = dirs.map(d -> d.resolve(FILE)).filter(Files::exists).toList();
    }
    for (Path record : records) {
      List<ProcessHandle> stale = new ArrayList<>();
      boolean ownerAlive = false;
      for (String line : Files.readAllLines(record)) {
        String[] f = line.trim().split(" ");
        if (f.length != 3) {
          continue;
        }
        ownerAlive |=
            ProcessHandle.of(Long.parseLong(f[2])).map(ProcessHandle::isAlive).orElse(false);
        Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(f[0]));
        if (h.isPresent() && startMillis(h.get()) == Long.parseLong(f[1])) {
          h.get().descendants().forEach(stale::add);
          stale.add(h.get());
        }
      }
      if (!ownerAlive) {
        Daemon.killAll(stale, grace);
        Files.deleteIfExists(record);
      }
    }
  }

  private static long startMillis(ProcessHandle h) {
    return h.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
  }
}
