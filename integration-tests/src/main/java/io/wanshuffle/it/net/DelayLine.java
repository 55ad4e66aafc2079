package io.wanshuffle.it.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A user-space layer-2 delay line between interfaces of one namespace, standing in for netem (which
 * the testbed's kernel lacks): {@code delayline.py} (a resource of this package) forwards every
 * frame from one interface to the other after a fixed one-way delay (with more than two interfaces,
 * to its destination's interface, as a learning switch does), using packet sockets with virtio-net
 * headers so GSO super-packets pass whole (a few thousand frames/s at 200 Mbit/s). It runs as a
 * child process at real-time priority (SCHED_FIFO; a warning is printed when it cannot get it), so
 * that busy hosts on the same cores do not delay frames beyond their due time; {@link #close()}
 * stops that process. {@link #setExtra} adds delay to the frames entering or leaving by one
 * interface, through the process's standard input.
 */
final class DelayLine implements AutoCloseable {
  /** Longest wait for the process to confirm a change of delay. */
  private static final long CONFIRM_MILLIS = 5_000;

  private final Process process;
  private final Path script;

  /** What the process printed so far (guarded by itself). */
  private final StringBuilder output;

  private int changes;

  private DelayLine(Process process, Path script, StringBuilder output) {
    this.process = process;
    this.script = script;
    this.output = output;
  }

  /**
   * Starts the delay line and waits until both sockets are bound.
   *
   * @param ns namespace holding the interfaces
   * @param interfaces the interfaces, at least two
   * @param oneWayMillis delay added in each direction, ms
   * @return the running delay line
   * @throws IllegalStateException if python3 fails to start it within 10 s (its output is in the
   *     message)
   */
  static DelayLine start(String ns, List<String> interfaces, double oneWayMillis) {
    if (interfaces.size() < 2) {
      throw new IllegalArgumentException("a delay line joins at least two interfaces");
    }
    try {
      Path script = Files.createTempFile("wan-shuffle-delayline", ".py");
      try (InputStream in = DelayLine.class.getResourceAsStream("delayline.py")) {
        if (in == null) {
          throw new IllegalStateException(
              "resource io/wanshuffle/it/net/delayline.py is missing from the build");
        }
        Files.write(script, in.readAllBytes());
      }
      List<String> cmd =
          new java.util.ArrayList<>(
              List.of(
                  "ip",
                  "netns",
                  "exec",
                  ns,
                  "python3",
                  script.toString(),
                  Double.toString(oneWayMillis)));
      cmd.addAll(interfaces);
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      StringBuilder seen = new StringBuilder();
      Thread reader =
          new Thread(
              () -> {
                try {
                  String line;
                  while ((line = r.readLine()) != null) {
                    synchronized (seen) {
                      seen.append(line).append('\n');
                      seen.notifyAll();
                    }
                  }
                } catch (IOException ignored) {
                  // the process ended
                }
              },
              "delayline-output");
      reader.setDaemon(true);
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      synchronized (seen) {
        while (seen.indexOf("ready") < 0 && p.isAlive() && System.nanoTime() < deadline) {
          seen.wait(100);
        }
        if (seen.indexOf("ready") < 0) {
          p.destroyForcibly();
          throw new IllegalStateException(
              "the WAN delay line did not start: " + seen.toString().strip());
        }
        if (seen.indexOf("no real-time") >= 0) {
          // the delay is then only as exact as the machine's load allows
          System.err.println("warning: WAN delay line at " + seen.toString().strip());
        }
      }
      return new DelayLine(p, script, seen);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the WAN delay line: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the WAN delay line", e);
    }
  }

  /**
   * Sets the delay the line adds, on top of its fixed one, to the frames that enter ({@code
   * ingress}) or leave by one of its interfaces; a frame crossing from an interface with an ingress
   * delay to one with an egress delay gets both. Applies to frames arriving from now on; frames
   * already queued keep their due time, and frames of one path never overtake each other.
   *
   * @param port one of the line's interfaces
   * @param ingress true for the frames entering by it, false for those leaving by it
   * @param extraMillis the added one-way delay, ms, at least 0 (0 removes it)
   * @throws IllegalArgumentException if {@code extraMillis} is negative or not finite
   * @throws IllegalStateException if the process is gone, refuses the change (an unknown
   *     interface), or does not confirm it within 5 s
   */
  synchronized void setExtra(String port, boolean ingress, double extraMillis) {
    if (!(extraMillis >= 0) || Double.isInfinite(extraMillis)) {
      throw new IllegalArgumentException("an added delay must be >= 0 ms, got " + extraMillis);
    }
    int id = ++changes;
    String command =
        String.format(
            java.util.Locale.ROOT,
            "extra %d %s %s %.3f",
            id,
            ingress ? "in" : "out",
            port,
            extraMillis);
    try {
      process.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    } catch (IOException e) {
      throw new IllegalStateException(
          "the WAN delay line did not take `" + command + "`: " + e.getMessage(), e);
    }
    String ok = "ok " + id + "\n";
    String refused = "error " + id + " ";
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONFIRM_MILLIS);
    synchronized (output) {
      while (System.nanoTime() < deadline) {
        int error = output.indexOf(refused);
        if (error >= 0) {
          int end = output.indexOf("\n", error);
          throw new IllegalStateException(
              "the WAN delay line refused `"
                  + command
                  + "`: "
                  + output.substring(error + refused.length(), end < 0 ? output.length() : end));
        }
        if (output.indexOf(ok) >= 0) {
          return;
        }
        if (!process.isAlive()) {
          break;
        }
        try {
          output.wait(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while changing the WAN delay line", e);
        }
      }
    }
    throw new IllegalStateException(
        "the WAN delay line did not confirm `"
            + command
            + "` within "
            + CONFIRM_MILLIS
            + " ms"
            + (process.isAlive() ? "" : " (its process has ended)"));
  }

  /** Stops the delay line process (by its handle) and deletes the script copy. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(3, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      Files.deleteIfExists(script);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } catch (IOException ignored) {
      // a leftover temp file is harmless
    }
  }
}
