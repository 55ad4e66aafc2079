package io.wanshuffle.it.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonRecordTest {
  @TempDir Path root;
  Process daemon;

  @AfterEach
  void stop() {
    if (daemon != null) {
      daemon.destroyForcibly();
    }
  }

  private Process sleeper() throws Exception {
    return new ProcessBuilder("sleep", "60").start();
  }

  /** The PID of a process that has exited: an owner that is gone. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor(10, TimeUnit.SECONDS);
    return p.pid();
  }

  private static long start(Process p) {
    return p.info().startInstant().map(Instant::toEpochMilli).orElseThrow();
  }

  @Test
  void theDaemonsOfADeadOwnerAreKilledAndTheirRecordRemoved() throws Exception {
    daemon = sleeper();
    Path dir = Files.createDirectories(root.resolve("cluster-1"));
    Files.writeString(
        dir.resolve(DaemonRecord.FILE),
        daemon.pid() + " " + start(daemon) + " " + deadPid() + "\n");
    DaemonRecord.reap(root, Duration.ofSeconds(5));
    assertTrue(daemon.waitFor(10, TimeUnit.SECONDS), "the leftover daemon was killed");
    assertFalse(Files.exists(dir.resolve(DaemonRecord.FILE)));
  }

  @Test
  void theDaemonsOfALiveOwnerAreKept() throws Exception {
    daemon = sleeper();
    Path dir = Files.createDirectories(root.resolve("cluster-2"));
    DaemonRecord.add(dir, daemon.toHandle());
    DaemonRecord.reap(root, Duration.ofSeconds(5));
    assertTrue(daemon.isAlive(), "this JVM owns it");
    assertTrue(Files.exists(dir.resolve(DaemonRecord.FILE)));
    DaemonRecord.remove(dir);
    assertFalse(Files.exists(dir.resolve(DaemonRecord.FILE)));
  }

  @Test
  void aReusedPidIsLeftAlone() throws Exception {
    daemon = sleeper();
    Path dir = Files.createDirectories(root.resolve("cluster-3"));
    Files.writeString(
        dir.resolve(DaemonRecord.FILE),
        daemon.pid() + " " + (start(daemon) - 60_000) + " " + deadPid() + "\n");
    DaemonRecord.reap(root, Duration.ofSeconds(5));
    assertTrue(daemon.isAlive(), "another process than the recorded daemon");
    assertFalse(Files.exists(dir.resolve(DaemonRecord.FILE)), "the stale record is gone");
  }
}
