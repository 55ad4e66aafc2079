package io.wanshuffle.it.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.net.LinkMeter;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Node;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How one fault is applied to the testbed and undone, inside the namespaces, each link fault at the
 * interface its frames leave by ({@link LinkMeter.Probe#egressNamespace()}, where its tbf is):
 *
 * <ul>
 *   <li>{@code down}: an nftables table {@code netdev wsfaultN} with a chain on that interface's
 *       egress hook that drops every frame; {@code loss}: the same chain drops a frame when {@code
 *       numgen random mod 10000} is below P x 100. Undone by deleting the table.
 *   <li>{@code rate}: {@code tc qdisc change} of the link's tbf to the new rate (burst and buffer
 *       as the testbed shapes, {@link NamespaceTestbed#tbf}); undone by changing it back to the
 *       rate it had ({@code tc -j qdisc show}). An unshaped rack link gets a tbf ({@code replace}),
 *       deleted when undone.
 *   <li>{@code delay}: the delay line adds the delay on the link's port ({@link
 *       NamespaceTestbed#setExtraDelay}); undone by setting it to 0.
 *   <li>{@code partition}: a {@code netdev wsfaultN} table on the host's port of its site's switch
 *       drops the frames from the host to the control host's address (ingress hook) and from that
 *       address to the host (egress hook): the host's stack sees the loss as a network's, its
 *       traffic with the other hosts goes on. Undone by deleting the table.
 *   <li>{@code kill}: {@code kill -KILL} of every process in the host's namespace whose command
 *       line runs Spark's {@code CoarseGrainedExecutorBackend} ({@code ip netns pids}), or for
 *       {@code kill:zookeeper} the testbed's ZooKeeper server ({@code ZooKeeperMain}) in the
 *       control host's; nothing to undo.
 * </ul>
 */
final class Injection {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a Spark executor's command line contains (standalone and YARN). */
  static final String EXECUTOR_CLASS = "CoarseGrainedExecutorBackend";

  /** What the testbed's ZooKeeper server's command line contains ({@code --arbiter zookeeper}). */
  static final String ZOOKEEPER_CLASS = io.wanshuffle.it.concurrent.ZooKeeperMain.class.getName();

  private final FaultPlan.Fault fault;
  private final FaultNetwork net;
  private List<String> undoCommand;

  /**
   * @param fault the checked fault
   * @param net the testbed it goes on
   */
  Injection(FaultPlan.Fault fault, FaultNetwork net) {
    this.fault = fault;
    this.net = net;
  }

  /**
   * @return true when the fault has something to undo once applied (every kind but kill)
   */
  boolean undoable() {
    return fault.spec().kind().lasts();
  }

  /**
   * Applies the fault.
   *
   * @return what was done, one line for the record
   * @throws IllegalStateException when a command fails (its message names it), or a kill finds no
   *     executor
   */
  String apply() {
    FaultSpec s = fault.spec();
    switch (s.kind()) {
      case DOWN:
        return dropOnLink("drop every frame", "drop");
      case LOSS:
        long below = Math.round(s.argument() * 100);
        return dropOnLink(
            String.format(Locale.ROOT, "drop %.2f %% of the frames", s.argument()),
            "numgen random mod 10000 < " + below + " drop");
      case RATE:
        return rate((long) s.argument());
      case DELAY:
        net.setExtraDelay(fault.link().link(), s.argument());
        return String.format(
            Locale.ROOT, "delay line: +%.1f ms on %s", s.argument(), fault.link().link());
      case PARTITION:
        return partition();
      case KILL:
        return kill();
      default:
        throw new IllegalStateException("unknown kind " + s.kind());
    }
  }

  /**
   * Undoes an applied fault.
   *
   * @throws IllegalStateException when a command fails
   */
  void undo() {
    switch (fault.spec().kind()) {
      case DOWN, LOSS, PARTITION, RATE -> net.run(undoCommand);
      case DELAY -> net.setExtraDelay(fault.link().link(), 0);
      case KILL -> {
        // nothing to undo: Spark's cluster manager starts a new executor
      }
      default -> throw new IllegalStateException("unknown kind " + fault.spec().kind());
    }
  }

  /** nftables' name of the fault's table. */
  private String table() {
    return "wsfault" + fault.id();
  }

  private static List<String> nft(String ns, String script) {
    return List.of("ip", "netns", "exec", ns, "nft", script);
  }

  private static String chain(String table, String name, String hook, String dev, String rule) {
    return String.format(
        "add chain netdev %s %s { type filter hook %s device \"%s\" priority 0 ; policy accept ; } ;"
            + " add rule netdev %s %s %s",
        table, name, hook, dev, table, name, rule);
  }

  private String dropOnLink(String what, String rule) {
    LinkMeter.Probe l = fault.link();
    String ns = l.egressNamespace();
    String dev = l.egressDevice();
    String t = table();
    net.run(nft(ns, "add table netdev " + t + " ; " + chain(t, "egress", "egress", dev, rule)));
    undoCommand = nft(ns, "delete table netdev " + t);
    return "nft table netdev " + t + " in " + ns + ": " + what + " leaving by " + dev;
  }

  private String partition() {
    Node h = fault.host();
    String control = net.layout().control().address();
    LinkMeter.Probe port =
        net.layout()
            .link("nic.down[" + h.address() + "]")
            .orElseThrow(() -> new IllegalStateException("no switch port of " + h.name()));
    String ns = port.ns();
    String dev = port.dev();
    String t = table();
    net.run(
        nft(
            ns,
            "add table netdev "
                + t
                + " ; "
                + chain(t, "from_host", "ingress", dev, "ip daddr " + control + " drop")
                + " ; "
                + chain(t, "to_host", "egress", dev, "ip saddr " + control + " drop")));
    undoCommand = nft(ns, "delete table netdev " + t);
    return "nft table netdev "
        + t
        + " in "
        + ns
        + ": drop "
        + h.name()
        + "'s frames to and from "
        + control
        + " on its port "
        + dev;
  }

  private String rate(long bitsPerSecond) {
    LinkMeter.Probe l = fault.link();
    String ns = l.egressNamespace();
    String dev = l.egressDevice();
    int rtt = net.layout().spec().wanRttMillis();
    long restoreRate = tbfRate(ns, dev);
    if (restoreRate > 0) {
      net.run(NamespaceTestbed.tbf("change", ns, dev, bitsPerSecond, rtt));
      undoCommand = NamespaceTestbed.tbf("change", ns, dev, restoreRate, rtt);
      return "tbf on " + dev + " in " + ns + ": " + restoreRate + " -> " + bitsPerSecond + " bit/s";
    }
    net.run(NamespaceTestbed.tbf("replace", ns, dev, bitsPerSecond, rtt));
    undoCommand = List.of("tc", "-n", ns, "qdisc", "del", "dev", dev, "root");
    return "tbf on " + dev + " in " + ns + ": unshaped -> " + bitsPerSecond + " bit/s";
  }

  /**
   * @return the rate of the root tbf on the interface, bits/s; 0 when it has none
   */
  private long tbfRate(String ns, String dev) {
    String out = net.run(List.of("tc", "-n", ns, "-j", "qdisc", "show", "dev", dev));
    try {
      for (JsonNode q : JSON.readTree(out)) {
        if ("tbf".equals(q.path("kind").asText()) && q.path("root").asBoolean()) {
          return q.path("options").path("rate").asLong() * 8;
        }
      }
      return 0;
    } catch (IOException e) {
      throw new IllegalStateException(
          "unexpected output of tc qdisc show on " + dev + ": " + out, e);
    }
  }

  private String kill() {
    Node h = fault.host();
    String what = fault.arbiter() ? ZOOKEEPER_CLASS : EXECUTOR_CLASS;
    List<String> pids = new ArrayList<>();
    for (String pid : net.run(List.of("ip", "netns", "pids", h.namespace())).split("\\s+")) {
      if (!pid.isBlank()
          && net.commandLine(Long.parseLong(pid.strip()))
              .map(c -> c.contains(what))
              .orElse(false)) {
        pids.add(pid.strip());
      }
    }
    if (pids.isEmpty()) {
      throw new IllegalStateException(
          (fault.arbiter()
                  ? "no ZooKeeper server runs (run with --arbiter zookeeper)"
                  : "no Spark executor runs on " + h.name())
              + " (namespace "
              + h.namespace()
              + ")");
    }
    List<String> cmd = new ArrayList<>(List.of("kill", "-KILL"));
    cmd.addAll(pids);
    net.run(cmd);
    return "SIGKILL to the "
        + (fault.arbiter() ? "ZooKeeper server" : "executor(s)")
        + " on "
        + h.name()
        + ": pid "
        + String.join(", ", pids);
  }
}
