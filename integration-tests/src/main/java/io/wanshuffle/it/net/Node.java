package io.wanshuffle.it.net;

import java.util.Optional;

/**
 * One host of the testbed.
 *
 * @param name short name ({@code a1}, {@code b2}, {@code ctl})
 * @param cluster {@code "A"} or {@code "B"}; the control node (Master + driver) belongs to {@code
 *     "A"}
 * @param address IPv4 address the node's processes bind to
 * @param namespace network namespace the node's processes run in, or {@code null} on the loopback
 *     variant
 */
public record Node(String name, String cluster, String address, String namespace) {

  /**
   * @return the namespace, empty on the loopback variant
   */
  public Optional<String> netns() {
    return Optional.ofNullable(namespace);
  }
}
