package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.Teardown;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Injects a {@link FaultPlan} into one Spark application on the testbed: a thread follows the
 * application's signal file ({@link ReduceStageSignal}) and, once a reduce stage starts, applies
 * each fault AT after that start and undoes it FOR after it took effect ({@link Injection}); every
 * fault still applied when the run ends is undone then. A run is the whole application ({@link
 * Windows#FIRST_REDUCE_STAGE}, {@code run-app}: the clock starts at its first reduce stage) or each
 * run its driver marks ({@link Windows#MEASURED_RUNS}, {@code e2e-bench}'s {@code DriverMain}: the
 * clock starts at the first reduce stage after each {@code begin} mark, the run ends at the {@code
 * end} mark).
 *
 * <p>{@link #finish()} (when the application has ended) undoes what is still applied, stops the
 * thread and returns what happened ({@link FaultRun}); a {@link Teardown} does the same at JVM exit
 * or interrupt, before the testbed's own teardown. Faults are applied and undone one at a time,
 * each by a command, in the order given (what is due to be undone first); a fault due while others'
 * commands run (or before the stage's start is seen) takes effect late and still lasts FOR; the
 * record says when each took effect. A {@code rate} or {@code delay} fault due on a link where an
 * earlier one of its kind still holds ends that one first.
 */
public final class FaultSession implements AutoCloseable {
  /** Exit priority of the session's teardown: after Spark's, before the testbed's. */
  static final int TEARDOWN_PRIORITY = Teardown.TESTBED_PRIORITY + 5;

  /** Longest time between two looks at the signal file, ms. */
  private static final long POLL_MILLIS = 50;

  /** What a run is, for the faults' clock. */
  public enum Windows {
    /** The whole application; the clock starts at its first reduce stage. */
    FIRST_REDUCE_STAGE,
    /** Each run the driver marks; the clock starts at the first reduce stage of each. */
    MEASURED_RUNS
  }

  private final FaultPlan plan;
  private final FaultNetwork net;
  private final Path signal;
  private final Windows windows;
  private final Object lock = new Object();
  private final Thread thread;
  private final Teardown teardown;
  private final List<FaultRun> runs = new ArrayList<>();
  private final StringBuilder partialLine = new StringBuilder();
  private volatile boolean stopping;
  private long offset;
  private boolean listening;
  private boolean armed;
  private boolean firstUsed;
  private int measured;
  private Window window;

  private FaultSession(FaultPlan plan, FaultNetwork net, Path signal, Windows windows) {
    this.plan = plan;
    this.net = net;
    this.signal = signal;
    this.windows = windows;
    this.thread = new Thread(this::loop, "fault-session");
    this.thread.setDaemon(true);
    this.teardown = Teardown.register(TEARDOWN_PRIORITY, this::stop);
  }

  /**
   * Starts following {@code signal} (emptied first; the application's {@link ReduceStageSignal}
   * writes it).
   *
   * @param plan the faults
   * @param net the running testbed
   * @param signal the signal file
   * @param windows what a run is
   * @return the running session; {@link #finish()} it when the application has ended
   * @throws UncheckedIOException if the signal file cannot be prepared
   */
  public static FaultSession start(FaultPlan plan, FaultNetwork net, Path signal, Windows windows) {
    try {
      Files.createDirectories(signal.toAbsolutePath().getParent());
      Files.deleteIfExists(signal);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the fault signal file " + signal, e);
    }
    FaultSession s = new FaultSession(plan, net, signal, windows);
    s.thread.start();
    return s;
  }

  /**
   * Undoes every fault still applied, stops following the signal file, and says what happened.
   * Idempotent.
   *
   * @return per run what happened to every fault, in run order: one run for {@link
   *     Windows#FIRST_REDUCE_STAGE}, one per measured run begun for {@link Windows#MEASURED_RUNS}
   *     (with an error when the listener never started)
   */
  public List<FaultRun> finish() {
    teardown.close();
    synchronized (runs) {
      return List.copyOf(runs);
    }
  }

  /** Same as {@link #finish()}, ignoring its result. */
  @Override
  public void close() {
    finish();
  }

  private void stop() {
    stopping = true;
    synchronized (lock) {
      lock.notifyAll();
    }
    try {
      thread.join(); // its longest step is one command (Exec: at most 60 s)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readSignals();
    if (window != null) {
      closeWindow("the run ended");
    } else if (armed || (windows == Windows.FIRST_REDUCE_STAGE && !firstUsed)) {
      addRun(notApplied("no reduce stage started in the run"));
    }
    if (!listening) {
      synchronized (runs) {
        String why =
            "the reduce-stage listener ("
                + ReduceStageSignal.class.getName()
                + ") never started: see the driver's log";
        List<FaultRun> all = new ArrayList<>(runs);
        runs.clear();
        if (all.isEmpty()) {
          all.add(notApplied("the application never started"));
        }
        for (FaultRun r : all) {
          runs.add(new FaultRun(r.measuredRun(), null, null, r.faults(), why));
        }
      }
    }
  }

  private void loop() {
    while (!stopping) {
      long now = System.currentTimeMillis();
      try {
        readSignals();
        long next = window == null ? Long.MAX_VALUE : window.tick(now);
        long wait = Math.max(1, Math.min(POLL_MILLIS, next - System.currentTimeMillis()));
        synchronized (lock) {
          if (!stopping) {
            lock.wait(wait);
          }
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Reads the lines added to the signal file since the last call and acts on each. */
  private void readSignals() {
    if (!Files.exists(signal)) {
      return;
    }
    byte[] added;
    try (RandomAccessFile f = new RandomAccessFile(signal.toFile(), "r")) {
      long len = f.length();
      if (len <= offset) {
        return;
      }
      added = new byte[(int) (len - offset)];
      f.seek(offset);
      f.readFully(added);
      offset = len;
    } catch (IOException e) {
      return; // read again on the next look
    }
    partialLine.append(new String(added, StandardCharsets.UTF_8));
    int nl;
    while ((nl = partialLine.indexOf("\n")) >= 0) {
      String line = partialLine.substring(0, nl).strip();
      partialLine.delete(0, nl + 1);
      if (!line.isEmpty()) {
        signal(line.split("\\s+"));
      }
    }
  }

  private void signal(String[] words) {
    switch (words[0]) {
      case ReduceStageSignal.LISTENING -> listening = true;
      case ReduceStageSignal.BEGIN -> {
        if (windows == Windows.MEASURED_RUNS) {
          if (window != null) {
            closeWindow("the next measured run began");
          }
          measured++;
          armed = true;
        }
      }
      case ReduceStageSignal.REDUCE -> {
        boolean opens =
            window == null && (windows == Windows.FIRST_REDUCE_STAGE ? !firstUsed : armed);
        if (opens && words.length >= 2) {
          firstUsed = true;
          armed = false;
          window = new Window(Long.parseLong(words[1]));
          window.tick(System.currentTimeMillis());
        }
      }
      case ReduceStageSignal.END -> {
        if (windows != Windows.MEASURED_RUNS) {
          return;
        }
        if (window != null) {
          closeWindow("the measured run ended");
        } else if (armed) {
          addRun(notApplied("no reduce stage started in the measured run"));
          armed = false;
        }
      }
      default -> {
        // not a signal of this version: ignored
      }
    }
  }

  private Integer runNumber() {
    return windows == Windows.MEASURED_RUNS ? measured : null;
  }

  private FaultRun notApplied(String why) {
    List<FaultRecord> records = new ArrayList<>();
    for (FaultPlan.Fault f : plan.faults()) {
      records.add(new Entry(f).record(0, "not applied: " + why));
    }
    return new FaultRun(runNumber(), null, null, records, null);
  }

  private void closeWindow(String why) {
    Window w = window;
    window = null;
    addRun(w.close(why));
  }

  private void addRun(FaultRun r) {
    synchronized (runs) {
      runs.add(r);
    }
  }

  /** One run's faults on the clock that starts at its first reduce stage. */
  private final class Window {
    private final long startMs;
    private final List<Entry> entries = new ArrayList<>();

    Window(long startMs) {
      this.startMs = startMs;
      plan.faults().forEach(f -> entries.add(new Entry(f)));
    }

    /**
     * Undoes what is due, then applies what is due (a {@code rate} or {@code delay} fault first
     * ends the one of its kind still holding its link, so that the second holds), then undoes what
     * ended meanwhile.
     *
     * @param now the time, epoch ms
     * @return when the next action is due, epoch ms ({@link Long#MAX_VALUE}: none)
     */
    long tick(long now) {
      undoDue(now);
      for (Entry e : entries) {
        if (e.appliedMs == null && e.error == null && e.note == null && now >= due(e)) {
          for (Entry held : entries) {
            if (held != e && held.pendingUndo() && held.sameKindAndTarget(e)) {
              held.undo();
            }
          }
          e.apply();
        }
      }
      undoDue(System.currentTimeMillis());
      long next = Long.MAX_VALUE;
      for (Entry e : entries) {
        if (e.appliedMs == null && e.error == null && e.note == null) {
          next = Math.min(next, due(e));
        } else if (e.pendingUndo() && !e.fault.spec().toTheEnd()) {
          next = Math.min(next, end(e));
        }
      }
      return next;
    }

    private void undoDue(long now) {
      for (Entry e : entries) {
        if (e.pendingUndo() && !e.fault.spec().toTheEnd() && now >= end(e)) {
          e.undo();
        }
      }
    }

    /** When the fault is due, epoch ms. */
    private long due(Entry e) {
      return startMs + e.fault.spec().atMillis();
    }

    /** When an applied fault ends, epoch ms: FOR after it took effect. */
    private long end(Entry e) {
      return e.appliedMs + e.fault.spec().forMillis();
    }

    FaultRun close(String why) {
      List<FaultRecord> records = new ArrayList<>();
      for (Entry e : entries) {
        if (e.pendingUndo()) {
          e.undo();
        } else if (e.appliedMs == null && e.error == null) {
          e.note = "not applied: " + why + " before AT";
        }
        records.add(e.record(startMs, null));
      }
      return new FaultRun(
          runNumber(), Instant.ofEpochMilli(startMs).toString(), startMs, records, null);
    }
  }

  /** One fault in one run. */
  private final class Entry {
    private final FaultPlan.Fault fault;
    private final Injection injection;
    private Long appliedMs;
    private Long undoneMs;
    private Boolean undoOk;
    private String detail;
    private String error;
    private String note;

    Entry(FaultPlan.Fault fault) {
      this.fault = fault;
      this.injection = new Injection(fault, net);
    }

    boolean pendingUndo() {
      return appliedMs != null && undoneMs == null && injection.undoable();
    }

    boolean sameKindAndTarget(Entry o) {
      return fault.spec().kind() == o.fault.spec().kind()
          && fault.target().equals(o.fault.target());
    }

    /** Applies the fault; it counts as applied when the command that applies it has returned. */
    void apply() {
      try {
        detail = injection.apply();
        appliedMs = System.currentTimeMillis();
        System.out.println("fault applied: " + fault.spec().text() + " (" + detail + ")");
      } catch (RuntimeException e) {
        error = "applying failed: " + e.getMessage();
        System.out.println("ERROR: fault " + fault.spec().text() + ": " + error);
      }
    }

    /** Undoes the fault; it counts as undone when the command that undoes it has returned. */
    void undo() {
      try {
        injection.undo();
        undoOk = true;
        System.out.println("fault undone: " + fault.spec().text());
      } catch (RuntimeException e) {
        undoOk = false;
        error = "undoing failed: " + e.getMessage();
        System.out.println("ERROR: fault " + fault.spec().text() + ": " + error);
      }
      undoneMs = System.currentTimeMillis();
    }

    FaultRecord record(long startMs, String why) {
      FaultSpec s = fault.spec();
      return new FaultRecord(
          s.text(),
          s.kind().word(),
          fault.target(),
          s.atMillis() / 1000.0,
          s.kind().lasts() && !s.toTheEnd() ? s.forMillis() / 1000.0 : null,
          appliedMs != null,
          appliedMs == null ? null : (appliedMs - startMs) / 1000.0,
          appliedMs == null ? null : Instant.ofEpochMilli(appliedMs).toString(),
          appliedMs,
          undoneMs == null ? null : (undoneMs - startMs) / 1000.0,
          undoneMs == null ? null : Instant.ofEpochMilli(undoneMs).toString(),
          undoneMs,
          undoOk,
          why != null ? why : (note != null ? note : detail),
          error);
    }
  }
}
