package io.wanshuffle.it.net;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Two clusters of hosts joined by a backbone, ready for Spark processes to be started on them: a
 * control host and the worker hosts of clusters A and B ({@link Node}; addresses as {@link Hosts}
 * gives them), and the topology table mapping each host to its cluster.
 *
 * <p>Two variants: {@link NamespaceTestbed} (one network namespace per host, tbf-shaped NICs and
 * backbone, optional WAN latency; needs root and iproute2) and {@link LoopbackTestbed} (loopback
 * addresses, nothing shaped; anywhere). {@link #open(TestbedSpec)} picks the variant from the
 * system property {@value #MODE_PROPERTY}: {@code netns} (the default) or {@code loopback}. The
 * shaped variant is never replaced silently: when it cannot be built, {@link
 * TestbedUnavailableException} says why and names the flag.
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
   * @return the worker hosts of cluster A (map side), in order a1, a2, ...
   */
  List<Node> clusterA();

  /**
   * @return the worker hosts of cluster B (reduce side), in order b1, b2, ...
   */
  List<Node> clusterB();

  /**
   * @return the meter of the backbone counters (shaped variant only)
   */
  Optional<BackboneMeter> backbone();

  /**
   * @return one line describing the testbed for reports
   */
  String describe();

  /** Tears the testbed down; safe to call twice. */
  @Override
  void close();

  /**
   * @return all worker hosts, cluster A then cluster B
   */
  default List<Node> workers() {
    List<Node> all = new ArrayList<>(clusterA());
    all.addAll(clusterB());
    return List.copyOf(all);
  }

  /**
   * Writes the topology table for Hadoop's {@code TableMapping}: one line {@code <address>
   * /<cluster>/rack0} per host, the control host (cluster A) first, then the workers.
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
