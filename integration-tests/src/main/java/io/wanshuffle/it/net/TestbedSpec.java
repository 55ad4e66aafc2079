package io.wanshuffle.it.net;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What testbed to build: two to four sites (clusters {@code A}, {@code B}, {@code C}, {@code D}),
 * each of one to four racks of hosts, joined by a backbone on which every site has its own side.
 *
 * <p>Roles: site {@code B} is the reduce side, every other site a map side ({@code A} on two sites,
 * as the papers' two clusters; {@code A} and {@code C} into {@code B} on three, so that {@code B}'s
 * backbone side is shared). A site's hosts are spread evenly over its racks in host order: with h
 * hosts and R racks the first h mod R racks hold one host more than the others.
 *
 * <p>Defaults (see {@link #defaults()}): 2 sites of 3 hosts in one rack, every NIC shaped to 100
 * Mbit/s, rack links unshaped, every backbone side to 200 Mbit/s, so the backbone, not the NICs, is
 * the bottleneck of an all-to-all shuffle from cluster A to cluster B; no added WAN latency.
 *
 * @param hostsPerSite worker hosts of each site in site order (A, B, C, D), 1..200 each; its size
 *     is the number of sites, 2..4
 * @param racksPerSite racks per site, 1..4, at most the hosts of every site
 * @param nicBitsPerSecond rate of every host NIC, each direction, bits/s (tbf)
 * @param rackUplinkBitsPerSecond rate of each rack's link towards its site's core (tbf), bits/s;
 *     {@link #UNSHAPED} (0) leaves it unshaped
 * @param rackDownlinkBitsPerSecond rate of each rack's link from its site's core (tbf), bits/s;
 *     {@link #UNSHAPED} (0) leaves it unshaped
 * @param backboneSideBitsPerSecond each site's side of the backbone in site order, bits/s, shaped
 *     at that rate in each direction (out of the site and into it); one per site
 * @param wanRttMillis round-trip time added between any two sites by the user-space delay line, ms
 *     (0 = none; half of it is added in each direction)
 * @param tcpCongestionControl TCP congestion control of every host ({@code
 *     net.ipv4.tcp_congestion_control} in each host's namespace, e.g. {@code bbr} or {@code
 *     cubic}), so that results do not depend on the machine's default; lower-case letters, digits
 *     and '_'
 */
public record TestbedSpec(
    List<Integer> hostsPerSite,
    int racksPerSite,
    long nicBitsPerSecond,
    long rackUplinkBitsPerSecond,
    long rackDownlinkBitsPerSecond,
    List<Long> backboneSideBitsPerSecond,
    int wanRttMillis,
    String tcpCongestionControl) {

  /** Default NIC rate: 100 Mbit/s. */
  public static final long DEFAULT_NIC = 100_000_000L;

  /** Default rate of every backbone side: 200 Mbit/s. */
  public static final long DEFAULT_BACKBONE = 200_000_000L;

  /** A rack link rate meaning "not shaped". */
  public static final long UNSHAPED = 0;

  /** Most sites a testbed has. */
  public static final int MAX_SITES = 4;

  /** Most racks per site. */
  public static final int MAX_RACKS = 4;

  /** Most hosts per site. */
  public static final int MAX_HOSTS_PER_SITE = 200;

  /** The reduce side's site: B, the second. */
  public static final int REDUCE_SITE = 1;

  /** Lowest rate of a shaped link, bits/s. */
  private static final long MIN_RATE = 8_000;

  /**
   * Default TCP congestion control of the hosts: {@code bbr}, the default of the machine the
   * published benchmark reports come from, so that every host runs it whatever this machine's
   * default is.
   */
  public static final String DEFAULT_TCP_CC = "bbr";

  /**
   * Two sites of one rack each, every backbone side at one rate, rack links unshaped.
   *
   * @param nodesA hosts of site A (the map side), 1..200
   * @param nodesB hosts of site B (the reduce side), 1..200
   * @param nicBitsPerSecond see the record
   * @param backboneBitsPerSecond rate of both backbone sides, bits/s
   * @param wanRttMillis see the record
   * @param tcpCongestionControl see the record
   */
  public TestbedSpec(
      int nodesA,
      int nodesB,
      long nicBitsPerSecond,
      long backboneBitsPerSecond,
      int wanRttMillis,
      String tcpCongestionControl) {
    this(
        List.of(nodesA, nodesB),
        1,
        nicBitsPerSecond,
        UNSHAPED,
        UNSHAPED,
        List.of(backboneBitsPerSecond, backboneBitsPerSecond),
        wanRttMillis,
        tcpCongestionControl);
  }

  /**
   * Two sites of one rack each with the default TCP congestion control ({@link #DEFAULT_TCP_CC}).
   *
   * @param nodesA hosts of site A (the map side), 1..200
   * @param nodesB hosts of site B (the reduce side), 1..200
   * @param nicBitsPerSecond see the record
   * @param backboneBitsPerSecond rate of both backbone sides, bits/s
   * @param wanRttMillis see the record
   */
  public TestbedSpec(
      int nodesA, int nodesB, long nicBitsPerSecond, long backboneBitsPerSecond, int wanRttMillis) {
    this(nodesA, nodesB, nicBitsPerSecond, backboneBitsPerSecond, wanRttMillis, DEFAULT_TCP_CC);
  }

  /**
   * Validates the spec and copies the lists.
   *
   * @throws IllegalArgumentException naming the field and value when a count or rate is out of
   *     range, or the lists do not have one entry per site
   */
  public TestbedSpec {
    if (hostsPerSite == null || hostsPerSite.size() < 2 || hostsPerSite.size() > MAX_SITES) {
      throw new IllegalArgumentException(
          "sites must be 2.."
              + MAX_SITES
              + ", got "
              + (hostsPerSite == null ? 0 : hostsPerSite.size()));
    }
    hostsPerSite = List.copyOf(hostsPerSite);
    if (racksPerSite < 1 || racksPerSite > MAX_RACKS) {
      throw new IllegalArgumentException(
          "racks per site must be 1.." + MAX_RACKS + ", got " + racksPerSite);
    }
    for (int s = 0; s < hostsPerSite.size(); s++) {
      int n = hostsPerSite.get(s);
      if (n < 1 || n > MAX_HOSTS_PER_SITE) {
        throw new IllegalArgumentException(
            "nodes in cluster " + siteName(s) + " must be 1..200, got " + n);
      }
      if (n < racksPerSite) {
        throw new IllegalArgumentException(
            "site "
                + siteName(s)
                + " has "
                + n
                + " host(s) for "
                + racksPerSite
                + " racks: every rack needs a host");
      }
    }
    if (nicBitsPerSecond < MIN_RATE) {
      throw new IllegalArgumentException(
          "NIC rate must be at least 8000 bit/s, got " + nicBitsPerSecond);
    }
    if (rackUplinkBitsPerSecond != UNSHAPED && rackUplinkBitsPerSecond < MIN_RATE) {
      throw new IllegalArgumentException(
          "rack uplink rate must be at least 8000 bit/s, got " + rackUplinkBitsPerSecond);
    }
    if (rackDownlinkBitsPerSecond != UNSHAPED && rackDownlinkBitsPerSecond < MIN_RATE) {
      throw new IllegalArgumentException(
          "rack downlink rate must be at least 8000 bit/s, got " + rackDownlinkBitsPerSecond);
    }
    if (backboneSideBitsPerSecond == null
        || backboneSideBitsPerSecond.size() != hostsPerSite.size()) {
      throw new IllegalArgumentException(
          "give one backbone rate per site ("
              + hostsPerSite.size()
              + "), got "
              + (backboneSideBitsPerSecond == null ? 0 : backboneSideBitsPerSecond.size()));
    }
    backboneSideBitsPerSecond = List.copyOf(backboneSideBitsPerSecond);
    for (int s = 0; s < backboneSideBitsPerSecond.size(); s++) {
      if (backboneSideBitsPerSecond.get(s) < MIN_RATE) {
        throw new IllegalArgumentException(
            "backbone rate must be at least 8000 bit/s, got "
                + backboneSideBitsPerSecond.get(s)
                + (hostsPerSite.size() == 2 ? "" : " (site " + siteName(s) + ")"));
      }
    }
    if (wanRttMillis < 0 || wanRttMillis > 2_000) {
      throw new IllegalArgumentException("WAN RTT must be 0..2000 ms, got " + wanRttMillis);
    }
    if (tcpCongestionControl == null || !tcpCongestionControl.matches("[a-z0-9_]{1,32}")) {
      throw new IllegalArgumentException(
          "TCP congestion control must be a kernel algorithm name such as bbr or"
              + " cubic, got '"
              + tcpCongestionControl
              + "'");
    }
  }

  /**
   * @return 2 sites of 3 hosts in one rack, NIC 100 Mbit/s, backbone sides 200 Mbit/s, rack links
   *     unshaped, no added latency
   */
  public static TestbedSpec defaults() {
    return new TestbedSpec(3, 3, DEFAULT_NIC, DEFAULT_BACKBONE, 0);
  }

  /**
   * @param site index in site order, from 0
   * @return the site's name: {@code A}, {@code B}, {@code C}, {@code D}
   */
  public static String siteName(int site) {
    return String.valueOf((char) ('A' + site));
  }

  /**
   * @param rttMillis WAN round-trip time, ms
   * @return this spec with another WAN RTT
   */
  public TestbedSpec withRtt(int rttMillis) {
    return new TestbedSpec(
        hostsPerSite,
        racksPerSite,
        nicBitsPerSecond,
        rackUplinkBitsPerSecond,
        rackDownlinkBitsPerSecond,
        backboneSideBitsPerSecond,
        rttMillis,
        tcpCongestionControl);
  }

  /**
   * @param racks racks per site
   * @param uplinkBitsPerSecond each rack's uplink rate, bits/s ({@link #UNSHAPED}: not shaped)
   * @param downlinkBitsPerSecond each rack's downlink rate, bits/s ({@link #UNSHAPED}: not shaped)
   * @return this spec with these racks
   * @throws IllegalArgumentException as the constructor
   */
  public TestbedSpec withRacks(int racks, long uplinkBitsPerSecond, long downlinkBitsPerSecond) {
    return new TestbedSpec(
        hostsPerSite,
        racks,
        nicBitsPerSecond,
        uplinkBitsPerSecond,
        downlinkBitsPerSecond,
        backboneSideBitsPerSecond,
        wanRttMillis,
        tcpCongestionControl);
  }

  /**
   * @param hosts hosts per site, in site order (its size is the number of sites)
   * @param backboneSides each site's backbone side, bits/s, in site order
   * @return this spec with these sites
   * @throws IllegalArgumentException as the constructor
   */
  public TestbedSpec withSites(List<Integer> hosts, List<Long> backboneSides) {
    return new TestbedSpec(
        hosts,
        racksPerSite,
        nicBitsPerSecond,
        rackUplinkBitsPerSecond,
        rackDownlinkBitsPerSecond,
        backboneSides,
        wanRttMillis,
        tcpCongestionControl);
  }

  /**
   * @return the number of sites, 2..4
   */
  public int sites() {
    return hostsPerSite.size();
  }

  /**
   * @return the site names in order: A, B, ...
   */
  public List<String> siteNames() {
    List<String> names = new ArrayList<>();
    for (int s = 0; s < sites(); s++) {
      names.add(siteName(s));
    }
    return names;
  }

  /**
   * @return hosts of site A (a map side)
   */
  public int nodesA() {
    return hostsPerSite.get(0);
  }

  /**
   * @return hosts of site B (the reduce side)
   */
  public int nodesB() {
    return hostsPerSite.get(REDUCE_SITE);
  }

  /**
   * @return hosts of every map site together (every site but B)
   */
  public int mapHosts() {
    return hostsPerSite.stream().mapToInt(Integer::intValue).sum() - nodesB();
  }

  /**
   * @return worker hosts of every site together
   */
  public int workerHosts() {
    return hostsPerSite.stream().mapToInt(Integer::intValue).sum();
  }

  /**
   * The rack of a host: a site's hosts fill its racks in order, the first (h mod R) racks holding
   * one host more.
   *
   * @param site the site's index
   * @param host the host's index within its site, from 0
   * @return its rack's index, from 0
   */
  public int rackOf(int site, int host) {
    int h = hostsPerSite.get(site);
    int base = h / racksPerSite;
    int bigger = h % racksPerSite;
    int inBigger = bigger * (base + 1);
    return host < inBigger ? host / (base + 1) : bigger + (host - inBigger) / base;
  }

  /**
   * @return true when a rack link is shaped (uplink or downlink)
   */
  public boolean racksShaped() {
    return rackUplinkBitsPerSecond != UNSHAPED || rackDownlinkBitsPerSecond != UNSHAPED;
  }

  /**
   * @return true when the hosts hang off a switch per rack (several racks, or shaped rack links);
   *     otherwise every host of a site is on its site's switch
   */
  public boolean rackSwitches() {
    return racksPerSite > 1 || racksShaped();
  }

  /**
   * @param site a site's index
   * @return its backbone side's rate, each direction, bits/s
   */
  public long sideBitsPerSecond(int site) {
    return backboneSideBitsPerSecond.get(site);
  }

  /**
   * The backbone rate the map sites can send into the reduce site B at: the smaller of the summed
   * sides of the map sites and B's side (with two sites the smaller side; the default: 200 Mbit/s).
   * This is the KPBS view's backbone (k = this rate / base speed) that the rack-blind plugin plans
   * on.
   *
   * @return bits/s
   */
  public long backboneBitsPerSecond() {
    long maps = 0;
    for (int s = 0; s < sites(); s++) {
      if (s != REDUCE_SITE) {
        maps += sideBitsPerSecond(s);
      }
    }
    return Math.min(maps, sideBitsPerSecond(REDUCE_SITE));
  }

  /**
   * @return {@link #backboneBitsPerSecond()} in bytes/s
   */
  public double backboneBytesPerSecond() {
    return backboneBitsPerSecond() / 8.0;
  }

  /**
   * @return the NIC rate in bytes/s
   */
  public double nicBytesPerSecond() {
    return nicBitsPerSecond / 8.0;
  }

  /**
   * @return true when every backbone side has the same rate
   */
  public boolean uniformBackbone() {
    return Collections.frequency(backboneSideBitsPerSecond, backboneSideBitsPerSecond.get(0))
        == sites();
  }

  /**
   * @return the shape in words, e.g. {@code 2 sites x 2 racks, 2 + 2 hosts, NIC 100 Mbit/s, rack
   *     uplinks 100 Mbit/s, backbone 200 Mbit/s}
   */
  public String describeShape() {
    StringBuilder sb = new StringBuilder();
    sb.append(sites()).append(" sites");
    if (racksPerSite > 1) {
      sb.append(" x ").append(racksPerSite).append(" racks");
    }
    sb.append(", ")
        .append(String.join(" + ", hostsPerSite.stream().map(String::valueOf).toList()))
        .append(" hosts, NIC ")
        .append(mbit(nicBitsPerSecond));
    if (racksShaped()) {
      sb.append(
          rackUplinkBitsPerSecond == rackDownlinkBitsPerSecond
              ? ", rack uplinks " + mbit(rackUplinkBitsPerSecond)
              : ", rack uplinks "
                  + mbitOrUnshaped(rackUplinkBitsPerSecond)
                  + " / downlinks "
                  + mbitOrUnshaped(rackDownlinkBitsPerSecond));
    }
    sb.append(", backbone ");
    if (uniformBackbone()) {
      sb.append(mbit(sideBitsPerSecond(0)));
    } else {
      List<String> sides = new ArrayList<>();
      for (int s = 0; s < sites(); s++) {
        sides.add(siteName(s) + " " + mbit(sideBitsPerSecond(s)));
      }
      sb.append("sides ").append(String.join(", ", sides));
    }
    return sb.toString();
  }

  private static String mbitOrUnshaped(long bits) {
    return bits == UNSHAPED ? "unshaped" : mbit(bits);
  }

  /**
   * @param bits a rate, bits/s
   * @return it in Mbit/s, e.g. {@code 200 Mbit/s} or {@code 0.500 Mbit/s}
   */
  public static String mbit(long bits) {
    return bits % 1_000_000 == 0
        ? bits / 1_000_000 + " Mbit/s"
        : String.format(Locale.ROOT, "%.3f Mbit/s", bits / 1e6);
  }

  /**
   * Parses a link rate in tc's units: {@code 100mbit}, {@code 1.5gbit}, {@code 500kbit} or {@code
   * 64000bit} (decimal bits per second). A bare number is refused: tc would read it as bits/s, the
   * plugin's rate keys as bytes/s.
   *
   * @param text the rate
   * @return bits per second, at least 1
   * @throws IllegalArgumentException naming the value when it is not a rate with a unit, or is not
   *     above zero
   */
  public static long parseRate(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    long mult = 0;
    for (String[] u :
        new String[][] {
          {"gbit", "1000000000"}, {"mbit", "1000000"}, {"kbit", "1000"}, {"bit", "1"}
        }) {
      if (t.endsWith(u[0])) {
        mult = Long.parseLong(u[1]);
        t = t.substring(0, t.length() - u[0].length()).strip();
        break;
      }
    }
    if (mult == 0) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a rate with a unit (e.g. 100mbit, 1gbit, 500kbit; a bare number is"
              + " refused)");
    }
    double v;
    try {
      v = Double.parseDouble(t);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!t.matches("[0-9.eE+]+") || !(v * mult >= 1) || Double.isInfinite(v * mult)) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a rate of at least 1bit (e.g. 100mbit, 1gbit, 500kbit)");
    }
    return Math.round(v * mult);
  }
}
