package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The shaped testbed: one network namespace per host, a Linux bridge per cluster (each in its own
 * switch namespace), one veth pair as the backbone between the two bridges, and a tbf qdisc on
 * every NIC (both directions: the host's {@code eth0} for upload, the switch port for download) and
 * on both ends of the backbone. With a WAN RTT the backbone runs through a third namespace where
 * {@link DelayLine} forwards frames after half the RTT in each direction (this kernel has no
 * netem).
 *
 * <pre>
 *  wst-a1 eth0 ─ v-a1 ┐                                        ┌ v-b1 ─ eth0 wst-b1
 *  wst-a2 eth0 ─ v-a2 ┼ br0 (wst-swA) bbA ══ backbone ══ bbB (wst-swB) br0 ┼ v-b2 ─ eth0 wst-b2
 *  wst-ctl eth0 ─ v-ctl┘        [optional: bbA ─ wA (wst-wan, delay line) wB ─ bbB]
 * </pre>
 *
 * <p>Addresses ({@link Hosts} in {@code 10.77}, one /16, all layer 2): control 10.77.0.2, cluster A
 * 10.77.1.11.., cluster B 10.77.2.11... Every namespace is named {@value #PREFIX}*, and {@link
 * #start} first removes such leftovers of a crashed run (terminating the processes a previous run
 * left inside them). Nothing is created in the root namespace. One such testbed per machine ({@link
 * MachineLock}).
 *
 * <p>Teardown ({@link #close()}, or the {@link Teardown} at JVM exit): stops the delay line,
 * deletes every {@value #PREFIX}* namespace with the processes still inside, releases the lock.
 */
public final class NamespaceTestbed implements Testbed {
  /** Prefix of every namespace this class creates. */
  public static final String PREFIX = "wst-";

  static final String SWITCH_A = PREFIX + "swA";
  static final String SWITCH_B = PREFIX + "swB";
  static final String WAN = PREFIX + "wan";
  private static final String BURST = "64kb";

  /**
   * Queueing delay a tbf buffer holds at its rate when the WAN RTT is shorter (LAN-sized buffer),
   * ms.
   */
  private static final int MIN_TBF_LATENCY_MS = 20;

  private final TestbedSpec spec;
  private final Hosts hosts;
  private final Teardown teardown;
  private DelayLine delayLine;
  private BackboneMeter meter;

  private NamespaceTestbed(TestbedSpec spec) {
    this.spec = spec;
    this.hosts = Hosts.of(spec, "10.77", PREFIX);
    this.teardown = Teardown.register(Teardown.TESTBED_PRIORITY, this::teardown);
  }

  /**
   * Checks the prerequisites, removes leftovers of a previous run, and builds the testbed.
   *
   * @param spec sizes, rates and WAN RTT
   * @return the running testbed (close it; its {@link Teardown} also tears it down on exit or
   *     interrupt)
   * @throws TestbedUnavailableException if not root, iproute2 is missing, or python3 is missing
   *     while a WAN RTT is asked for; the message names the loopback flag
   * @throws IllegalStateException if another testbed runs on this machine, or if an {@code
   *     ip}/{@code tc} command fails (everything built so far is torn down first)
   */
  public static NamespaceTestbed start(TestbedSpec spec) {
    requirePrerequisites(spec);
    MachineLock.claim();
    removeLeftovers();
    NamespaceTestbed t = new NamespaceTestbed(spec);
    try {
      t.build();
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
    return t;
  }

  /**
   * @param spec the spec (python3 is only needed with a WAN RTT)
   * @return null when the shaped testbed can be built here, otherwise what is missing
   */
  public static String missingPrerequisite(TestbedSpec spec) {
    String user = System.getProperty("user.name");
    boolean root = "root".equals(user) || Exec.quiet("sh", "-c", "[ \"$(id -u)\" = 0 ]");
    if (!root) {
      return "not running as root (user " + user + ")";
    }
    for (String p : List.of("ip", "tc", "nstat")) {
      if (!Exec.onPath(p)) {
        return "'" + p + "' (iproute2) is not installed";
      }
    }
    if (spec.wanRttMillis() > 0 && !Exec.onPath("python3")) {
      return "python3 is needed for the WAN delay line (--rtt " + spec.wanRttMillis() + " ms)";
    }
    return null;
  }

  private static void requirePrerequisites(TestbedSpec spec) {
    String missing = missingPrerequisite(spec);
    if (missing != null) {
      throw new TestbedUnavailableException(
          "the shaped two-cluster testbed needs root and iproute2 (ip, tc, "
              + "nstat): "
              + missing
              + ". Run as root (.ci/run installs iproute2), or pass -D"
              + MODE_PROPERTY
              + "=loopback for the unshaped loopback variant (results are checked, times are not comparable).");
    }
  }

  /**
   * Deletes every {@value #PREFIX}* namespace, first terminating the processes still running inside
   * it.
   */
  public static void removeLeftovers() {
    for (String ns : listNamespaces()) {
      killInside(ns);
      Exec.quiet("ip", "netns", "del", ns);
    }
  }

  static List<String> listNamespaces() {
    List<String> out = new ArrayList<>();
    for (String line : Exec.check("ip", "netns", "list").split("\n")) {
      String name = line.strip().split("\\s+")[0];
      if (name.startsWith(PREFIX)) {
        out.add(name);
      }
    }
    return out;
  }

  private static void killInside(String ns) {
    Exec.Result r = Exec.run(List.of("ip", "netns", "pids", ns));
    List<ProcessHandle> procs = new ArrayList<>();
    for (String pid : r.stdout().split("\\s+")) {
      if (!pid.isBlank()) {
        ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(procs::add);
      }
    }
    procs.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + 5_000_000_000L;
    for (ProcessHandle p : procs) {
      while (p.isAlive() && System.nanoTime() < deadline) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
  }

  private void build() {
    for (String sw : List.of(SWITCH_A, SWITCH_B)) {
      addNamespace(sw);
      Exec.check(
          "ip",
          "-n",
          sw,
          "link",
          "add",
          "br0",
          "type",
          "bridge",
          "stp_state",
          "0",
          "forward_delay",
          "0");
      Exec.check("ip", "-n", sw, "link", "set", "br0", "up");
    }
    if (spec.wanRttMillis() > 0) {
      addNamespace(WAN);
      Exec.check(
          "ip", "link", "add", "bbA", "netns", SWITCH_A, "type", "veth", "peer", "name", "wA",
          "netns", WAN);
      Exec.check(
          "ip", "link", "add", "bbB", "netns", SWITCH_B, "type", "veth", "peer", "name", "wB",
          "netns", WAN);
      for (String i : List.of("wA", "wB")) {
        Exec.check("ip", "-n", WAN, "link", "set", i, "promisc", "on", "up");
      }
      delayLine = DelayLine.start(WAN, "wA", "wB", spec.wanRttMillis() / 2.0);
    } else {
      Exec.check(
          "ip", "link", "add", "bbA", "netns", SWITCH_A, "type", "veth", "peer", "name", "bbB",
          "netns", SWITCH_B);
    }
    Exec.check("ip", "-n", SWITCH_A, "link", "set", "bbA", "master", "br0", "up");
    Exec.check("ip", "-n", SWITCH_B, "link", "set", "bbB", "master", "br0", "up");
    shape(SWITCH_A, "bbA", spec.backboneBitsPerSecond());
    shape(SWITCH_B, "bbB", spec.backboneBitsPerSecond());
    CongestionControl.allow(spec.tcpCongestionControl());
    addHost(hosts.control(), SWITCH_A, false);
    for (Node n : hosts.clusterA()) {
      addHost(n, SWITCH_A, true);
    }
    for (Node n : hosts.clusterB()) {
      addHost(n, SWITCH_B, true);
    }
    meter =
        new BackboneMeter(
            SWITCH_A,
            "bbA",
            hosts.clusterA().stream().map(Node::namespace).toList(),
            hosts.clusterB().stream().map(Node::namespace).toList(),
            spec.backboneBitsPerSecond());
  }

  private static void addNamespace(String ns) {
    Exec.check("ip", "netns", "add", ns);
    // no IPv6 chatter (router solicitations, DAD) on the measured links
    Exec.check(
        "ip",
        "netns",
        "exec",
        ns,
        "sysctl",
        "-qw",
        "net.ipv6.conf.all.disable_ipv6=1",
        "net.ipv6.conf.default.disable_ipv6=1");
    Exec.check("ip", "-n", ns, "link", "set", "lo", "up");
    // WAN host tuning: an idle connection keeps its congestion window, so a fetch that re-uses a
    // connection after a pause (a later step, a later task) does not restart in slow start; the
    // same setting applies to every variant run on the testbed
    Exec.check("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.tcp_slow_start_after_idle=0");
  }

  private void addHost(Node n, String sw, boolean shaped) {
    addNamespace(n.namespace());
    CongestionControl.set(n.namespace(), spec.tcpCongestionControl());
    String port = "v-" + n.name();
    Exec.check(
        "ip",
        "link",
        "add",
        "eth0",
        "netns",
        n.namespace(),
        "type",
        "veth",
        "peer",
        "name",
        port,
        "netns",
        sw);
    Exec.check("ip", "-n", sw, "link", "set", port, "master", "br0", "up");
    Exec.check("ip", "-n", n.namespace(), "addr", "add", n.address() + "/16", "dev", "eth0");
    Exec.check("ip", "-n", n.namespace(), "link", "set", "eth0", "up");
    if (shaped) {
      shape(n.namespace(), "eth0", spec.nicBitsPerSecond()); // upload
      shape(sw, port, spec.nicBitsPerSecond()); // download
    }
  }

  /**
   * Shapes {@code dev} to {@code bitsPerSecond} with a tbf whose buffer holds max(20 ms, WAN RTT)
   * of traffic at that rate: the bandwidth-delay-product rule for router buffers, so one TCP flow
   * can keep the link busy.
   */
  private void shape(String ns, String dev, long bitsPerSecond) {
    Exec.check(
        "tc",
        "-n",
        ns,
        "qdisc",
        "replace",
        "dev",
        dev,
        "root",
        "tbf",
        "rate",
        bitsPerSecond + "bit",
        "burst",
        BURST,
        "latency",
        Math.max(MIN_TBF_LATENCY_MS, spec.wanRttMillis()) + "ms");
  }

  @Override
  public TestbedSpec spec() {
    return spec;
  }

  @Override
  public boolean shaped() {
    return true;
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
    return Optional.ofNullable(meter);
  }

  @Override
  public String describe() {
    return String.format(
        "network-namespace testbed, %d + %d hosts, NIC %s, backbone %s, WAN RTT %d ms "
            + "(tbf-shaped), TCP %s",
        spec.nodesA(),
        spec.nodesB(),
        mbit(spec.nicBitsPerSecond()),
        mbit(spec.backboneBitsPerSecond()),
        spec.wanRttMillis(),
        spec.tcpCongestionControl());
  }

  static String mbit(long bits) {
    return bits % 1_000_000 == 0
        ? bits / 1_000_000 + " Mbit/s"
        : String.format("%.3f Mbit/s", bits / 1e6);
  }

  /** Tears the testbed down (see the class comment); idempotent. */
  @Override
  public void close() {
    teardown.close();
  }

  private void teardown() {
    if (delayLine != null) {
      delayLine.close();
    }
    removeLeftovers();
    MachineLock.release();
  }
}
