package io.wanshuffle.it.net;

import java.util.List;
import java.util.Optional;

/**
 * The unshaped variant: every host is a loopback address of this machine ({@link Hosts} in {@code
 * 127.0}: control 127.0.0.2, site A 127.0.1.11.., site B 127.0.2.11.., C 127.0.3.11.., D
 * 127.0.4.11..), with the sites, racks and topology files of its spec. Linux answers on all of
 * 127.0.0.0/8 without configuration, so nothing is created, nothing needs root and there is nothing
 * to tear down. Nothing is rate-limited: shuffle times are not comparable to a WAN; results and the
 * plugin's step contract still are. Several loopback testbeds can be open at once (Spark processes
 * on them choose their ports at run time).
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
  public List<Node> hostsOf(int site) {
    return hosts.sites().get(site);
  }

  @Override
  public Optional<BackboneMeter> backbone() {
    return Optional.empty();
  }

  @Override
  public Optional<LinkMeter> links() {
    return Optional.empty();
  }

  @Override
  public String describe() {
    if (spec.sites() == 2 && !spec.rackSwitches() && spec.uniformBackbone()) {
      return "loopback testbed, "
          + spec.nodesA()
          + " + "
          + spec.nodesB()
          + " hosts on 127.0.1.x / 127.0.2.x, NOT shaped (no backbone: times are not comparable to a WAN)";
    }
    return "loopback testbed, "
        + spec.describeShape()
        + " as modelled in its topology file, hosts on 127.0.s.x, NOT shaped (no backbone: times are"
        + " not comparable to a WAN)";
  }

  /** Nothing to tear down. */
  @Override
  public void close() {}
}
