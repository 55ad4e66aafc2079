package io.wanshuffle.it.net;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the backbone from outside Spark: the byte counters of one backbone interface (with two
 * sites, A to B is the transmit side of {@code bbA}; with more, the map sites to B is the receive
 * side of B's side {@code bbB}), the statistics of the tbf qdisc that shapes that direction (bytes
 * sent, drops, overlimits), and TCP segment and retransmission counters ({@code nstat}) summed over
 * the map sites' hosts' namespaces and over site B's. "A to B" below means from the map sites to
 * the reduce site B, "B to A" the other way.
 *
 * <p>{@link #record(long)} samples the byte counters in the background until {@link
 * Recording#stop()}, with a snapshot of every counter at both ends.
 */
public final class BackboneMeter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final String ns;
  private final String dev;
  private final boolean receiveIsAToB;
  private final String qdiscNs;
  private final String qdiscDev;
  private final List<String> aNamespaces;
  private final List<String> bNamespaces;
  private final long rateBitsPerSecond;

  /**
   * A meter of the transmit side of {@code dev} as A to B, with the tbf on {@code dev}.
   *
   * @param ns namespace of the backbone interface
   * @param dev the interface
   * @param aNamespaces namespaces of the hosts sending A to B
   * @param bNamespaces namespaces of the hosts of B
   * @param rateBitsPerSecond the backbone's rate A to B, bits/s
   */
  BackboneMeter(
      String ns,
      String dev,
      List<String> aNamespaces,
      List<String> bNamespaces,
      long rateBitsPerSecond) {
    this(ns, dev, false, ns, dev, aNamespaces, bNamespaces, rateBitsPerSecond);
  }

  /**
   * @param ns namespace of the backbone interface
   * @param dev the interface
   * @param receiveIsAToB true when A to B is the interface's receive side
   * @param qdiscNs namespace of the tbf that shapes A to B
   * @param qdiscDev interface of that tbf
   * @param aNamespaces namespaces of the hosts sending A to B
   * @param bNamespaces namespaces of the hosts of B
   * @param rateBitsPerSecond the backbone's rate A to B, bits/s
   */
  BackboneMeter(
      String ns,
      String dev,
      boolean receiveIsAToB,
      String qdiscNs,
      String qdiscDev,
      List<String> aNamespaces,
      List<String> bNamespaces,
      long rateBitsPerSecond) {
    this.ns = ns;
    this.dev = dev;
    this.receiveIsAToB = receiveIsAToB;
    this.qdiscNs = qdiscNs;
    this.qdiscDev = qdiscDev;
    this.aNamespaces = List.copyOf(aNamespaces);
    this.bNamespaces = List.copyOf(bNamespaces);
    this.rateBitsPerSecond = rateBitsPerSecond;
  }

  /**
   * One reading of all counters.
   *
   * @param nanos {@link System#nanoTime()} of the reading
   * @param epochMillis wall-clock time of the reading, ms since the epoch
   * @param aToBBytes bytes sent from cluster A to cluster B over the backbone since it was created
   * @param bToABytes bytes sent from cluster B to cluster A
   * @param tbfDrops packets the backbone's A-to-B tbf dropped
   * @param tbfOverlimits times the A-to-B tbf had to hold a packet back (the backbone was
   *     saturated)
   * @param tcpOutSegs TCP segments sent by the cluster A hosts (nstat TcpOutSegs)
   * @param tcpRetransSegs TCP segments retransmitted by the cluster A hosts (nstat TcpRetransSegs)
   * @param bTcpOutSegs TCP segments sent by the cluster B hosts
   * @param bTcpRetransSegs TCP segments retransmitted by the cluster B hosts
   */
  public record Counters(
      long nanos,
      long epochMillis,
      long aToBBytes,
      long bToABytes,
      long tbfDrops,
      long tbfOverlimits,
      long tcpOutSegs,
      long tcpRetransSegs,
      long bTcpOutSegs,
      long bTcpRetransSegs) {}

  /**
   * @return the backbone rate, bits/s
   */
  public long rateBitsPerSecond() {
    return rateBitsPerSecond;
  }

  /**
   * Reads the link bytes through {@code link}, then the tbf and TCP counters (one {@code tc} and
   * one {@code nstat} per host).
   *
   * @throws IllegalStateException if a command fails or prints unexpected output
   */
  private Counters read(InterfaceCounters link) {
    long t = System.nanoTime();
    InterfaceCounters.Reading r = oriented(link.sample());
    JsonNode q = qdisc();
    long[] a = tcpSegments(aNamespaces);
    long[] b = tcpSegments(bNamespaces);
    return new Counters(
        t,
        r.epochMillis(),
        r.txBytes(),
        r.rxBytes(),
        q.path("drops").asLong(),
        q.path("overlimits").asLong(),
        a[0],
        a[1],
        b[0],
        b[1]);
  }

  /**
   * @return {segments sent, segments retransmitted} summed over the namespaces ({@code nstat})
   */
  private static long[] tcpSegments(List<String> namespaces) {
    long[] sum = new long[2];
    for (String s : namespaces) {
      JsonNode k =
          parse(
                  Exec.check(
                      "ip",
                      "netns",
                      "exec",
                      s,
                      "nstat",
                      "-asz",
                      "-j",
                      "TcpOutSegs",
                      "TcpRetransSegs"),
                  "nstat in " + s)
              .path("kernel");
      sum[0] += k.path("TcpOutSegs").asLong();
      sum[1] += k.path("TcpRetransSegs").asLong();
    }
    return sum;
  }

  /**
   * @return the reading with A to B as its transmitted bytes
   */
  private InterfaceCounters.Reading oriented(InterfaceCounters.Reading r) {
    return receiveIsAToB
        ? new InterfaceCounters.Reading(r.epochMillis(), r.rxBytes(), r.txBytes())
        : r;
  }

  private JsonNode qdisc() {
    JsonNode qs =
        parse(
            Exec.check("tc", "-n", qdiscNs, "-s", "-j", "qdisc", "show", "dev", qdiscDev),
            "tc qdisc " + qdiscDev);
    for (JsonNode q : qs) {
      if ("tbf".equals(q.path("kind").asText())) {
        return q;
      }
    }
    throw new IllegalStateException(
        "no tbf qdisc on the backbone " + qdiscDev + " in " + qdiscNs + ": " + qs);
  }

  private static JsonNode parse(String text, String what) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("unexpected output of " + what + ": " + text, e);
    }
  }

  /**
   * Starts sampling the backbone byte counters every {@code intervalMillis} in a daemon thread. The
   * samples read the counters through {@link InterfaceCounters} (no process per sample), so that
   * each sample's time is the moment its counters were read.
   *
   * @param intervalMillis sampling period, ms (at least 20)
   * @return the running recording
   * @throws IllegalStateException if the counters cannot be read
   */
  public Recording record(long intervalMillis) {
    if (intervalMillis < 20) {
      throw new IllegalArgumentException(
          "sampling interval must be at least 20 ms, got " + intervalMillis);
    }
    return new Recording(intervalMillis);
  }

  /**
   * A background sampling of the backbone byte counters, with full counters at its start and end.
   */
  public final class Recording {
    private final InterfaceCounters link;
    private final Counters start;
    private final List<BackboneTrace.Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private Recording(long intervalMillis) {
      this.link = InterfaceCounters.open(ns, dev);
      try {
        this.start = read(link);
      } catch (RuntimeException e) {
        link.close();
        throw e;
      }
      samples.add(
          new BackboneTrace.Sample(start.epochMillis(), start.aToBBytes(), start.bToABytes()));
      thread =
          new Thread(
              () -> {
                while (running) {
                  try {
                    Thread.sleep(intervalMillis);
                    InterfaceCounters.Reading r = oriented(link.sample());
                    synchronized (samples) {
                      samples.add(
                          new BackboneTrace.Sample(r.epochMillis(), r.txBytes(), r.rxBytes()));
                    }
                  } catch (InterruptedException e) {
                    return;
                  } catch (IllegalStateException e) {
                    // the testbed is being torn down: stop sampling
                    return;
                  }
                }
              },
              "backbone-meter");
      thread.setDaemon(true);
      thread.start();
    }

    /**
     * Stops sampling and takes the final counters.
     *
     * @return the trace of the recording
     * @throws IllegalStateException if the final counters cannot be read
     */
    public BackboneTrace stop() {
      running = false;
      thread.interrupt();
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try {
        Counters end = read(link);
        synchronized (samples) {
          samples.add(
              new BackboneTrace.Sample(end.epochMillis(), end.aToBBytes(), end.bToABytes()));
          return new BackboneTrace(start, end, samples, rateBitsPerSecond);
        }
      } finally {
        link.close();
      }
    }
  }
}
