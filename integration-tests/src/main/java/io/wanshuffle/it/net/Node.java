package io.wanshuffle.it.net;

import java.util.List;

/**
 * One host of a {@link Testbed}: a worker host of cluster A or B, or the control host (standalone
 * Master and drivers). Spark reports {@link #address()} as the executor and block manager host, and
 * the topology table maps it to {@link #networkPath()}.
 *
 * @param name short name: {@code a1}, {@code a2}, ... in cluster A, {@code b1}, ... in cluster B,
 *     {@code ctl} for the control host; names log files and work folders
 * @param cluster {@code "A"} or {@code "B"}; the control host belongs to {@code "A"}
 * @param address IPv4 address the host's processes bind to
 * @param namespace network namespace the host's processes run in, or {@code null} on the loopback
 *     variant
 */
public record Node(String name, String cluster, String address, String namespace) {

  /**
   * @return the host's network path in the topology table, {@code /<cluster>/rack0}
   */
  public String networkPath() {
    return "/" + cluster + "/rack0";
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
