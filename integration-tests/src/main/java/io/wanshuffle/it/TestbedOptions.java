package io.wanshuffle.it;

import io.wanshuffle.it.net.TestbedSpec;
import picocli.CommandLine.Option;

/** Command-line options describing the testbed (shared by testbed, demo and e2e-bench). */
public final class TestbedOptions {
  @Option(names = "--nodes-a", defaultValue = "3", description = "hosts in cluster A (map side), default ${DEFAULT-VALUE}")
  public int nodesA;

  @Option(names = "--nodes-b", defaultValue = "3", description = "hosts in cluster B (reduce side), default ${DEFAULT-VALUE}")
  public int nodesB;

  @Option(names = "--nic", defaultValue = "100mbit", description = "NIC rate of every host, default ${DEFAULT-VALUE}")
  public String nic;

  @Option(names = "--backbone", defaultValue = "200mbit", description = "backbone rate, default ${DEFAULT-VALUE}")
  public String backbone;

  @Option(names = "--rtt", description = "WAN round-trip time added on the backbone, ms (default 0; the demo's"
      + " default is 40)")
  public Integer rttMillis;

  @Option(names = "--tcp-cc", defaultValue = TestbedSpec.DEFAULT_TCP_CC, description = "TCP congestion control"
      + " of every host (net.ipv4.tcp_congestion_control in its namespace), e.g. bbr or cubic; default"
      + " ${DEFAULT-VALUE}, the machine the published figures come from")
  public String tcpCongestionControl;

  @Option(names = "--loopback", description = "use the unshaped loopback variant (same as -Dwanshuffle.testbed=loopback)")
  public boolean loopback;

  /** @return the spec these options describe, RTT 0 unless {@code --rtt} was given (see {@link #spec(int)}) */
  public TestbedSpec spec() {
    return spec(0);
  }

  /**
   * @param defaultRttMillis the WAN round-trip time when {@code --rtt} was not given, ms
   * @return the spec these options describe (and selects the loopback variant when asked)
   * @throws IllegalArgumentException if a rate does not parse or a value is out of range
   */
  public TestbedSpec spec(int defaultRttMillis) {
    if (loopback) {
      System.setProperty(io.wanshuffle.it.net.Testbed.MODE_PROPERTY, "loopback");
    }
    return new TestbedSpec(nodesA, nodesB, TestbedSpec.parseRate(nic, "--nic"),
        TestbedSpec.parseRate(backbone, "--backbone"), rttGiven() ? rttMillis : defaultRttMillis,
        tcpCongestionControl);
  }

  /** @return true when {@code --rtt} was given on the command line */
  public boolean rttGiven() {
    return rttMillis != null;
  }
}
