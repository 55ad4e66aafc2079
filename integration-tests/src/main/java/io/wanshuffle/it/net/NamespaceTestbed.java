package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The shaped testbed: one network namespace per host, a Linux bridge per site (each in its own
 * switch namespace), the backbone between the sites' bridges, and a tbf qdisc on every NIC (both
 * directions: the host's {@code eth0} for upload, the switch port for download), on every rack link
 * whose rate is set, and on each site's backbone side in each direction. With a WAN RTT the
 * backbone runs through a namespace of its own where {@link DelayLine} forwards frames after half
 * the RTT in each direction (this kernel has no netem).
 *
 * <pre>
 *  wst-a1 eth0 ─ v-a1 ┐                                        ┌ v-b1 ─ eth0 wst-b1
 *  wst-a2 eth0 ─ v-a2 ┼ br0 (wst-swA) bbA ══ backbone ══ bbB (wst-swB) br0 ┼ v-b2 ─ eth0 wst-b2
 *  wst-ctl eth0 ─ v-ctl┘        [optional: bbA ─ wA (wst-wan, delay line) wB ─ bbB]
 * </pre>
 *
 * <p>Racks (several per site, or rack links shaped): in the site's switch namespace a bridge per
 * rack ({@code br-r0}, ...) holds the rack's host ports and reaches the site's bridge {@code br0}
 * through a veth pair {@code up-rN} (rack end: transmits the uplink) - {@code dn-rN} (site end:
 * transmits the downlink). The control host stays on site A's {@code br0}.
 *
 * <p>Backbone: with two sites one veth pair {@code bbA} - {@code bbB}, each end shaped at the
 * smaller of the two sides' rates (one link); with three or four, each site's side is a veth pair
 * {@code bbX} (its switch; shaped: out of the site) - {@code wX} (the core namespace {@value #WAN};
 * shaped: into the site), and the core is a bridge or, with a WAN RTT, the delay line, which
 * forwards each frame to its destination's port, so any two sites are one RTT apart and every frame
 * crosses one delay.
 *
 * <p>Addresses ({@link Hosts} in {@code 10.77}, one /16, all layer 2): control 10.77.0.2, site A
 * 10.77.1.11.., site B 10.77.2.11.., C 10.77.3.11.., D 10.77.4.11... Every namespace is named
 * {@value #PREFIX}*, and {@link #start} first removes such leftovers of a crashed run (terminating
 * the processes a previous run left inside them). Nothing is created in the root namespace. One
 * such testbed per machine ({@link MachineLock}). {@link #layout()} says where each host and link
 * lies ({@link TestbedLayout}), {@link #links()} measures every link ({@link LinkMeter}), {@link
 * #backbone()} the backbone into site B, {@link #setExtraDelay} adds delay to a backbone link.
 *
 * <p>Teardown ({@link #close()}, or the {@link Teardown} at JVM exit): stops the delay line,
 * deletes every {@value #PREFIX}* namespace with the processes still inside, releases the lock.
 */
public final class NamespaceTestbed implements Testbed {
  /** Prefix of every namespace this class creates. */
  public static final String PREFIX = "wst-";

  static final String SWITCH_A = TestbedLayout.switchOf(0);
  static final String SWITCH_B = TestbedLayout.switchOf(1);
  static final String WAN = PREFIX + "wan";
  private static final String BURST = "64kb";

  /**
   * Queueing delay a tbf buffer holds at its rate when the WAN RTT is shorter (LAN-sized buffer),
   * ms.
   */
  private static final int MIN_TBF_LATENCY_MS = 20;

  private final TestbedSpec spec;
  private final TestbedLayout layout;
  private final Hosts hosts;
  private final Teardown teardown;
  private DelayLine delayLine;
  private BackboneMeter meter;
  private LinkMeter links;

  private NamespaceTestbed(TestbedSpec spec) {
    this.spec = spec;
    this.layout = TestbedLayout.of(spec);
    this.hosts = layout.hosts();
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
    CongestionControl.allow(spec.tcpCongestionControl());
    for (int s = 0; s < spec.sites(); s++) {
      String sw = TestbedLayout.switchOf(s);
      addNamespace(sw);
      addBridge(sw, "br0");
      if (spec.rackSwitches()) {
        addRacks(s);
      }
    }
    if (spec.sites() == 2) {
      buildPointToPoint();
    } else {
      buildStar();
    }
    addHost(hosts.control(), SWITCH_A, "br0", false);
    for (int s = 0; s < spec.sites(); s++) {
      for (Node n : hosts.sites().get(s)) {
        String bridge = spec.rackSwitches() ? rackBridge(n.rack()) : "br0";
        addHost(n, TestbedLayout.switchOf(s), bridge, true);
      }
    }
    meter = backboneMeter();
    links = new LinkMeter(layout.links());
  }

  /**
   * Per rack of site {@code s}: a bridge for its hosts in the site's switch namespace, joined to
   * the site's bridge by a veth pair whose rack end carries the uplink ({@code up-rN}, transmit:
   * towards the site) and whose site end the downlink ({@code dn-rN}), each shaped when its rate is
   * set.
   */
  private void addRacks(int s) {
    String sw = TestbedLayout.switchOf(s);
    for (int r = 0; r < spec.racksPerSite(); r++) {
      String bridge = rackBridge(r);
      String up = TestbedLayout.uplink(r);
      String down = TestbedLayout.downlink(r);
      addBridge(sw, bridge);
      Exec.check("ip", "-n", sw, "link", "add", up, "type", "veth", "peer", "name", down);
      Exec.check("ip", "-n", sw, "link", "set", up, "master", bridge, "up");
      Exec.check("ip", "-n", sw, "link", "set", down, "master", "br0", "up");
      if (spec.rackUplinkBitsPerSecond() != TestbedSpec.UNSHAPED) {
        shape(sw, up, spec.rackUplinkBitsPerSecond());
      }
      if (spec.rackDownlinkBitsPerSecond() != TestbedSpec.UNSHAPED) {
        shape(sw, down, spec.rackDownlinkBitsPerSecond());
      }
    }
  }

  /**
   * Two sites: one veth pair {@code bbA} - {@code bbB} (through the delay line's namespace with a
   * WAN RTT), each end shaped for the direction it sends: A to B at the smaller of A's and B's
   * sides, and B to A the same (both ends of one link).
   */
  private void buildPointToPoint() {
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
      delayLine = DelayLine.start(WAN, List.of("wA", "wB"), spec.wanRttMillis() / 2.0);
    } else {
      Exec.check(
          "ip", "link", "add", "bbA", "netns", SWITCH_A, "type", "veth", "peer", "name", "bbB",
          "netns", SWITCH_B);
    }
    Exec.check("ip", "-n", SWITCH_A, "link", "set", "bbA", "master", "br0", "up");
    Exec.check("ip", "-n", SWITCH_B, "link", "set", "bbB", "master", "br0", "up");
    long rate = Math.min(spec.sideBitsPerSecond(0), spec.sideBitsPerSecond(1));
    shape(SWITCH_A, "bbA", rate);
    shape(SWITCH_B, "bbB", rate);
  }

  /**
   * Three or four sites: every site's side is a veth pair from its switch ({@code bbX}, shaped at
   * the side's rate: out of the site) to the backbone's core namespace ({@code wX}, shaped at the
   * same rate: into the site). The core is a bridge, or with a WAN RTT the delay line, which
   * forwards each frame to the port of its destination after half the RTT, so that any two sites
   * are one RTT apart.
   */
  private void buildStar() {
    addNamespace(WAN);
    if (spec.wanRttMillis() == 0) {
      addBridge(WAN, "br0");
    }
    List<String> corePorts = new ArrayList<>();
    for (int s = 0; s < spec.sites(); s++) {
      String sw = TestbedLayout.switchOf(s);
      String dev = TestbedLayout.backboneDevice(s);
      String core = TestbedLayout.corePort(s);
      Exec.check(
          "ip", "link", "add", dev, "netns", sw, "type", "veth", "peer", "name", core, "netns",
          WAN);
      Exec.check("ip", "-n", sw, "link", "set", dev, "master", "br0", "up");
      if (spec.wanRttMillis() == 0) {
        Exec.check("ip", "-n", WAN, "link", "set", core, "master", "br0", "up");
      } else {
        Exec.check("ip", "-n", WAN, "link", "set", core, "promisc", "on", "up");
      }
      long side = spec.sideBitsPerSecond(s);
      shape(sw, dev, side);
      shape(WAN, core, side);
      corePorts.add(core);
    }
    if (spec.wanRttMillis() > 0) {
      delayLine = DelayLine.start(WAN, corePorts, spec.wanRttMillis() / 2.0);
    }
  }

  /**
   * The backbone's meter: with two sites the transmit side of {@code bbA} (A to B) and its tbf;
   * with more, the receive side of B's side {@code bbB} (every map site to B) and B's incoming tbf.
   */
  private BackboneMeter backboneMeter() {
    List<String> mapNamespaces = new ArrayList<>();
    for (int s = 0; s < spec.sites(); s++) {
      if (s != TestbedSpec.REDUCE_SITE) {
        hosts.sites().get(s).forEach(n -> mapNamespaces.add(n.namespace()));
      }
    }
    List<String> bNamespaces = hosts.clusterB().stream().map(Node::namespace).toList();
    if (spec.sites() == 2) {
      return new BackboneMeter(
          SWITCH_A, "bbA", mapNamespaces, bNamespaces, spec.backboneBitsPerSecond());
    }
    return new BackboneMeter(
        SWITCH_B,
        "bbB",
        true,
        WAN,
        "wB",
        mapNamespaces,
        bNamespaces,
        spec.sideBitsPerSecond(TestbedSpec.REDUCE_SITE));
  }

  private static String rackBridge(int rack) {
    return "br-r" + rack;
  }

  private static void addBridge(String ns, String name) {
    Exec.check(
        "ip",
        "-n",
        ns,
        "link",
        "add",
        name,
        "type",
        "bridge",
        "stp_state",
        "0",
        "forward_delay",
        "0");
    Exec.check("ip", "-n", ns, "link", "set", name, "up");
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

  private void addHost(Node n, String sw, String bridge, boolean shaped) {
    addNamespace(n.namespace());
    CongestionControl.set(n.namespace(), spec.tcpCongestionControl());
    String port = TestbedLayout.hostPort(n);
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
    Exec.check("ip", "-n", sw, "link", "set", port, "master", bridge, "up");
    Exec.check("ip", "-n", n.namespace(), "addr", "add", n.address() + "/16", "dev", "eth0");
    Exec.check("ip", "-n", n.namespace(), "link", "set", "eth0", "up");
    if (shaped) {
      shape(n.namespace(), "eth0", spec.nicBitsPerSecond()); // upload
      shape(sw, port, spec.nicBitsPerSecond()); // download
    }
  }

  /** Shapes {@code dev} to {@code bitsPerSecond} ({@link #tbf}). */
  private void shape(String ns, String dev, long bitsPerSecond) {
    Exec.check(tbf("replace", ns, dev, bitsPerSecond, spec.wanRttMillis()).toArray(String[]::new));
  }

  /**
   * The tc command that shapes an interface as the testbed shapes its links: a root tbf at the
   * rate, a burst of {@value #BURST}, and a buffer that holds max(20 ms, WAN RTT) of traffic at
   * that rate (the bandwidth-delay-product rule for router buffers, so one TCP flow can keep the
   * link busy).
   *
   * @param verb tc's qdisc verb: {@code replace} (creates the tbf or replaces the root qdisc; its
   *     statistics restart) or {@code change} (changes the existing tbf; its statistics go on)
   * @param ns the interface's namespace
   * @param dev the interface
   * @param bitsPerSecond the rate, bits/s
   * @param wanRttMillis the testbed's WAN round trip, ms (0 without)
   * @return the command, {@code tc -n NS qdisc VERB dev DEV root tbf rate ...}
   */
  public static List<String> tbf(
      String verb, String ns, String dev, long bitsPerSecond, int wanRttMillis) {
    return List.of(
        "tc",
        "-n",
        ns,
        "qdisc",
        verb,
        "dev",
        dev,
        "root",
        "tbf",
        "rate",
        bitsPerSecond + "bit",
        "burst",
        BURST,
        "latency",
        Math.max(MIN_TBF_LATENCY_MS, wanRttMillis) + "ms");
  }

  /**
   * @return where this testbed's hosts and links lie
   */
  public TestbedLayout layout() {
    return layout;
  }

  /**
   * Adds a delay to the frames of one backbone link on top of the WAN round trip's, in the delay
   * line ({@link TestbedLayout#delayPort}); 0 takes it away again. Frames already queued keep their
   * due time, and no frame overtakes an earlier one of the same path.
   *
   * @param link a backbone link's name, e.g. {@code backbone.out[/A]}
   * @param extraOneWayMillis the added one-way delay, ms, at least 0
   * @throws IllegalArgumentException if the link is not a backbone link of this testbed, or the
   *     delay is negative
   * @throws IllegalStateException if the testbed has no delay line (no WAN round trip), or it does
   *     not confirm the change within 5 s
   */
  public void setExtraDelay(String link, double extraOneWayMillis) {
    if (delayLine == null) {
      throw new IllegalStateException(
          "the testbed has no WAN delay line (its WAN round trip is 0 ms): delays need --rtt > 0");
    }
    TestbedLayout.DelayPort port =
        layout
            .delayPort(link)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "'" + link + "' is not a backbone link of this testbed"));
    delayLine.setExtra(port.port(), port.ingress(), extraOneWayMillis);
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
  public List<Node> hostsOf(int site) {
    return hosts.sites().get(site);
  }

  @Override
  public Optional<BackboneMeter> backbone() {
    return Optional.ofNullable(meter);
  }

  @Override
  public Optional<LinkMeter> links() {
    return Optional.ofNullable(links);
  }

  @Override
  public String describe() {
    if (spec.sites() == 2 && !spec.rackSwitches() && spec.uniformBackbone()) {
      return String.format(
          "network-namespace testbed, %d + %d hosts, NIC %s, backbone %s, WAN RTT %d ms "
              + "(tbf-shaped), TCP %s",
          spec.nodesA(),
          spec.nodesB(),
          TestbedSpec.mbit(spec.nicBitsPerSecond()),
          TestbedSpec.mbit(spec.backboneBitsPerSecond()),
          spec.wanRttMillis(),
          spec.tcpCongestionControl());
    }
    return String.format(
        "network-namespace testbed, %s, WAN RTT %d ms (tbf-shaped), TCP %s",
        spec.describeShape(), spec.wanRttMillis(), spec.tcpCongestionControl());
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
