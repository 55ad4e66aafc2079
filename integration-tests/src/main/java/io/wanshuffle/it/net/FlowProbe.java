package io.wanshuffle.it.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Raw TCP throughput probe of the testbed, independent of Spark: every map-side host (every site
 * but B) sends to every host of site B for a few seconds over one TCP connection per pair, while
 * {@link BackboneMeter} records the backbone and {@link LinkMeter} every link. Shows that the
 * shaping works (aggregate close to the bottleneck's rate, never above a link's rate plus the tbf
 * burst).
 *
 * <p>{@code main} is the per-host program: {@code sink <address> <port> <seconds>} accepts and
 * discards, and {@code source <seconds> <address:port>...} sends zeros to each sink.
 */
public final class FlowProbe {
  private static final int PORT = 5301;

  /** What a source prints when one of its connections is up, before its first write. */
  static final String SENDING = "sending";

  private FlowProbe() {}

  /**
   * Runs the probe on a testbed.
   *
   * @param testbed a running shaped testbed
   * @param seconds how long the sources send
   * @param javaClassPath class path holding this class
   * @return the backbone trace over the probe
   * @throws IllegalStateException if a probe process fails
   */
  public static BackboneTrace run(Testbed testbed, int seconds, String javaClassPath) {
    return runMeasured(testbed, seconds, javaClassPath).backbone();
  }

  /**
   * What a probe measured.
   *
   * @param backbone the backbone into site B over the probe
   * @param links every link over the probe
   */
  public record Measured(BackboneTrace backbone, LinkTrace links) {}

  /**
   * Runs the probe on a testbed, measuring the backbone and every link.
   *
   * @param testbed a running shaped testbed
   * @param seconds how long the sources send
   * @param javaClassPath class path holding this class
   * @return the backbone's and the links' traces over the probe
   * @throws IllegalStateException if a probe process fails
   */
  public static Measured runMeasured(Testbed testbed, int seconds, String javaClassPath) {
    try (Running r = start(testbed, seconds, javaClassPath)) {
      return r.finish();
    }
  }

  /**
   * Starts the probe on a testbed and returns while it runs: the sinks on site B's hosts, the
   * backbone's and every link's recording, then the sources on every map-side host.
   *
   * @param testbed a running shaped testbed
   * @param seconds how long the sources send
   * @param javaClassPath class path holding this class
   * @return the running probe; {@link Running#finish()} waits for it
   * @throws IllegalStateException if the testbed is not shaped or a probe process cannot start
   */
  public static Running start(Testbed testbed, int seconds, String javaClassPath) {
    LinkMeter links =
        testbed
            .links()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the probe needs the shaped testbed (its links are measured)"));
    BackboneMeter meter =
        testbed
            .backbone()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the probe needs the shaped testbed (its backbone is measured)"));
    Running r = new Running(seconds);
    try {
      for (Node b : testbed.reduceSide()) {
        r.sinks.add(startSink(b, PORT, seconds + 10, javaClassPath));
      }
      Thread.sleep(1500);
      r.backbone = meter.record(100);
      r.links = links.record(100);
      for (Node a : testbed.mapSide()) {
        List<String> args = new ArrayList<>(List.of("source", Integer.toString(seconds)));
        testbed.reduceSide().forEach(b -> args.add(b.address() + ":" + PORT));
        r.connections += testbed.reduceSide().size();
        r.sources.add(start(a, args, javaClassPath));
      }
      return r;
    } catch (IOException e) {
      r.close();
      throw new IllegalStateException("cannot run the probe: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      r.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("probe interrupted", e);
    }
  }

  /** A probe running in the background ({@link #start}); close it to stop its processes. */
  public static final class Running implements AutoCloseable {
    private final int seconds;
    private final List<Process> sinks = new ArrayList<>();
    private final List<Process> sources = new ArrayList<>();
    private int connections;
    private BackboneMeter.Recording backbone;
    private LinkMeter.Recording links;

    private Running(int seconds) {
      this.seconds = seconds;
    }

    /**
     * Waits until every source has connected to every sink (each source prints {@value
     * FlowProbe#SENDING} per connection, before its first write).
     *
     * @param timeoutMillis how long to wait, ms
     * @throws IllegalStateException if not every connection is up in time
     */
    public void awaitSending(long timeoutMillis) {
      long deadline = System.currentTimeMillis() + timeoutMillis;
      int up = 0;
      StringBuilder ended = new StringBuilder();
      try {
        for (Process p : sources) {
          java.io.BufferedReader r =
              new java.io.BufferedReader(
                  new java.io.InputStreamReader(
                      p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
          int mine = 0;
          while (mine < connections / sources.size() && System.currentTimeMillis() < deadline) {
            if (!r.ready() && p.isAlive()) {
              Thread.sleep(20);
              continue;
            }
            String line = r.readLine();
            if (line == null) {
              ended.append(" (a source ended early; see above)");
              break;
            }
            if (line.startsWith(SENDING)) {
              mine++;
            } else {
              ended.append('\n').append(line);
            }
          }
          up += mine;
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the probe's sources: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("probe interrupted", e);
      }
      if (up < connections) {
        throw new IllegalStateException(
            "only "
                + up
                + " of the probe's "
                + connections
                + " connections came up in time"
                + ended);
      }
    }

    /**
     * Waits for the sources to end and stops the recordings.
     *
     * @return the backbone's and the links' traces over the probe
     * @throws IllegalStateException if a source fails or takes 30 s longer than it should
     */
    public Measured finish() {
      try {
        for (Process p : sources) {
          output(p, seconds + 30L, "probe source");
        }
        LinkTrace linkTrace = links.stop();
        return new Measured(backbone.stop(), linkTrace);
      } catch (IOException e) {
        throw new IllegalStateException("cannot run the probe: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("probe interrupted", e);
      } finally {
        close();
      }
    }

    /**
     * Stops the probe's processes and waits for them to end (at most 5 s, then kills them), so that
     * the next probe's sinks find their port free.
     */
    @Override
    public void close() {
      List<Process> all = new ArrayList<>(sources);
      all.addAll(sinks);
      all.forEach(Process::destroy);
      try {
        for (Process p : all) {
          if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
          }
        }
      } catch (InterruptedException e) {
        all.forEach(Process::destroyForcibly);
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Process start(Node n, List<String> args, String cp) throws IOException {
    return start(n, FlowProbe.class, args, cp);
  }

  /**
   * Starts a probe program on a host of the testbed.
   *
   * @param n the host to run on
   * @param main the program's class (its {@code main})
   * @param args the program's arguments
   * @param cp class path holding {@code main}
   * @return the running process, its standard error merged into its output
   * @throws IOException if it cannot be started
   */
  static Process start(Node n, Class<?> main, List<String> args, String cp) throws IOException {
    List<String> cmd = new ArrayList<>(n.launchPrefix());
    cmd.addAll(List.of(javaBinary(), "-Xmx64m", "-cp", cp, main.getName()));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }

  /**
   * Waits for a probe program to end.
   *
   * @param p the program's process (standard error merged into its output)
   * @param seconds how long it may take
   * @param what the program, for messages
   * @return its output
   * @throws IllegalStateException if it takes longer (it is then killed) or exits with a non-zero
   *     status (its output is in the message)
   * @throws IOException if its output cannot be read
   * @throws InterruptedException if interrupted while waiting
   */
  static String output(Process p, long seconds, String what)
      throws IOException, InterruptedException {
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(what + " timed out after " + seconds + " s");
    }
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(what + " failed: " + out.strip());
    }
    return out;
  }

  /**
   * Starts the sink of this probe on a host: it accepts connections on {@code port} and discards
   * what they carry until no connection arrives for {@code seconds}.
   *
   * @param n the host
   * @param port TCP port on the host's address
   * @param seconds idle time after which the sink exits
   * @param cp class path holding this class
   * @return the sink's process
   * @throws IOException if it cannot be started
   */
  static Process startSink(Node n, int port, int seconds, String cp) throws IOException {
    return start(
        n, List.of("sink", n.address(), Integer.toString(port), Integer.toString(seconds)), cp);
  }

  /**
   * Per-host program (see the class comment).
   *
   * @param args {@code sink <address> <port> <seconds>} or {@code source <seconds>
   *     <address:port>...}
   * @throws Exception on a socket error
   */
  public static void main(String[] args) throws Exception {
    if (args.length >= 4 && args[0].equals("sink")) {
      try (ServerSocket ss = new ServerSocket()) {
        ss.bind(new InetSocketAddress(args[1], Integer.parseInt(args[2])));
        ss.setSoTimeout(Integer.parseInt(args[3]) * 1000);
        while (true) {
          Socket s = ss.accept();
          Thread t =
              new Thread(
                  () -> {
                    byte[] buf = new byte[1 << 16];
                    try (InputStream in = s.getInputStream()) {
                      while (in.read(buf) >= 0) {
                        // discard
                      }
                    } catch (IOException ignored) {
                      // sender gone
                    }
                  });
          t.setDaemon(true);
          t.start();
        }
      } catch (java.net.SocketTimeoutException done) {
        return;
      }
    }
    if (args.length >= 3 && args[0].equals("source")) {
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.parseInt(args[1]));
      List<Thread> ts = new ArrayList<>();
      for (int i = 2; i < args.length; i++) {
        String[] hp = args[i].split(":");
        Thread t =
            new Thread(
                () -> {
                  byte[] buf = new byte[1 << 16];
                  try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]));
                      OutputStream out = s.getOutputStream()) {
                    synchronized (System.out) {
                      System.out.println(SENDING + " " + String.join(":", hp));
                      System.out.flush();
                    }
                    while (System.nanoTime() < end) {
                      out.write(buf);
                    }
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                });
        t.start();
        ts.add(t);
      }
      for (Thread t : ts) {
        t.join();
      }
      return;
    }
    System.err.println(
        "usage: FlowProbe sink <address> <port> <seconds> | source <seconds> <address:port>...");
    System.exit(2);
  }
}
