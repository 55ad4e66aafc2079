package io.wanshuffle.it;

import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.FlowProbe;
import io.wanshuffle.it.net.HandshakeProbe;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code wan-shuffle testbed up|probe|down}: build, measure, or clean up the two-cluster network
 * testbed.
 */
@Command(
    name = "testbed",
    modelTransformer = TestbedCommand.Help.class,
    mixinStandardHelpOptions = true,
    header = "Build, probe or remove the two-site network testbed.",
    description = {
      "Builds the network testbed (root + iproute2), measures it, or removes it, as <action> says."
    })
public final class TestbedCommand implements Callable<Integer> {

  /** Gives the testbed options' help this command's defaults ({@link TestbedHelp}). */
  public static final class Help implements picocli.CommandLine.IModelTransformer {
    @Override
    public picocli.CommandLine.Model.CommandSpec transform(
        picocli.CommandLine.Model.CommandSpec spec) {
      return TestbedHelp.withDefaults(spec, 0, TestbedOptions.GENERAL_SHAPE);
    }
  }

  @Parameters(
      index = "0",
      paramLabel = "<action>",
      description = {
        "up: build it and keep it until Ctrl-C (prints the hosts, the topology table and file);",
        "probe: build it, time TCP handshakes a1 -> b1 (the WAN round trip), send TCP from every"
            + " map-side host to every B host, report the backbone's and each shaped link's"
            + " throughput, tear down;",
        "down: remove the namespaces (wst-*) a crashed run left behind"
      })
  String action;

  @Mixin TestbedOptions net;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec commandSpec;

  @Option(
      names = "--seconds",
      paramLabel = "SECONDS",
      defaultValue = "8",
      converter = io.wanshuffle.cli.units.DurationConverters.WholeSeconds.class,
      description =
          "probe duration: whole seconds up to 3600, or a duration such as 1min (default"
              + " ${DEFAULT-VALUE})")
  int seconds;

  private TestbedSpec spec() {
    return TestbedOptions.checked(commandSpec.commandLine(), net::spec);
  }

  @Override
  public Integer call() throws Exception {
    switch (action) {
      case "down":
        NamespaceTestbed.removeLeftovers();
        System.out.println("removed every wst-* namespace");
        return 0;
      case "up":
        try (Testbed t = Testbed.open(spec())) {
          System.out.println(t.describe());
          System.out.println("control " + t.control());
          t.workers().forEach(n -> System.out.println("worker  " + n));
          java.nio.file.Path table =
              t.writeTopologyTable(java.nio.file.Path.of("run", "topology.table"));
          System.out.println("topology table: " + table);
          System.out.println(
              "topology file: "
                  + t.writeTopologyConfig(
                      table.resolveSibling("topology.conf"), table.getFileName().toString()));
          System.out.println("Ctrl-C tears it down.");
          Thread.sleep(Long.MAX_VALUE);
        }
        return 0;
      case "probe":
        if (seconds > 3600) {
          throw new picocli.CommandLine.ParameterException(
              commandSpec.commandLine(),
              "--seconds: the probe's duration must be 1..3600 s, got " + seconds);
        }
        TestbedSpec spec = spec();
        try (Testbed t = Testbed.open(spec)) {
          System.out.println(t.describe());
          String cp = System.getProperty("java.class.path");
          Node a1 = t.clusterA().get(0);
          Node b1 = t.clusterB().get(0);
          System.out.printf(
              "round trip %s -> %s (TCP handshake, median of 5): %.1f ms%n",
              a1.name(), b1.name(), HandshakeProbe.median(HandshakeProbe.millis(a1, b1, 5, cp)));
          FlowProbe.Measured m = FlowProbe.runMeasured(t, seconds, cp);
          BackboneTrace tr = m.backbone();
          double secs = (tr.end().epochMillis() - tr.start().epochMillis()) / 1000.0;
          System.out.printf(
              "%s %.1f MB in %.1f s: mean %.1f Mbit/s, peak (1 s) %.1f Mbit/s, backbone %.0f Mbit/s;"
                  + " TCP retransmitted %d of %d segments; tbf drops %d%n",
              spec.sites() == 2 ? "A->B" : "into B",
              tr.aToBBytes() / 1e6,
              secs,
              tr.aToBBytes() * 8 / secs / 1e6,
              tr.peakBitsPerSecond(1000) / 1e6,
              tr.rateBitsPerSecond() / 1e6,
              tr.retransmittedSegments(),
              tr.sentSegments(),
              tr.tbfDrops());
          for (LinkTrace.Series s : m.links().series().values()) {
            if (s.totalBytes() > 0 && !s.link().startsWith("nic.")) {
              System.out.printf(
                  "  %-26s %7.1f MB, mean %6.1f Mbit/s, peak (1 s) %6.1f Mbit/s, rate %s, tbf drops"
                      + " %s%n",
                  s.link(),
                  s.totalBytes() / 1e6,
                  s.totalBytes() * 8 / secs / 1e6,
                  s.peakBitsPerSecond(1000) / 1e6,
                  s.rateBitsPerSecond() == TestbedSpec.UNSHAPED
                      ? "unshaped"
                      : TestbedSpec.mbit(s.rateBitsPerSecond()),
                  s.drops() < 0 ? "-" : Long.toString(s.drops()));
            }
          }
        }
        return 0;
      default:
        throw new picocli.CommandLine.ParameterException(
            commandSpec.commandLine(),
            "testbed: unknown action '" + action + "' (use up, probe or down)");
    }
  }
}
