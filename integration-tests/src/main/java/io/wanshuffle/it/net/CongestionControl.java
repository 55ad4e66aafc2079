package io.wanshuffle.it.net;

import java.util.List;

/**
 * The TCP congestion control of the testbed's hosts, set in each host's namespace ({@code
 * net.ipv4.tcp_congestion_control} is per namespace since Linux 4.15; a new namespace otherwise
 * inherits the machine's default, which differs between machines).
 */
final class CongestionControl {
  private CongestionControl() {}

  /**
   * Makes {@code cc} selectable inside the hosts' namespaces: loads its module if the kernel does
   * not list it yet, and adds it to {@code net.ipv4.tcp_allowed_congestion_control} (a namespace
   * other than the machine's own may only select an allowed algorithm) when it is missing there;
   * says so on standard output, since that list belongs to the machine.
   *
   * @param cc algorithm name, e.g. {@code bbr}
   */
  static void allow(String cc) {
    if (!kernelList("net.ipv4.tcp_available_congestion_control").contains(cc)) {
      Exec.quiet("modprobe", "tcp_" + cc);
    }
    List<String> allowed = kernelList("net.ipv4.tcp_allowed_congestion_control");
    String was = String.join(" ", allowed);
    if (!allowed.isEmpty()
        && !allowed.contains(cc)
        && Exec.quiet(
            "sysctl", "-qw", "net.ipv4.tcp_allowed_congestion_control=" + was + " " + cc)) {
      System.out.println(
          "testbed: added "
              + cc
              + " to net.ipv4.tcp_allowed_congestion_control (was: "
              + was
              + "), so that the hosts' namespaces may use it");
    }
  }

  /**
   * Sets the TCP congestion control of one namespace.
   *
   * @param ns the namespace
   * @param cc algorithm name
   * @throws IllegalStateException naming the algorithm and the ones this kernel has when it is not
   *     available
   */
  static void set(String ns, String cc) {
    String current =
        Exec.quietOutput(
            "ip", "netns", "exec", ns, "sysctl", "-n", "net.ipv4.tcp_congestion_control");
    if (current != null && current.strip().equals(cc)) {
      return;
    }
    try {
      Exec.check(
          "ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.tcp_congestion_control=" + cc);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "TCP congestion control '"
              + cc
              + "' cannot be set on this kernel"
              + " (available: "
              + String.join(" ", kernelList("net.ipv4.tcp_available_congestion_control"))
              + "; choose one with --tcp-cc): "
              + e.getMessage(),
          e);
    }
  }

  /**
   * @return the words of a machine sysctl holding a list (empty when it cannot be read)
   */
  private static List<String> kernelList(String key) {
    String v = Exec.quietOutput("sysctl", "-n", key);
    return v == null || v.isBlank() ? List.of() : List.of(v.strip().split("\\s+"));
  }
}
