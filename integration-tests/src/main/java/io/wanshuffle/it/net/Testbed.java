package io.wanshuffle.it.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sites of hosts (clusters A, B and up to C and D, each of one or more racks) joined by a backbone,
 * ready for Spark processes to be started on them: a control host and the worker hosts of every
 * site ({@link Node}; addresses as {@link Hosts} gives them), the topology table mapping each host
 * to its site and rack, and the topology configuration of the links ({@link TopologyFile}). Site B
 * is the reduce side, every other site a map side ({@link TestbedSpec}).
 *
 * <p>Two variants: {@link NamespaceTestbed} (one network namespace per host, tbf-shaped NICs, rack
 * links and backbone sides, optional WAN latency; needs root and iproute2) and {@link
 * LoopbackTestbed} (loopback addresses, the same hosts and tables, nothing shaped; anywhere).
 * {@link #open(TestbedSpec)} picks the variant from the system property {@value #MODE_PROPERTY}:
 * {@code netns} (the default) or {@code loopback}. The shaped variant is never replaced silently:
 * when it cannot be built, {@link TestbedUnavailableException} says why and names the flag.
 *
 * <p>Closing tears everything down; a variant that builds anything registers its {@link Teardown},
 * so that an interrupt or a JVM exit tears down too.
 */
public interface Testbed extends AutoCloseable {

  /** System property choosing the variant: {@code netns} (default) or {@code loopback}. */
  String MODE_PROPERTY = "wanshuffle.testbed";

  /**
   * @return the spec this testbed was built from
   */
  TestbedSpec spec();

  /**
   * @return true when NICs and backbone are rate-limited (times are then comparable to the physical
   *     limit)
   */
  boolean shaped();

  /**
   * @return the control host (standalone Master and the driver); unshaped, in cluster A's switch
   */
  Node control();

  /**
   * @param site a site's index in site order (A is 0)
   * @return its worker hosts, in order (a1, a2, ... for A)
   */
  List<Node> hostsOf(int site);

  /**
   * @return the worker hosts of cluster A (a map side), in order a1, a2, ...
   */
  default List<Node> clusterA() {
    return hostsOf(0);
  }

  /**
   * @return the worker hosts of cluster B (the reduce side), in order b1, b2, ...
   */
  default List<Node> clusterB() {
    return hostsOf(TestbedSpec.REDUCE_SITE);
  }

  /**
   * @return the hosts map tasks run on: every site's but B's, in site order (A's, then C's, D's)
   */
  default List<Node> mapSide() {
    List<Node> out = new ArrayList<>();
    for (int s = 0; s < spec().sites(); s++) {
      if (s != TestbedSpec.REDUCE_SITE) {
        out.addAll(hostsOf(s));
      }
    }
    return List.copyOf(out);
  }

  /**
   * @return the hosts reduce tasks run on: site B's
   */
  default List<Node> reduceSide() {
    return clusterB();
  }

  /**
   * @return the meter of the backbone counters into site B (shaped variant only)
   */
  Optional<BackboneMeter> backbone();

  /**
   * @return the meter of every link's counters (shaped variant only)
   */
  Optional<LinkMeter> links();

  /**
   * @return one line describing the testbed for reports
   */
  String describe();

  /** Tears the testbed down; safe to call twice. */
  @Override
  void close();

  /**
   * @return all worker hosts in site order: A's, B's, then C's and D's
   */
  default List<Node> workers() {
    List<Node> all = new ArrayList<>();
    for (int s = 0; s < spec().sites(); s++) {
      all.addAll(hostsOf(s));
    }
    return List.copyOf(all);
  }

  /**
   * Writes the topology configuration of the testbed's links ({@link TopologyFile}), naming a
   * mapping table {@code tableName} beside it.
   *
   * @param file where to write
   * @param tableName the table's path relative to {@code file} (see {@link #writeTopologyTable})
   * @return {@code file}
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  default Path writeTopologyConfig(Path file, String tableName) {
    return TopologyFile.write(spec(), file, tableName);
  }

  /**
   * Writes the topology table for Hadoop's {@code TableMapping}: one line {@code <address>
   * /<site>/rack<N>} per host, the control host (site A, rack 0) first, then the workers.
   *
   * @param file where to write
   * @return {@code file}
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  default Path writeTopologyTable(Path file) {
    StringBuilder sb = new StringBuilder();
    sb.append(control().address()).append(' ').append(control().networkPath()).append('\n');
    for (Node n : workers()) {
      sb.append(n.address()).append(' ').append(n.networkPath()).append('\n');
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, sb.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot write topology table " + file, e);
    }
    return file;
  }

  /**
   * Builds the testbed variant chosen by {@value #MODE_PROPERTY}.
   *
   * @param spec sizes and rates
   * @return the running testbed
   * @throws TestbedUnavailableException when the shaped variant is asked for (the default) but
   *     cannot be built
   * @throws IllegalArgumentException when the property has an unknown value
   */
  static Testbed open(TestbedSpec spec) {
    String mode =
        System.getProperty(MODE_PROPERTY, "netns").trim().toLowerCase(java.util.Locale.ROOT);
    switch (mode) {
      case "netns":
        return NamespaceTestbed.start(spec);
      case "loopback":
        return LoopbackTestbed.start(spec);
      default:
        throw new IllegalArgumentException(
            "-D"
                + MODE_PROPERTY
                + "="
                + mode
                + ": unknown testbed variant (use netns or loopback)");
    }
  }

  /**
   * @return true when {@value #MODE_PROPERTY} asks for the loopback variant
   */
  static boolean loopbackRequested() {
    return "loopback".equalsIgnoreCase(System.getProperty(MODE_PROPERTY, "netns").trim());
  }
}
