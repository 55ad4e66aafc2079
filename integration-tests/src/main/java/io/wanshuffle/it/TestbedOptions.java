package io.wanshuffle.it;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Command-line options describing the testbed (shared by testbed, demo, e2e-bench and run-app):
 * sites, racks, hosts, link rates, WAN round trip, TCP congestion control, variant.
 */
public final class TestbedOptions {
  @Option(
      names = "--sites",
      defaultValue = "2",
      paramLabel = "N",
      description =
          "sites (clusters A, B, C, D), 2..4: B is the reduce side, every other site a map side"
              + " (default ${DEFAULT-VALUE})")
  public int sites;

  @Option(
      names = "--racks",
      paramLabel = "R",
      description = "racks per site, 1..4; a site's hosts are spread evenly over its racks")
  public Integer racks;

  @Option(
      names = "--hosts",
      split = ",",
      paramLabel = "N",
      description =
          "hosts per site in site order A, B, C, D (one value: every site; at most 8 worker hosts"
              + " in all)")
  public List<Integer> hosts;

  @Option(
      names = "--nodes-a",
      paramLabel = "N",
      description = "hosts in cluster A (map side), as --hosts sets A's")
  public Integer nodesA;

  @Option(
      names = "--nodes-b",
      paramLabel = "N",
      description = "hosts in cluster B (reduce side), as --hosts sets B's")
  public Integer nodesB;

  @Option(
      names = "--nic",
      paramLabel = "RATE",
      defaultValue = "100mbit",
      converter = TestbedRates.Rate.class,
      description =
          "NIC rate of every host with a unit (bit, kbit, mbit, gbit), default ${DEFAULT-VALUE}")
  public long nic;

  @Option(
      names = "--rack-uplink",
      paramLabel = "RATE",
      converter = TestbedRates.RateOrNone.class,
      description =
          "rate of each rack's uplink and downlink (tbf-shaped) with a unit, e.g. 100mbit, or"
              + " none (not shaped)")
  public Long rackUplink;

  @Option(
      names = "--rtt",
      paramLabel = "MS",
      converter = DurationConverters.WholeMillis.class,
      description =
          "WAN round-trip time added between any two sites: whole milliseconds or a duration"
              + " such as 40ms")
  public Integer rttMillis;

  @Option(
      names = "--tcp-cc",
      paramLabel = "NAME",
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
   * The shape of every command but the demo where the options do not say: one rack per site, 3
   * hosts per site with two sites and 2 with more, rack links unshaped.
   */
  public static final ShapeDefaults GENERAL_SHAPE = new ShapeDefaults(1, 0, false);

  /** The shape a command uses when its options do not say: racks, hosts, rack uplinks. */
  private ShapeDefaults shapeDefaults = GENERAL_SHAPE;

  /**
   * The shape a command runs on when {@code --racks}, {@code --hosts} / {@code --nodes-a} / {@code
   * --nodes-b} and {@code --rack-uplink} are not given.
   *
   * @param racks racks per site
   * @param hostsPerSite hosts of every site, or 0 for the general default (3 per site with two
   *     sites, 2 with more)
   * @param rackUplinkAtNic true: rack uplinks and downlinks at the NIC rate; false: unshaped
   */
  public record ShapeDefaults(int racks, int hostsPerSite, boolean rackUplinkAtNic) {}

  /**
   * @param defaults the shape to use where the options say nothing (the demo's rack-level shape)
   */
  public void shapeDefaults(ShapeDefaults defaults) {
    this.shapeDefaults = defaults;
  }

  @Option(
      names = "--backbone",
      defaultValue = "200mbit",
      split = ",",
      paramLabel = "RATE",
      converter = TestbedRates.Rate.class,
      description =
          "each site's side of the backbone, shaped out of the site and into it, in site order (one"
              + " value: every site), with a unit (e.g. 200mbit), default ${DEFAULT-VALUE}")
  public List<Long> backbone;

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
    if (sites < 2 || sites > TestbedSpec.MAX_SITES) {
      throw new IllegalArgumentException(
          "--sites: must be 2.." + TestbedSpec.MAX_SITES + ", got " + sites);
    }
    int r = racks == null ? shapeDefaults.racks() : racks;
    if (r < 1 || r > TestbedSpec.MAX_RACKS) {
      throw new IllegalArgumentException(
          "--racks: must be 1.." + TestbedSpec.MAX_RACKS + ", got " + r);
    }
    List<Long> sides = new ArrayList<>(perSite(backbone, "--backbone", "rate"));
    long nicRate = nic;
    long rack =
        rackUplink == null
            ? (shapeDefaults.rackUplinkAtNic() ? nicRate : TestbedSpec.UNSHAPED)
            : rackUplink;
    TestbedSpec spec =
        new TestbedSpec(
            hostsPerSite(),
            r,
            nicRate,
            rack,
            rack,
            sides,
            rttGiven() ? rttMillis : defaultRttMillis,
            tcpCongestionControl);
    if (loopback) {
      System.setProperty(io.wanshuffle.it.net.Testbed.MODE_PROPERTY, "loopback");
    }
    return spec;
  }

  /**
   * @return hosts per site from {@code --hosts}, or {@code --nodes-a} / {@code --nodes-b} over the
   *     default (3 per site with two sites, 2 with more)
   * @throws IllegalArgumentException if both forms are given or {@code --hosts} has neither one
   *     value nor one per site
   */
  private List<Integer> hostsPerSite() {
    if (hosts != null && (nodesA != null || nodesB != null)) {
      throw new IllegalArgumentException(
          "--hosts and --nodes-a/--nodes-b: give the hosts per site one way, got both");
    }
    if (hosts != null) {
      return perSite(hosts, "--hosts", "count");
    }
    int each = shapeDefaults.hostsPerSite() > 0 ? shapeDefaults.hostsPerSite() : sites == 2 ? 3 : 2;
    List<Integer> out = new ArrayList<>(Collections.nCopies(sites, each));
    if (nodesA != null) {
      out.set(0, nodesA);
    }
    if (nodesB != null) {
      out.set(TestbedSpec.REDUCE_SITE, nodesB);
    }
    return out;
  }

  /**
   * @return {@code values} for every site: one value repeated, or one per site as given
   * @throws IllegalArgumentException naming the option otherwise
   */
  private <T> List<T> perSite(List<T> values, String option, String what) {
    if (values.size() == 1) {
      return Collections.nCopies(sites, values.get(0));
    }
    if (values.size() != sites) {
      throw new IllegalArgumentException(
          option
              + ": give one "
              + what
              + " for every site or one per site ("
              + sites
              + "), got "
              + values.size());
    }
    return values;
  }

  /**
   * Runs {@code build} (one of the {@code spec} methods) and turns a bad value into a usage error
   * of {@code commandLine} (exit status 2), so that it is refused before any testbed starts.
   *
   * @param commandLine the command whose options these are
   * @param build builds the spec
   * @return the spec
   * @throws ParameterException naming the option and the value
   */
  public static TestbedSpec checked(CommandLine commandLine, Supplier<TestbedSpec> build) {
    try {
      return build.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(commandLine, e.getMessage(), e);
    }
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
   * The options that build a spec's shape, for the command lines reports print: with two sites of
   * one rack, unshaped racks and one backbone rate, {@code --nodes-a N --nodes-b N --nic R
   * --backbone R}; otherwise {@code --sites --racks --hosts --nic [--rack-uplink] --backbone} (the
   * rack uplink's rate stands for both directions, as {@code --rack-uplink} sets them).
   *
   * @param spec a testbed spec
   * @return the options, each preceded by a space
   */
  public static String shapeOptions(TestbedSpec spec) {
    if (spec.sites() == 2 && !spec.rackSwitches() && spec.uniformBackbone()) {
      return String.format(
          " --nodes-a %d --nodes-b %d --nic %s --backbone %s",
          spec.nodesA(),
          spec.nodesB(),
          rate(spec.nicBitsPerSecond()),
          rate(spec.sideBitsPerSecond(0)));
    }
    List<Long> sides = spec.backboneSideBitsPerSecond();
    return " --sites "
        + spec.sites()
        + " --racks "
        + spec.racksPerSite()
        + " --hosts "
        + String.join(",", spec.hostsPerSite().stream().map(String::valueOf).toList())
        + " --nic "
        + rate(spec.nicBitsPerSecond())
        + (spec.racksShaped()
            ? " --rack-uplink "
                + (spec.rackUplinkBitsPerSecond() == TestbedSpec.UNSHAPED
                    ? "none"
                    : rate(spec.rackUplinkBitsPerSecond()))
            : "")
        + " --backbone "
        + (spec.uniformBackbone()
            ? rate(sides.get(0))
            : String.join(",", sides.stream().map(TestbedOptions::rate).toList()));
  }

  /**
   * @return a rate as an option value: {@code 200mbit} when it is whole Mbit/s, {@code 500kbit}
   *     when whole kbit/s, else {@code 64001bit}
   */
  private static String rate(long bits) {
    return bits % 1_000_000 == 0
        ? bits / 1_000_000 + "mbit"
        : bits % 1000 == 0 ? bits / 1000 + "kbit" : bits + "bit";
  }

  /**
   * @return true when {@code --rtt} was given on the command line
   */
  public boolean rttGiven() {
    return rttMillis != null;
  }
}
