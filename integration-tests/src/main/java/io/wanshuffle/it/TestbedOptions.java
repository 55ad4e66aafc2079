package io.wanshuffle.it;

import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Option;

/** Command-line options describing the testbed (shared by testbed, demo, e2e-bench and run-app). */
public final class TestbedOptions {
  @Option(
      names = "--nodes-a",
      defaultValue = "3",
      description = "hosts in cluster A (map side), default ${DEFAULT-VALUE}")
  public int nodesA;

  @Option(
      names = "--nodes-b",
      defaultValue = "3",
      description = "hosts in cluster B (reduce side), default ${DEFAULT-VALUE}")
  public int nodesB;

  @Option(
      names = "--nic",
      defaultValue = "100mbit",
      description = "NIC rate of every host, default ${DEFAULT-VALUE}")
  public String nic;

  @Option(
      names = "--backbone",
      defaultValue = "200mbit",
      description = "backbone rate, default ${DEFAULT-VALUE}")
  public String backbone;

  @Option(
      names = "--rtt",
      description =
          "WAN round-trip time added on the backbone, ms (default 0; the demo's"
              + " default is 40)")
  public Integer rttMillis;

  @Option(
      names = "--tcp-cc",
      defaultValue = TestbedSpec.DEFAULT_TCP_CC,
      description =
          "TCP congestion control"
              + " of every host (net.ipv4.tcp_congestion_control in its namespace), e.g. bbr or cubic; default"
              + " ${DEFAULT-VALUE}, the machine the published figures come from")
  public String tcpCongestionControl;

  @Option(
      names = "--loopback",
      description = "use the unshaped loopback variant (same as -Dwanshuffle.testbed=loopback)")
  public boolean loopback;

  /**
   * @return the spec these options describe, RTT 0 unless {@code --rtt} was given (see {@link
   *     #spec(int)})
   */
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
    return new TestbedSpec(
        nodesA,
        nodesB,
        TestbedSpec.parseRate(nic, "--nic"),
        TestbedSpec.parseRate(backbone, "--backbone"),
        rttGiven() ? rttMillis : defaultRttMillis,
        tcpCongestionControl);
  }

  /**
   * The spec with a command's own default WAN round trip unless {@code --rtt} was given. When that
   * default round trip is what cannot be built (python3 for the delay line is missing, everything
   * else is there), the same testbed without added latency, with a note saying so; an explicit
   * {@code --rtt} is kept as asked.
   *
   * @param defaultRttMillis the command's round trip when {@code --rtt} is not given, ms
   * @param missingPrerequisite what the shaped testbed of a spec lacks here, or null (see {@link
   *     io.wanshuffle.it.net.NamespaceTestbed#missingPrerequisite})
   * @param note where the note goes
   * @return the spec to start
   * @throws IllegalArgumentException if a rate does not parse or a value is out of range
   */
  public TestbedSpec spec(
      int defaultRttMillis,
      Function<TestbedSpec, String> missingPrerequisite,
      Consumer<String> note) {
    TestbedSpec spec = spec(defaultRttMillis);
    if (rttGiven() || spec.wanRttMillis() == 0 || Testbed.loopbackRequested()) {
      return spec;
    }
    String missing = missingPrerequisite.apply(spec);
    if (missing != null && missingPrerequisite.apply(spec.withRtt(0)) == null) {
      note.accept(
          "NOTE: "
              + missing
              + ": running the shaped testbed with no added latency (RTT 0) instead of the"
              + " default "
              + spec.wanRttMillis()
              + " ms; install python3 (apt-get install python3) for the WAN's round"
              + " trip.");
      return spec.withRtt(0);
    }
    return spec;
  }

  /**
   * The testbed a command starts: {@link #spec(int, Function, Consumer)} on this machine; when the
   * shaped testbed cannot be built here at all (no root or no iproute2), the loopback variant is
   * selected, with a note.
   *
   * @param defaultRttMillis the command's round trip when {@code --rtt} is not given, ms
   * @param stillChecked what the loopback run still checks, for the note (e.g. "the answers are
   *     still checked")
   * @param note where notes go
   * @return the spec to start
   * @throws IllegalArgumentException if a rate does not parse or a value is out of range
   */
  public TestbedSpec startableSpec(
      int defaultRttMillis, String stillChecked, Consumer<String> note) {
    TestbedSpec spec = spec(defaultRttMillis, NamespaceTestbed::missingPrerequisite, note);
    if (!Testbed.loopbackRequested()) {
      String missing = NamespaceTestbed.missingPrerequisite(spec);
      if (missing != null) {
        note.accept(
            "NOTE: the shaped testbed needs root and iproute2 ("
                + missing
                + "): running on loopback"
                + " addresses instead. The backbone is NOT shaped, so times are not comparable; "
                + stillChecked
                + ".");
        System.setProperty(Testbed.MODE_PROPERTY, "loopback");
      }
    }
    return spec;
  }

  /**
   * @return true when {@code --rtt} was given on the command line
   */
  public boolean rttGiven() {
    return rttMillis != null;
  }
}
