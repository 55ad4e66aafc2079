package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;

/**
 * The hosts of a testbed and their addresses, one scheme for both variants: in a /16 network {@code
 * N}, the control host is {@code N.0.2}, host i of cluster A (counting from 1) is {@code
 * N.1.(10+i)} and host i of cluster B is {@code N.2.(10+i)}. The loopback variant uses {@code
 * 127.0} (every 127/8 address is loopback on Linux), the namespace variant {@code 10.77}.
 *
 * @param control the control host, in cluster A
 * @param clusterA the worker hosts of cluster A, a1 first
 * @param clusterB the worker hosts of cluster B, b1 first
 */
record Hosts(Node control, List<Node> clusterA, List<Node> clusterB) {

  /** Copies the lists. */
  Hosts {
    clusterA = List.copyOf(clusterA);
    clusterB = List.copyOf(clusterB);
  }

  /**
   * @param spec host counts
   * @param network the first two octets of the addresses, e.g. {@code 127.0}
   * @param namespacePrefix prefix of each host's network namespace name (the host's name follows),
   *     or {@code null} when the hosts share the machine's namespace
   * @return the hosts of a testbed of {@code spec}
   */
  static Hosts of(TestbedSpec spec, String network, String namespacePrefix) {
    return new Hosts(
        node("ctl", "A", network + ".0.2", namespacePrefix),
        cluster("a", "A", network + ".1.", spec.nodesA(), namespacePrefix),
        cluster("b", "B", network + ".2.", spec.nodesB(), namespacePrefix));
  }

  private static List<Node> cluster(
      String prefix, String cluster, String subnet, int n, String namespacePrefix) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      nodes.add(node(prefix + i, cluster, subnet + (10 + i), namespacePrefix));
    }
    return nodes;
  }

  private static Node node(String name, String cluster, String address, String namespacePrefix) {
    return new Node(
        name, cluster, address, namespacePrefix == null ? null : namespacePrefix + name);
  }
}
