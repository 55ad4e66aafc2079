package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MachineLoadTest {
  /** A process that runs until destroyed; {@code stubborn} ones ignore SIGTERM. */
  static final class FakeProcess extends Process {
    final boolean stubborn;
    boolean alive = true;
    int terms;
    int kills;

    FakeProcess(boolean stubborn) {
      this.stubborn = stubborn;
    }

    @Override
    public OutputStream getOutputStream() {
      return OutputStream.nullOutputStream();
    }

    @Override
    public InputStream getInputStream() {
      return InputStream.nullInputStream();
    }

    @Override
    public InputStream getErrorStream() {
      return InputStream.nullInputStream();
    }

    @Override
    public int waitFor() {
      return 0;
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) {
      return !alive;
    }

    @Override
    public int exitValue() {
      return 0;
    }

    @Override
    public void destroy() {
      terms++;
      alive = stubborn && alive;
    }

    @Override
    public Process destroyForcibly() {
      kills++;
      alive = false;
      return this;
    }

    @Override
    public boolean isAlive() {
      return alive;
    }
  }

  @Test
  void theLoadStartsItsProcessesAndStopsEachOnce() {
    List<FakeProcess> started = new ArrayList<>();
    MachineLoad load =
        MachineLoad.start(
            3,
            () -> {
              FakeProcess p = new FakeProcess(started.size() == 1);
              started.add(p);
              return p;
            });
    assertEquals(3, started.size());
    assertEquals(3, load.running());
    load.close();
    assertEquals(0, load.running());
    for (FakeProcess p : started) {
      assertEquals(1, p.terms, "SIGTERM first");
      assertFalse(p.isAlive());
    }
    assertEquals(1, started.get(1).kills, "the one that ignored SIGTERM is killed");
    assertEquals(0, started.get(0).kills);
    load.close();
    assertEquals(1, started.get(0).terms, "closing twice stops nothing twice");
  }

  @Test
  void noLoadStartsNothingAndANegativeCountIsRefused() {
    try (MachineLoad none =
        MachineLoad.start(
            0,
            () -> {
              throw new IOException("must not start");
            })) {
      assertEquals(0, none.running());
    }
    assertThrows(IllegalArgumentException.class, () -> MachineLoad.start(-1));
  }

  @Test
  void aProcessThatCannotStartStopsTheOnesStartedBefore() {
    List<FakeProcess> started = new ArrayList<>();
    IOException cause = new IOException("no sh");
    UncheckedIOException e =
        assertThrows(
            UncheckedIOException.class,
            () ->
                MachineLoad.start(
                    3,
                    () -> {
                      if (started.size() == 2) {
                        throw cause;
                      }
                      FakeProcess p = new FakeProcess(false);
                      started.add(p);
                      return p;
                    }));
    assertSame(cause, e.getCause());
    assertTrue(started.stream().noneMatch(FakeProcess::isAlive), "nothing left running");
  }

  @Test
  void aRealProcessIsGoneAfterClose() {
    List<Process> started = new ArrayList<>();
    try (MachineLoad load =
        MachineLoad.start(
            1,
            () -> {
              Process p = new ProcessBuilder("sleep", "60").start();
              started.add(p);
              return p;
            })) {
      assertEquals(1, load.running());
    }
    assertFalse(started.get(0).isAlive());
  }

  @Test
  void theBusyLoopEndsWithItsParent() throws Exception {
    // the loop of MachineLoad.BUSY_COMMAND, under a parent shell that exits after 0.3 s
    Process parent =
        new ProcessBuilder(
                "sh", "-c", "sh -c '" + MachineLoad.BUSY_COMMAND.get(2) + "' & echo $!; sleep 0.3")
            .redirectErrorStream(true)
            .start();
    long pid =
        Long.parseLong(
            new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream()))
                .readLine()
                .trim());
    try {
      assertTrue(parent.waitFor(10, TimeUnit.SECONDS));
      ProcessHandle loop = ProcessHandle.of(pid).orElse(null);
      if (loop != null) {
        loop.onExit().get(10, TimeUnit.SECONDS);
      }
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
