package io.wanshuffle.it.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Round-trip time between two hosts of the testbed, measured from outside Spark and from outside
 * the delay line: the time a TCP connect takes from one host to the other (SYN there, SYN-ACK back:
 * one round trip, no data queued behind it on an idle testbed). Checks that {@code --rtt} adds what
 * it says on the backbone, and nothing within a cluster.
 *
 * <p>{@code main} is the per-host program: {@code <address:port> <count>} connects {@code count}
 * times (after the sink is up: refused connections are retried for 10 s and not timed) and prints
 * each connect time in microseconds, one per line.
 */
public final class HandshakeProbe {
  private static final int PORT = 5302;

  private HandshakeProbe() {}

  /**
   * Measures TCP handshake times from one host to another.
   *
   * @param from host that connects
   * @param to host that accepts (a {@link FlowProbe} sink is started on it for the measurement)
   * @param count connects to time, &ge; 1
   * @param javaClassPath class path holding this class
   * @return the handshake times in milliseconds, in the order measured ({@code count} values)
   * @throws IllegalArgumentException if {@code count < 1}
   * @throws IllegalStateException if a probe process fails or times out
   */
  public static double[] millis(Node from, Node to, int count, String javaClassPath) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be >= 1, got " + count);
    }
    Process sink = null;
    try {
      sink = FlowProbe.startSink(to, PORT, 20, javaClassPath);
      Process p =
          FlowProbe.start(
              from,
              HandshakeProbe.class,
              List.of(to.address() + ":" + PORT, Integer.toString(count)),
              javaClassPath);
      String out = FlowProbe.output(p, 60, "handshake probe " + from.name() + " -> " + to.name());
      double[] ms =
          out.lines()
              .map(String::strip)
              .filter(l -> l.matches("\\d+"))
              .mapToDouble(l -> Long.parseLong(l) / 1000.0)
              .toArray();
      if (ms.length != count) {
        throw new IllegalStateException(
            "handshake probe printed "
                + ms.length
                + " times, expected "
                + count
                + ": "
                + out.strip());
      }
      return ms;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run the handshake probe: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("handshake probe interrupted", e);
    } finally {
      if (sink != null) {
        stop(sink);
      }
    }
  }

  /**
   * Stops the sink and waits for it to end (at most 5 s, then kills it), so that the next probe's
   * sink on the same host finds its port free.
   */
  private static void stop(Process sink) {
    sink.destroy();
    try {
      if (!sink.waitFor(5, TimeUnit.SECONDS)) {
        sink.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      sink.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * @param ms measured times (not modified)
   * @return their median (the mean of the middle two for an even count)
   * @throws IllegalArgumentException if {@code ms} is empty
   */
  public static double median(double[] ms) {
    if (ms.length == 0) {
      throw new IllegalArgumentException("no times");
    }
    double[] s = ms.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /**
   * Per-host program (see the class comment).
   *
   * @param args {@code <address:port> <count>}
   * @throws Exception if the sink refuses connections for 10 s, or on another socket error
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2 || args[0].lastIndexOf(':') < 0) {
      System.err.println("usage: HandshakeProbe <address:port> <count>");
      System.exit(2);
    }
    int colon = args[0].lastIndexOf(':');
    InetSocketAddress to =
        new InetSocketAddress(
            args[0].substring(0, colon), Integer.parseInt(args[0].substring(colon + 1)));
    int count = Integer.parseInt(args[1]);
    long upBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) { // wait for the sink, untimed
      try (Socket s = new Socket()) {
        s.connect(to, 5000);
        break;
      } catch (ConnectException refused) {
        if (System.nanoTime() > upBy) {
          throw refused;
        }
        Thread.sleep(100);
      }
    }
    List<Long> micros = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Thread.sleep(50); // let the previous connection's teardown pass
      try (Socket s = new Socket()) {
        long t0 = System.nanoTime();
        s.connect(to, 5000);
        micros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0));
      }
    }
    micros.forEach(System.out::println);
  }
}
