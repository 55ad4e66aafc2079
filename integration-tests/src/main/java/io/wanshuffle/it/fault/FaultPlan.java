package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.LinkMeter;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedLayout;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The faults of a run checked against the testbed they go on ({@link TestbedLayout}), each with its
 * target resolved: a link to where it is carried and shaped, a host to its node.
 */
public final class FaultPlan {
  private static final Pattern NIC = Pattern.compile("(nic\\.(?:up|down))\\[(.+)]");

  private final List<Fault> faults;

  /**
   * One checked fault.
   *
   * @param id its number in the plan, from 1 (names its nftables table)
   * @param spec the spec
   * @param link its link (null for a host's fault)
   * @param host its host (null for a link's fault)
   */
  public record Fault(int id, FaultSpec spec, LinkMeter.Probe link, Node host) {
    /**
     * @return the target's canonical name: the link's name (a NIC by address) or the host's name
     */
    public String target() {
      return link != null ? link.link() : arbiter() ? FaultSpec.ARBITER : host.name();
    }

    /**
     * @return true for {@code kill:zookeeper:AT}: the arbiter's ZooKeeper server (on the control
     *     host, {@link #host()}) is killed, not an executor
     */
    public boolean arbiter() {
      return spec.kind() == FaultKind.KILL && FaultSpec.ARBITER.equals(spec.target());
    }
  }

  private FaultPlan(List<Fault> faults) {
    this.faults = List.copyOf(faults);
  }

  /** A plan without faults. */
  public static final FaultPlan NONE = new FaultPlan(List.of());

  /**
   * @param specs the faults, in the order given
   * @param layout the testbed they go on
   * @return the checked plan
   * @throws IllegalArgumentException naming the spec and the problem: an unknown link or host (the
   *     message lists the testbed's), the control host as a target, a delay on a link the delay
   *     line does not carry or on a testbed without one, two rate (or two delay) faults on one link
   *     at the same time
   */
  public static FaultPlan of(List<FaultSpec> specs, TestbedLayout layout) {
    List<Fault> out = new ArrayList<>();
    for (FaultSpec s : specs) {
      Fault f =
          s.kind().onLink()
              ? new Fault(out.size() + 1, s, link(s, layout), null)
              : new Fault(out.size() + 1, s, null, host(s, layout));
      if (s.kind() == FaultKind.DELAY) {
        checkDelay(s, f.link().link(), layout);
      }
      for (Fault g : out) {
        checkNoOverlap(g, f);
      }
      out.add(f);
    }
    return new FaultPlan(out);
  }

  /**
   * @return the faults, in the order given
   */
  public List<Fault> faults() {
    return faults;
  }

  /**
   * @return true when there is no fault
   */
  public boolean isEmpty() {
    return faults.isEmpty();
  }

  /**
   * @return true when a fault is applied with nftables
   */
  public boolean needsNft() {
    return faults.stream().anyMatch(f -> f.spec().kind().needsNft());
  }

  private static LinkMeter.Probe link(FaultSpec s, TestbedLayout layout) {
    String name = s.target();
    Matcher m = NIC.matcher(name);
    if (m.matches()) {
      Optional<Node> h = layout.host(m.group(2));
      if (h.isPresent()) {
        name = m.group(1) + "[" + h.get().address() + "]";
      }
    }
    Optional<LinkMeter.Probe> p = layout.link(name);
    if (p.isEmpty()) {
      throw bad(
          s, "the testbed has no link '" + s.target() + "' (its links: " + links(layout) + ")");
    }
    return p.get();
  }

  /** The testbed's links in words: every rack and backbone link, the NICs by pattern. */
  private static String links(TestbedLayout layout) {
    Set<String> names = new LinkedHashSet<>();
    for (LinkMeter.Probe p : layout.links()) {
      Matcher m = NIC.matcher(p.link());
      names.add(m.matches() ? m.group(1) + "[HOST]" : p.link());
    }
    return String.join(", ", names) + "; HOST: " + hosts(layout);
  }

  private static Node host(FaultSpec s, TestbedLayout layout) {
    if (s.kind() == FaultKind.KILL && FaultSpec.ARBITER.equals(s.target())) {
      return layout.control(); // the arbiter's ZooKeeper server runs beside the drivers
    }
    Optional<Node> h = layout.host(s.target());
    if (h.isEmpty() || h.get().equals(layout.control())) {
      throw bad(
          s,
          (h.isEmpty()
                  ? "the testbed has no host '" + s.target() + "'"
                  : "the control host runs the driver and the cluster manager, not executors")
              + " (worker hosts: "
              + hosts(layout)
              + ")");
    }
    return h.get();
  }

  private static String hosts(TestbedLayout layout) {
    List<Node> w = layout.workers();
    return String.join(", ", w.stream().map(Node::name).toList())
        + " or their addresses "
        + w.get(0).address()
        + ", ...";
  }

  private static void checkDelay(FaultSpec s, String link, TestbedLayout layout) {
    if (layout.spec().wanRttMillis() == 0) {
      throw bad(
          s,
          "the WAN delay line adds delays, and this testbed has none: its WAN round trip is 0 ms"
              + " (give --rtt above 0)");
    }
    if (layout.delayPort(link).isEmpty()) {
      throw bad(
          s,
          "a delay goes on a backbone link (backbone.out[/X] or backbone.in[/X]): only the"
              + " backbone crosses the WAN delay line");
    }
  }

  /**
   * Two rate (or two delay) faults on one link must not overlap: undoing the first would restore
   * the link while the second still holds.
   */
  private static void checkNoOverlap(Fault a, Fault b) {
    FaultKind k = a.spec().kind();
    if (k != b.spec().kind()
        || (k != FaultKind.RATE && k != FaultKind.DELAY)
        || !a.target().equals(b.target())) {
      return;
    }
    boolean overlap =
        a.spec().atMillis() < b.spec().untilMillis()
            && b.spec().atMillis() < a.spec().untilMillis();
    if (overlap) {
      throw bad(
          b.spec(),
          "overlaps '"
              + a.spec().text()
              + "': two "
              + k.word()
              + " faults on "
              + a.target()
              + " at the same time (give one, or let one end before the other starts)");
    }
  }

  private static IllegalArgumentException bad(FaultSpec s, String why) {
    return new IllegalArgumentException("--fault '" + s.text() + "': " + why);
  }
}
