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
    List<Process> procs = new ArrayList<>();
    try {
      for (Node b : testbed.reduceSide()) {
        procs.add(startSink(b, PORT, seconds + 10, javaClassPath));
      }
      Thread.sleep(1500);
      BackboneMeter.Recording rec = meter.record(100);
      LinkMeter.Recording linkRec = links.record(100);
      List<Process> sources = new ArrayList<>();
      for (Node a : testbed.mapSide()) {
        List<String> args = new ArrayList<>(List.of("source", Integer.toString(seconds)));
        testbed.reduceSide().forEach(b -> args.add(b.address() + ":" + PORT));
        sources.add(start(a, args, javaClassPath));
      }
      for (Process p : sources) {
        output(p, seconds + 30L, "probe source");
      }
      LinkTrace linkTrace = linkRec.stop();
      return new Measured(rec.stop(), linkTrace);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run the probe: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("probe interrupted", e);
    } finally {
      procs.forEach(Process::destroy);
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
