package io.wanshuffle.it.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads network interfaces' byte counters inside a network namespace without starting a process per
 * reading: a sentinel process ({@code ip netns exec NS sleep infinity}) stays in the namespace, and
 * each reading is a read of its {@code /proc/<pid>/net/dev} (the kernel shows a process the
 * interfaces of its own network namespace there), a few microseconds long.
 *
 * <p>Why: a rate is bytes between two readings over the time between them. When each reading starts
 * an {@code ip} process, the counters are read some unknown time after the timestamp (tens of
 * milliseconds, more on a busy 2-core machine running Spark), and a reading late by 110 ms at the
 * end of a 1 s window inflates that window's rate by 11 %. Read here, the timestamp and the
 * counters are microseconds apart.
 *
 * <p>Close it to stop the sentinel; the testbed's teardown also kills every process left in its
 * namespaces.
 */
final class InterfaceCounters implements AutoCloseable {
  /** How long the sentinel may take to enter the namespace. */
  private static final long ENTER_TIMEOUT_MS = 10_000;

  /** A read this short is taken as instantaneous. */
  private static final long TIGHT_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** Reads per {@link #sample()} at most. */
  private static final int MAX_ATTEMPTS = 5;

  private final String ns;
  private final List<String> devs;
  private final Process sentinel;
  private final Path netDev;

  private InterfaceCounters(String ns, List<String> devs, Process sentinel) {
    this.ns = ns;
    this.devs = List.copyOf(devs);
    this.sentinel = sentinel;
    this.netDev = Path.of("/proc", Long.toString(sentinel.pid()), "net", "dev");
  }

  /**
   * Starts the sentinel in {@code ns} and waits until it sees {@code dev}.
   *
   * @param ns network namespace name (as {@code ip netns} lists it)
   * @param dev interface in that namespace
   * @return the open reader
   * @throws IllegalStateException if the sentinel cannot start, exits, or does not see {@code dev}
   *     within 10 s
   */
  static InterfaceCounters open(String ns, String dev) {
    return open(ns, List.of(dev));
  }

  /**
   * Starts the sentinel in {@code ns} and waits until it sees every interface of {@code devs}.
   *
   * @param ns network namespace name (as {@code ip netns} lists it)
   * @param devs interfaces in that namespace, at least one; {@link #sample()} reads the first
   * @return the open reader
   * @throws IllegalStateException if the sentinel cannot start, exits, or does not see every
   *     interface within 10 s
   */
  static InterfaceCounters open(String ns, List<String> devs) {
    if (devs.isEmpty()) {
      throw new IllegalArgumentException("no interface to read in " + ns);
    }
    Process p;
    try {
      p =
          new ProcessBuilder(List.of("ip", "netns", "exec", ns, "sleep", "infinity"))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot start a counter sentinel in namespace " + ns + ": " + e.getMessage(), e);
    }
    InterfaceCounters c = new InterfaceCounters(ns, devs, p);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ENTER_TIMEOUT_MS);
    String last = "";
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "the counter sentinel in namespace "
                + ns
                + " exited with "
                + p.exitValue()
                + " (does the namespace exist?)");
      }
      try {
        // until `ip` has entered the namespace, /proc/<pid>/net/dev lists the root namespace's
        // interfaces
        last = Files.readString(c.netDev);
        String text = last;
        if (devs.stream().allMatch(d -> parse(text, d) != null)) {
          return c;
        }
      } catch (IOException e) {
        last = e.toString();
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        c.close();
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "interrupted while starting the counter sentinel in " + ns, e);
      }
    }
    c.close();
    throw new IllegalStateException(
        "the counter sentinel in namespace "
            + ns
            + " did not see interface(s) "
            + String.join(", ", devs)
            + " within "
            + ENTER_TIMEOUT_MS
            + " ms; it last read: "
            + last);
  }

  /**
   * One reading of the counters and the time it was taken.
   *
   * @param epochMillis wall-clock time of the reading, ms since the epoch (the middle of the read)
   * @param txBytes bytes the interface transmitted since it was created
   * @param rxBytes bytes it received
   */
  record Reading(long epochMillis, long txBytes, long rxBytes) {}

  /**
   * One reading of every interface's counters, all from one read of the file.
   *
   * @param epochMillis wall-clock time of the reading, ms since the epoch (the middle of the read)
   * @param txRx per interface in the order given to {@link #open(String, List)}: {transmitted
   *     bytes, received bytes} since it was created
   */
  record Readings(long epochMillis, long[][] txRx) {}

  /**
   * Reads the first interface's counters with the time of the reading ({@link #sampleAll()}).
   *
   * @return the reading
   * @throws IllegalStateException if the sentinel is gone (the namespace was deleted) or an
   *     interface is gone
   */
  Reading sample() {
    Readings r = sampleAll();
    return new Reading(r.epochMillis(), r.txRx()[0][0], r.txRx()[0][1]);
  }

  /**
   * Reads the counters with the time of the reading. A read that took longer than 2 ms (the thread
   * was descheduled between the clock and the file, as happens on a loaded 2-core machine) is taken
   * again, up to 5 times, keeping the tightest; its time is the middle of its read.
   *
   * @return the reading of every interface
   * @throws IllegalStateException if the sentinel is gone (the namespace was deleted) or an
   *     interface is gone
   */
  Readings sampleAll() {
    Readings best = null;
    long bestNanos = Long.MAX_VALUE;
    for (int attempt = 0; attempt < MAX_ATTEMPTS && bestNanos > TIGHT_NANOS; attempt++) {
      long t0 = System.nanoTime();
      long wall = System.currentTimeMillis();
      String text = readFile();
      long took = System.nanoTime() - t0;
      if (took < bestNanos) {
        bestNanos = took;
        best = new Readings(wall + TimeUnit.NANOSECONDS.toMillis(took / 2), parseAll(text));
      }
    }
    return best;
  }

  private String readFile() {
    try {
      return Files.readString(netDev);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot read the counters of "
              + String.join(", ", devs)
              + " in "
              + ns
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * @return per interface, {transmitted bytes, received bytes} since it was created (the counters
   *     {@code ip -s link} prints)
   * @throws IllegalStateException if an interface is gone
   */
  private long[][] parseAll(String text) {
    long[][] out = new long[devs.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = parse(text, devs.get(i));
      if (out[i] == null) {
        throw new IllegalStateException(
            "interface " + devs.get(i) + " is gone from namespace " + ns);
      }
    }
    return out;
  }

  /**
   * Finds an interface's line in {@code /proc/net/dev} text: {@code name: rx_bytes rx_packets ...
   * (8 receive fields) tx_bytes ...}.
   *
   * @param text the file's content
   * @param dev interface name
   * @return {tx bytes, rx bytes}, or null if the interface is not listed
   * @throws IllegalStateException if its line has fewer than 9 counters or one is not a number
   */
  static long[] parse(String text, String dev) {
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0 || !line.substring(0, colon).strip().equals(dev)) {
        continue;
      }
      String[] f = line.substring(colon + 1).strip().split("\\s+");
      if (f.length < 9) {
        throw new IllegalStateException("unexpected /proc/net/dev line for " + dev + ": " + line);
      }
      try {
        return new long[] {Long.parseUnsignedLong(f[8]), Long.parseUnsignedLong(f[0])};
      } catch (NumberFormatException e) {
        throw new IllegalStateException(
            "unexpected /proc/net/dev line for " + dev + ": " + line, e);
      }
    }
    return null;
  }

  @Override
  public void close() {
    sentinel.destroy();
    try {
      if (!sentinel.waitFor(2, TimeUnit.SECONDS)) {
        sentinel.destroyForcibly();
      }
    } catch (InterruptedException e) {
      sentinel.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
