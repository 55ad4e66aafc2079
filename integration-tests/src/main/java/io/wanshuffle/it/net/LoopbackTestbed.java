package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The unshaped variant: every host is a loopback alias (control 127.0.1.2, cluster A 127.0.1.11..,
 * cluster B 127.0.2.11..). Linux answers on all of 127.0.0.0/8 without configuration, so nothing is
 * created and nothing needs root. Nothing is rate-limited: shuffle times are not comparable to a
 * WAN; results still are.
 */
public final class LoopbackTestbed implements Testbed {
  private final TestbedSpec spec;
  private final Node control;
  private final List<Node> a;
  private final List<Node> b;

  private LoopbackTestbed(TestbedSpec spec) {
    this.spec = spec;
    this.control = new Node("ctl", "A", "127.0.1.2", null);
    this.a = nodes("a", "A", 1, spec.nodesA());
    this.b = nodes("b", "B", 2, spec.nodesB());
  }

  /**
   * @param spec sizes (rates and latency are ignored: nothing is shaped)
   * @return the loopback testbed
   */
  public static LoopbackTestbed start(TestbedSpec spec) {
    return new LoopbackTestbed(spec);
  }

  private static List<Node> nodes(String prefix, String cluster, int octet, int n) {
    List<Node> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(new Node(prefix + (i + 1), cluster, "127.0." + octet + "." + (11 + i), null));
    }
    return List.copyOf(l);
  }

  @Override
  public TestbedSpec spec() {
    return spec;
  }

  @Override
  public boolean shaped() {
    return false;
  }

  @Override
  public Node control() {
    return control;
  }

  @Override
  public List<Node> clusterA() {
    return a;
  }

  @Override
  public List<Node> clusterB() {
    return b;
  }

  @Override
  public List<String> launchPrefix(Node node) {
    return List.of();
  }

  @Override
  public Optional<BackboneMeter> backbone() {
    return Optional.empty();
  }

  @Override
  public String describe() {
    return "loopback testbed, "
        + spec.nodesA()
        + " + "
        + spec.nodesB()
        + " hosts on 127.0.1.x / 127.0.2.x, NOT shaped (no backbone: times are not comparable to a WAN)";
  }

  @Override
  public void close() {}
}
