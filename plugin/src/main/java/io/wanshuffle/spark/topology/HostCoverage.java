package io.wanshuffle.spark.topology;

import io.wanshuffle.spark.config.Settings;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Which executor hosts the topology maps: the driver's record, as executors register, of each
 * host's network path or of its absence. A host the topology does not map is same-cluster with
 * every host, so its shuffle blocks are never gated ({@link ClusterTopology}); this record is what
 * the driver logs about such hosts, once, and what the WAN Shuffle tab lists.
 *
 * <p>Thread-safe.
 */
public final class HostCoverage {
  /**
   * One executor host as first seen.
   *
   * @param host the host, as its block manager reports it
   * @param path its network path, empty when the topology does not map it
   * @param first true the first time the host is seen
   */
  public record Sighting(String host, Optional<String> path, boolean first) {
    /**
     * @return true when the topology maps the host
     */
    public boolean mapped() {
      return path.isPresent();
    }
  }

  private final Function<String, Optional<String>> pathOf;
  private final String source;

  /** Host to path ("" when unmapped), sorted by host. */
  private final TreeMap<String, String> seen = new TreeMap<>();

  /**
   * @param pathOf a host's network path, empty when the topology does not map it
   * @param source where the topology comes from, for messages (e.g. {@code topology table t})
   */
  public HostCoverage(Function<String, Optional<String>> pathOf, String source) {
    this.pathOf = pathOf;
    this.source = source;
  }

  /**
   * @param topology the topology
   * @return a record of the hosts {@code topology} maps
   */
  public static HostCoverage of(ClusterTopology topology) {
    return new HostCoverage(topology::pathOf, topology.source());
  }

  /**
   * Records an executor host.
   *
   * @param host the host, as its block manager reports it
   * @return its path, and whether it was seen for the first time
   */
  public synchronized Sighting see(String host) {
    String known = seen.get(host);
    if (known != null) {
      return new Sighting(host, known.isEmpty() ? Optional.empty() : Optional.of(known), false);
    }
    Optional<String> path = pathOf.apply(host);
    seen.put(host, path.orElse(""));
    return new Sighting(host, path, true);
  }

  /**
   * @return the hosts seen that the topology maps, sorted
   */
  public synchronized Set<String> mapped() {
    Set<String> out = new TreeSet<>();
    seen.forEach(
        (h, p) -> {
          if (!p.isEmpty()) {
            out.add(h);
          }
        });
    return out;
  }

  /**
   * @return the hosts seen that the topology does not map, sorted
   */
  public synchronized Set<String> unmapped() {
    Set<String> out = new TreeSet<>(seen.keySet());
    out.removeAll(mapped());
    return out;
  }

  /**
   * @return one line: how many of the executor hosts seen the topology maps, naming the others,
   *     e.g. {@code the topology (topology table t) maps 2 of 3 executor hosts; not mapped: h9 (its
   *     shuffle blocks are fetched at once, never gated)}
   */
  public synchronized String summary() {
    Set<String> unmapped = unmapped();
    String counted =
        "the topology ("
            + source
            + ") maps "
            + (unmapped.isEmpty()
                ? "all " + seen.size()
                : (seen.size() - unmapped.size()) + " of " + seen.size())
            + " executor host"
            + (seen.size() == 1 ? "" : "s");
    if (unmapped.isEmpty()) {
      return counted;
    }
    return counted
        + "; not mapped: "
        + String.join(", ", unmapped)
        + (unmapped.size() == 1 ? " (its" : " (their")
        + " shuffle blocks are fetched at once, never gated)";
  }

  /**
   * @param host an executor host the topology does not map
   * @param executorId the executor on it
   * @return the warning about it: it is named, with what follows for its blocks
   */
  public String unmappedWarning(String host, String executorId) {
    return notInTopology(host, executorId)
        + ": its shuffle blocks are fetched at once, never gated; map it in the topology, or set "
        + Settings.TOPOLOGY_STRICT.key()
        + "=true to stop the application instead";
  }

  /**
   * @param host an executor host the topology does not map
   * @param executorId the executor on it
   * @return why a strict application stops: the host is named, with the ways out
   */
  public String strictError(String host, String executorId) {
    return notInTopology(host, executorId)
        + " and "
        + Settings.TOPOLOGY_STRICT.key()
        + " is true: stopping the application; map the host in the topology, or set "
        + Settings.TOPOLOGY_STRICT.key()
        + "=false to fetch its shuffle blocks ungated";
  }

  private String notInTopology(String host, String executorId) {
    return "executor host "
        + host
        + " (executor "
        + executorId
        + ") is not in the topology ("
        + source
        + ")";
  }
}
