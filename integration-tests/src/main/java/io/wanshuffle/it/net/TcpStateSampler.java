package io.wanshuffle.it.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Samples the kernel's state of every TCP connection from a map-side host (cluster A, and C and D
 * when there are more sites) to a host of cluster B ({@code ss -tinHO}, iproute2) in the
 * background: congestion window, RTT, send queue, bytes acknowledged, retransmissions. One shell
 * loop per map-side host runs {@code ss} every interval in that host's namespace; each round is
 * stamped when its output is read here.
 *
 * <p>This is the senders' view of the backbone's TCP flows, outside Spark: it shows, for instance,
 * a flow whose congestion control held it back while the schedule expected it at the NIC rate
 * ({@link TcpTrace#stalls}).
 */
public final class TcpStateSampler {
  private static final String ROUND_MARK = "@round";

  private TcpStateSampler() {}

  /**
   * Starts sampling.
   *
   * @param testbed the shaped testbed (one network namespace per host)
   * @param intervalMillis time between rounds, ms (at least 50)
   * @return the running recording; {@link Recording#stop()} ends it
   * @throws IllegalArgumentException if the interval is below 50 ms or the testbed is not shaped
   *     (on the loopback variant every host shares one namespace and nothing crosses a backbone)
   * @throws IllegalStateException if a sampling process cannot be started
   */
  public static Recording record(Testbed testbed, long intervalMillis) {
    if (intervalMillis < 50) {
      throw new IllegalArgumentException(
          "TCP sampling interval must be at least 50 ms, got " + intervalMillis);
    }
    if (!testbed.shaped()) {
      throw new IllegalArgumentException("TCP state sampling needs the network-namespace testbed");
    }
    return new Recording(testbed, intervalMillis);
  }

  /** A background sampling; {@link #stop()} ends it and returns what was seen. */
  public static final class Recording {
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final List<TcpSample> samples = new ArrayList<>();
    private final Map<String, Long> firstRounds = new HashMap<>();

    private Recording(Testbed testbed, long intervalMillis) {
      Set<String> bAddresses =
          testbed.reduceSide().stream().map(Node::address).collect(Collectors.toSet());
      String loop =
          String.format(
              java.util.Locale.ROOT,
              "while :; do echo %s; ss -tinHO state established; sleep %.3f; done",
              ROUND_MARK,
              intervalMillis / 1000.0);
      try {
        for (Node host : testbed.mapSide()) {
          List<String> cmd = new ArrayList<>(host.launchPrefix());
          cmd.addAll(List.of("sh", "-c", loop));
          Process p =
              new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
          processes.add(p);
          Thread t =
              new Thread(() -> read(p, host.name(), bAddresses), "tcp-sampler-" + host.name());
          t.setDaemon(true);
          t.start();
          readers.add(t);
        }
      } catch (IOException e) {
        stop();
        throw new IllegalStateException(
            "cannot start the TCP state sampler (ss, iproute2): " + e.getMessage(), e);
      }
    }

    private void read(Process p, String host, Set<String> bAddresses) {
      long round = System.currentTimeMillis();
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.equals(ROUND_MARK)) {
            round = System.currentTimeMillis();
            synchronized (samples) {
              firstRounds.putIfAbsent(host, round);
            }
            continue;
          }
          TcpSample.parse(round, host, line)
              .filter(s -> bAddresses.contains(s.peerAddress()))
              .ifPresent(
                  s -> {
                    synchronized (samples) {
                      samples.add(s);
                    }
                  });
        }
      } catch (IOException e) {
        // the process was stopped
      }
    }

    /**
     * Stops the sampling processes.
     *
     * @return every sample taken
     */
    public TcpTrace stop() {
      processes.forEach(Process::destroy);
      for (Thread t : readers) {
        try {
          t.join(2_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      processes.forEach(Process::destroyForcibly);
      synchronized (samples) {
        return new TcpTrace(samples, firstRounds);
      }
    }
  }
}
