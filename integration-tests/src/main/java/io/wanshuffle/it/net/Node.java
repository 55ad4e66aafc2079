package io.wanshuffle.it.net;

import java.util.List;

/**
 * One host of a {@link Testbed}: a worker host of a site, or the control host (standalone Master
 * and drivers). Spark reports {@link #address()} as the executor and block manager host, and the
 * topology table maps it to {@link #networkPath()}.
 *
 * @param name short name: {@code a1}, {@code a2}, ... in site A, {@code b1}, ... in site B, {@code
 *     c1}, {@code d1}, ... in sites C and D, {@code ctl} for the control host; names log files and
 *     work folders
 * @param cluster the site: {@code "A"} .. {@code "D"}; the control host belongs to {@code "A"}
 * @param rack the host's rack within its site, from 0 (the control host: 0)
 * @param address IPv4 address the host's processes bind to
 * @param namespace network namespace the host's processes run in, or {@code null} on the loopback
 *     variant
 */
public record Node(String name, String cluster, int rack, String address, String namespace) {

  /**
   * A host of rack 0.
   *
   * @param name see the record
   * @param cluster see the record
   * @param address see the record
   * @param namespace see the record
   */
  public Node(String name, String cluster, String address, String namespace) {
    this(name, cluster, 0, address, namespace);
  }

  /**
   * @return the host's network path in the topology table, {@code /<cluster>/rack<rack>}
   */
  public String networkPath() {
    return "/" + cluster + "/rack" + rack;
  }

  /**
   * @return the command prefix that runs a program on this host: {@code ip netns exec <namespace>},
   *     or empty on the loopback variant
   */
  public List<String> launchPrefix() {
    return namespace == null ? List.of() : List.of("ip", "netns", "exec", namespace);
  }

  /**
   * @param nodes hosts
   * @return their addresses, in the same order
   */
  public static List<String> addresses(List<Node> nodes) {
    return nodes.stream().map(Node::address).toList();
  }
}
