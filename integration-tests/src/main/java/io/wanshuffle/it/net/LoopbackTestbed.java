package io.wanshuffle.it.net;

import java.util.List;
import java.util.Optional;

/**
 * The unshaped variant: every host is a loopback address of this machine ({@link Hosts} in {@code
 * 127.0}: control 127.0.0.2, cluster A 127.0.1.11.., cluster B 127.0.2.11..). Linux answers on all
 * of 127.0.0.0/8 without configuration, so nothing is created, nothing needs root and there is
 * nothing to tear down. Nothing is rate-limited: shuffle times are not comparable to a WAN; results
 * and the plugin's step contract still are. Several loopback testbeds can be open at once (Spark
 * processes on them choose their ports at run time).
 */
public final class LoopbackTestbed implements Testbed {
  private final TestbedSpec spec;
  private final Hosts hosts;

  private LoopbackTestbed(TestbedSpec spec) {
    this.spec = spec;
    this.hosts = Hosts.of(spec, "127.0", null);
  }

  /**
   * @param spec host counts (rates, latency and congestion control are ignored: nothing is shaped)
   * @return the loopback testbed
   */
  public static LoopbackTestbed start(TestbedSpec spec) {
    return new LoopbackTestbed(spec);
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
    return hosts.control();
  }

  @Override
  public List<Node> clusterA() {
    return hosts.clusterA();
  }

  @Override
  public List<Node> clusterB() {
    return hosts.clusterB();
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

  /** Nothing to tear down. */
  @Override
  public void close() {}
}
