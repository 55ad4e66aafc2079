package io.wanshuffle.it.net;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures every link of the shaped testbed from outside Spark: each host's NIC up and down, each
 * rack's uplink and downlink, each site's backbone side out and in, by the byte counters of the
 * interface that carries it (read through {@link InterfaceCounters}: one sentinel per namespace,
 * every interface of the namespace in one read), and the drops of the tbf that shapes it ({@code tc
 * -s -j qdisc show}, at the start and the end of a recording).
 *
 * <p>{@link #record(long)} samples the counters in the background until {@link Recording#stop()}.
 */
public final class LinkMeter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<Probe> probes;

  /**
   * Where one link is read.
   *
   * @param link the link's name as docs/topology.md names it ({@code nic.up[10.77.1.11]}, {@code
   *     rack.uplink[/A/rack0]}, {@code backbone.out[/A]}, ...)
   * @param ns the namespace of the interface that carries it
   * @param dev that interface
   * @param transmit true when the link's bytes are the interface's transmitted bytes, false for its
   *     received bytes
   * @param rateBitsPerSecond the link's shaped rate, bits/s ({@link TestbedSpec#UNSHAPED} when not
   *     shaped)
   * @param qdiscNs namespace of the tbf that shapes it (null when not shaped)
   * @param qdiscDev interface of that tbf (null when not shaped)
   */
  public record Probe(
      String link,
      String ns,
      String dev,
      boolean transmit,
      long rateBitsPerSecond,
      String qdiscNs,
      String qdiscDev) {

    /**
     * @return the namespace of the interface the link's frames leave by: its tbf's, or for an
     *     unshaped link the interface that transmits it
     * @throws IllegalStateException for an unshaped link read on its receiving side (the testbed
     *     has none)
     */
    public String egressNamespace() {
      return qdiscNs != null ? qdiscNs : transmitter().ns();
    }

    /**
     * @return the interface the link's frames leave by (see {@link #egressNamespace()})
     * @throws IllegalStateException as {@link #egressNamespace()}
     */
    public String egressDevice() {
      return qdiscDev != null ? qdiscDev : transmitter().dev();
    }

    private Probe transmitter() {
      if (!transmit) {
        throw new IllegalStateException(
            "link " + link + " is neither shaped nor read where it is transmitted");
      }
      return this;
    }
  }

  /**
   * @param probes the links and where to read them
   */
  LinkMeter(List<Probe> probes) {
    this.probes = List.copyOf(probes);
  }

  /**
   * @return the measured links, in order
   */
  public List<Probe> probes() {
    return probes;
  }

  /**
   * Starts sampling every link's byte counter every {@code intervalMillis} in a daemon thread.
   *
   * @param intervalMillis sampling period, ms (at least 20)
   * @return the running recording
   * @throws IllegalArgumentException if the period is below 20 ms
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
   * @return per tbf (namespace, interface joined by a space), packets it dropped since it was
   *     created
   */
  private Map<String, Long> tbfDrops() {
    Map<String, Long> drops = new HashMap<>();
    for (String ns :
        probes.stream().map(Probe::qdiscNs).filter(x -> x != null).distinct().toList()) {
      String out = Exec.check("tc", "-n", ns, "-s", "-j", "qdisc", "show");
      JsonNode qs;
      try {
        qs = JSON.readTree(out);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(
            "unexpected output of tc qdisc show in " + ns + ": " + out, e);
      }
      for (JsonNode q : qs) {
        if ("tbf".equals(q.path("kind").asText())) {
          drops.put(ns + " " + q.path("dev").asText(), q.path("drops").asLong());
        }
      }
    }
    return drops;
  }

  /** A background sampling of every link's counter, with the tbf drops at its start and end. */
  public final class Recording {
    private final Map<String, InterfaceCounters> counters = new LinkedHashMap<>();
    private final Map<String, List<Probe>> byNamespace = new LinkedHashMap<>();
    private final Map<String, List<long[]>> samples = new LinkedHashMap<>();
    private final Map<String, Long> dropsAtStart;
    private final Thread thread;
    private volatile boolean running = true;

    private Recording(long intervalMillis) {
      for (Probe p : probes) {
        byNamespace.computeIfAbsent(p.ns(), x -> new ArrayList<>()).add(p);
        samples.put(p.link(), new ArrayList<>());
      }
      try {
        byNamespace.forEach(
            (ns, ps) ->
                counters.put(ns, InterfaceCounters.open(ns, ps.stream().map(Probe::dev).toList())));
        dropsAtStart = tbfDrops();
        sampleOnce();
      } catch (RuntimeException e) {
        counters.values().forEach(InterfaceCounters::close);
        throw e;
      }
      thread =
          new Thread(
              () -> {
                while (running) {
                  try {
                    Thread.sleep(intervalMillis);
                    sampleOnce();
                  } catch (InterruptedException e) {
                    return;
                  } catch (IllegalStateException e) {
                    // the testbed is being torn down: stop sampling
                    return;
                  }
                }
              },
              "link-meter");
      thread.setDaemon(true);
      thread.start();
    }

    private void sampleOnce() {
      for (Map.Entry<String, InterfaceCounters> e : counters.entrySet()) {
        InterfaceCounters.Readings r = e.getValue().sampleAll();
        List<Probe> ps = byNamespace.get(e.getKey());
        synchronized (samples) {
          for (int i = 0; i < ps.size(); i++) {
            Probe p = ps.get(i);
            long[] txRx = r.txRx()[i];
            samples
                .get(p.link())
                .add(new long[] {r.epochMillis(), p.transmit() ? txRx[0] : txRx[1]});
          }
        }
      }
    }

    /**
     * Stops sampling and takes the final counters.
     *
     * @return the trace of the recording
     * @throws IllegalStateException if the final counters cannot be read
     */
    public LinkTrace stop() {
      running = false;
      thread.interrupt();
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try {
        sampleOnce();
        Map<String, Long> dropsAtEnd = tbfDrops();
        Map<String, LinkTrace.Series> series = new LinkedHashMap<>();
        synchronized (samples) {
          for (Probe p : probes) {
            List<long[]> s = samples.get(p.link());
            long[] t = new long[s.size()];
            long[] b = new long[s.size()];
            for (int i = 0; i < t.length; i++) {
              t[i] = s.get(i)[0];
              b[i] = s.get(i)[1];
            }
            String q = p.qdiscNs() + " " + p.qdiscDev();
            long drops =
                p.qdiscNs() == null || !dropsAtStart.containsKey(q) || !dropsAtEnd.containsKey(q)
                    ? -1
                    : dropsAtEnd.get(q) - dropsAtStart.get(q);
            series.put(
                p.link(), new LinkTrace.Series(p.link(), p.rateBitsPerSecond(), t, b, drops));
          }
        }
        return new LinkTrace(series);
      } finally {
        counters.values().forEach(InterfaceCounters::close);
      }
    }
  }
}
