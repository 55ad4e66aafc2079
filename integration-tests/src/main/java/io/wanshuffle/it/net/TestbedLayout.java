package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the hosts and links of a {@link NamespaceTestbed} built from a {@link TestbedSpec} lie,
 * derived from the spec alone, so that a host or link name can be checked before any testbed
 * starts: every host ({@link Node}: name, address, namespace), and per link, named as
 * docs/topology.md and the reports name it ({@code nic.up[10.77.1.11]}, {@code
 * rack.uplink[/A/rack0]}, {@code backbone.out[/A]}, ...), the interface whose counters carry it and
 * the tbf that shapes it ({@link LinkMeter.Probe}), and on a testbed with a WAN round trip the
 * delay line's port each backbone link crosses ({@link #delayPort}).
 *
 * <p>Names: a host's namespace is {@code wst-<name>}, its port on its site's switch {@code
 * v-<name>}; site X's switch namespace is {@code wst-swX}, its backbone side {@code bbX} there (and
 * {@code wX} in the core namespace {@code wst-wan} with three or four sites or a WAN round trip);
 * rack r's uplink {@code up-r<r>} and downlink {@code dn-r<r>} in the site's switch.
 */
public final class TestbedLayout {
  private final TestbedSpec spec;
  private final Hosts hosts;
  private final List<LinkMeter.Probe> links;

  private TestbedLayout(TestbedSpec spec) {
    this.spec = spec;
    this.hosts = Hosts.of(spec, "10.77", NamespaceTestbed.PREFIX);
    List<LinkMeter.Probe> probes = new ArrayList<>();
    if (spec.rackSwitches()) {
      for (int s = 0; s < spec.sites(); s++) {
        addRacks(s, probes);
      }
    }
    for (int s = 0; s < spec.sites(); s++) {
      addBackboneSide(s, probes);
    }
    for (int s = 0; s < spec.sites(); s++) {
      for (Node n : hosts.sites().get(s)) {
        String sw = switchOf(s);
        String port = hostPort(n);
        long nic = spec.nicBitsPerSecond();
        probes.add(
            new LinkMeter.Probe(
                "nic.up[" + n.address() + "]", sw, port, false, nic, n.namespace(), "eth0"));
        probes.add(
            new LinkMeter.Probe("nic.down[" + n.address() + "]", sw, port, true, nic, sw, port));
      }
    }
    this.links = List.copyOf(probes);
  }

  /**
   * @param spec the testbed's sizes and rates
   * @return the layout of a namespace testbed built from it
   */
  public static TestbedLayout of(TestbedSpec spec) {
    return new TestbedLayout(spec);
  }

  /**
   * @return the spec the layout is derived from
   */
  public TestbedSpec spec() {
    return spec;
  }

  Hosts hosts() {
    return hosts;
  }

  /**
   * @return the control host (the driver's and the cluster manager's host), {@code 10.77.0.2}
   */
  public Node control() {
    return hosts.control();
  }

  /**
   * @return every worker host in site order (A's, B's, then C's and D's)
   */
  public List<Node> workers() {
    return hosts.sites().stream().flatMap(List::stream).toList();
  }

  /**
   * @param nameOrAddress a host's name ({@code b1}, {@code ctl}) or address ({@code 10.77.2.11})
   * @return that host (a worker or the control host), or empty when the testbed has none such
   */
  public Optional<Node> host(String nameOrAddress) {
    List<Node> all = new ArrayList<>(workers());
    all.add(control());
    return all.stream()
        .filter(n -> n.name().equals(nameOrAddress) || n.address().equals(nameOrAddress))
        .findFirst();
  }

  /**
   * @return every link with where it is read and shaped, in the order {@link LinkMeter} measures
   *     them: rack links (with rack switches), backbone sides (out, in per site), NICs (up, down
   *     per host)
   */
  public List<LinkMeter.Probe> links() {
    return links;
  }

  /**
   * @param name a link's name, e.g. {@code backbone.in[/B]}
   * @return the link, or empty when the testbed has none of that name
   */
  public Optional<LinkMeter.Probe> link(String name) {
    return links.stream().filter(p -> p.link().equals(name)).findFirst();
  }

  /**
   * Where a backbone link crosses the WAN delay line: a frame leaving site X ({@code
   * backbone.out[/X]}) enters the delay line on X's port, a frame entering site X ({@code
   * backbone.in[/X]}) leaves it on X's port.
   *
   * @param port the delay line's interface ({@code wA}, {@code wB}, ...) in {@value
   *     NamespaceTestbed#WAN}
   * @param ingress true when the link's frames enter the delay line there, false when they leave
   *     through it
   */
  public record DelayPort(String port, boolean ingress) {}

  /**
   * @param link a link's name
   * @return its delay line port; empty when the testbed has no WAN round trip (no delay line) or
   *     the link is not a backbone link
   */
  public Optional<DelayPort> delayPort(String link) {
    if (spec.wanRttMillis() == 0 || link(link).isEmpty()) {
      return Optional.empty();
    }
    for (int s = 0; s < spec.sites(); s++) {
      String site = "[/" + TestbedSpec.siteName(s) + "]";
      if (link.equals("backbone.out" + site)) {
        return Optional.of(new DelayPort(corePort(s), true));
      }
      if (link.equals("backbone.in" + site)) {
        return Optional.of(new DelayPort(corePort(s), false));
      }
    }
    return Optional.empty();
  }

  /**
   * Per rack of site {@code s}: its uplink (transmitted by the rack end {@code up-rN}) and downlink
   * (transmitted by the site end {@code dn-rN}), shaped when their rate is set.
   */
  private void addRacks(int s, List<LinkMeter.Probe> probes) {
    String sw = switchOf(s);
    for (int r = 0; r < spec.racksPerSite(); r++) {
      String rack = "/" + TestbedSpec.siteName(s) + "/rack" + r;
      probes.add(
          transmitted("rack.uplink[" + rack + "]", sw, uplink(r), spec.rackUplinkBitsPerSecond()));
      probes.add(
          transmitted(
              "rack.downlink[" + rack + "]", sw, downlink(r), spec.rackDownlinkBitsPerSecond()));
    }
  }

  private static LinkMeter.Probe transmitted(String link, String ns, String dev, long rate) {
    boolean shaped = rate != TestbedSpec.UNSHAPED;
    return new LinkMeter.Probe(link, ns, dev, true, rate, shaped ? ns : null, shaped ? dev : null);
  }

  /**
   * Site {@code s}'s backbone side: out of the site on its switch's {@code bbX} (transmit, shaped
   * there); into the site on the same interface (receive), shaped where the frames leave for it:
   * the other site's {@code bbY} with two sites, the core's {@code wX} with more.
   */
  private void addBackboneSide(int s, List<LinkMeter.Probe> probes) {
    String sw = switchOf(s);
    String dev = backboneDevice(s);
    String site = "[/" + TestbedSpec.siteName(s) + "]";
    long side = spec.sideBitsPerSecond(s);
    probes.add(new LinkMeter.Probe("backbone.out" + site, sw, dev, true, side, sw, dev));
    if (spec.sites() == 2) {
      probes.add(
          new LinkMeter.Probe(
              "backbone.in" + site, sw, dev, false, side, switchOf(1 - s), backboneDevice(1 - s)));
    } else {
      probes.add(
          new LinkMeter.Probe(
              "backbone.in" + site, sw, dev, false, side, NamespaceTestbed.WAN, corePort(s)));
    }
  }

  /**
   * @param site a site's index
   * @return its switch namespace: {@code wst-swA}, {@code wst-swB}, ...
   */
  static String switchOf(int site) {
    return NamespaceTestbed.PREFIX + "sw" + TestbedSpec.siteName(site);
  }

  /**
   * @param n a worker or the control host
   * @return its port on its site's switch, {@code v-<name>}
   */
  static String hostPort(Node n) {
    return "v-" + n.name();
  }

  /**
   * @param site a site's index
   * @return its backbone side's interface in its switch namespace, {@code bbA}, ...
   */
  static String backboneDevice(int site) {
    return "bb" + TestbedSpec.siteName(site);
  }

  /**
   * @param site a site's index
   * @return its backbone side's interface in the core namespace, {@code wA}, ...
   */
  static String corePort(int site) {
    return "w" + TestbedSpec.siteName(site);
  }

  /**
   * @param rack a rack's index within its site
   * @return its uplink's interface (the rack end of the pair), {@code up-r0}, ...
   */
  static String uplink(int rack) {
    return "up-r" + rack;
  }

  /**
   * @param rack a rack's index within its site
   * @return its downlink's interface (the site end of the pair), {@code dn-r0}, ...
   */
  static String downlink(int rack) {
    return "dn-r" + rack;
  }
}
