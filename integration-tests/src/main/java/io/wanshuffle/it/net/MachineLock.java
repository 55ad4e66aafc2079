package io.wanshuffle.it.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One shaped testbed per machine (its addresses and namespace names are fixed): a lock file holding
 * the PID of the JVM that owns the testbed. Claiming fails while another live JVM holds it; a lock
 * naming a dead process is taken over.
 */
final class MachineLock {
  private static final Path LOCK =
      Path.of(System.getProperty("java.io.tmpdir"), "wan-shuffle-testbed.pid");

  private MachineLock() {}

  /**
   * Claims the lock for this JVM.
   *
   * @throws IllegalStateException naming the owner's PID while another live JVM holds it, or when
   *     the lock file cannot be read or written
   */
  static synchronized void claim() {
    long me = ProcessHandle.current().pid();
    try {
      if (Files.exists(LOCK)) {
        String held = Files.readString(LOCK).strip();
        long pid = held.isEmpty() ? -1 : Long.parseLong(held);
        if (pid != me && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          throw new IllegalStateException(
              "another wan-shuffle testbed is running (process "
                  + pid
                  + ", lock "
                  + LOCK
                  + "); wait for it to finish or stop that process");
        }
      }
      Files.writeString(LOCK, Long.toString(me));
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException(
          "cannot use the testbed lock file " + LOCK + ": " + e.getMessage(), e);
    }
  }

  /** Releases the lock if this JVM holds it; a lock left behind names a dead process. */
  static synchronized void release() {
    try {
      String held = Files.exists(LOCK) ? Files.readString(LOCK).strip() : "";
      if (held.equals(Long.toString(ProcessHandle.current().pid()))) {
        Files.delete(LOCK);
      }
    } catch (IOException e) {
      // a stale lock names a dead process and is taken over by the next run
    }
  }
}
