package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hosts of a testbed and their addresses, one scheme for both variants: in a /16 network {@code
 * N}, the control host is {@code N.0.2} and host i of the s-th site (both counting from 1: A is 1,
 * B 2, C 3, D 4) is {@code N.s.(10+i)}. The loopback variant uses {@code 127.0} (every 127/8
 * address is loopback on Linux), the namespace variant {@code 10.77}. Hosts fill their site's racks
 * in order ({@link TestbedSpec#rackOf}).
 *
 * @param control the control host, in site A, rack 0
 * @param sites the worker hosts of each site in site order (A, B, ...), the first host first
 */
record Hosts(Node control, List<List<Node>> sites) {

  /** Copies the lists. */
  Hosts {
    sites = sites.stream().map(List::copyOf).toList();
  }

  /**
   * @param spec host counts and racks
   * @param network the first two octets of the addresses, e.g. {@code 127.0}
   * @param namespacePrefix prefix of each host's network namespace name (the host's name follows),
   *     or {@code null} when the hosts share the machine's namespace
   * @return the hosts of a testbed of {@code spec}
   */
  static Hosts of(TestbedSpec spec, String network, String namespacePrefix) {
    List<List<Node>> sites = new ArrayList<>();
    for (int s = 0; s < spec.sites(); s++) {
      String site = TestbedSpec.siteName(s);
      List<Node> nodes = new ArrayList<>();
      for (int i = 1; i <= spec.hostsPerSite().get(s); i++) {
        nodes.add(
            node(
                site.toLowerCase(Locale.ROOT) + i,
                site,
                spec.rackOf(s, i - 1),
                network + "." + (s + 1) + "." + (10 + i),
                namespacePrefix));
      }
      sites.add(nodes);
    }
    return new Hosts(node("ctl", "A", 0, network + ".0.2", namespacePrefix), sites);
  }

  /**
   * @return the worker hosts of site A
   */
  List<Node> clusterA() {
    return sites.get(0);
  }

  /**
   * @return the worker hosts of site B
   */
  List<Node> clusterB() {
    return sites.get(1);
  }

  private static Node node(
      String name, String cluster, int rack, String address, String namespacePrefix) {
    return new Node(
        name, cluster, rack, address, namespacePrefix == null ? null : namespacePrefix + name);
  }
}
