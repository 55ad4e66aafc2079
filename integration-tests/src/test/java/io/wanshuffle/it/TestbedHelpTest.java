package io.wanshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.app.AppCommand;
import io.wanshuffle.it.bench.E2eBenchCommand;
import io.wanshuffle.it.demo.DemoCommand;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Each command's help states its own testbed defaults, and the options keep their order. */
class TestbedHelpTest {
  private static String help(Object command, String option) {
    OptionSpec o = new CommandLine(command).getCommandSpec().findOption(option);
    return o == null ? null : String.join(" ", o.description());
  }

  @Test
  void theDemoSaysItsRackShapeAndRoundTrip() {
    DemoCommand demo = new DemoCommand();
    assertTrue(help(demo, "--rtt").endsWith("(default 40)"), help(demo, "--rtt"));
    assertTrue(help(demo, "--racks").endsWith("(default 2)"), help(demo, "--racks"));
    assertTrue(help(demo, "--hosts").endsWith("(default 4 per site)"), help(demo, "--hosts"));
    assertTrue(
        help(demo, "--rack-uplink").endsWith("(default: the NIC rate, 2:1 oversubscribed)"),
        help(demo, "--rack-uplink"));
    String usage = new CommandLine(new DemoCommand()).getUsageMessage();
    assertTrue(!usage.contains("the demo's"), "no other command's defaults:\n" + usage);
  }

  @Test
  void theOtherCommandsSayTheirs() {
    assertTrue(help(new AppCommand(), "--rtt").endsWith("(default 40)"));
    assertTrue(help(new AppCommand(), "--racks").endsWith("(default 1)"));
    assertTrue(help(new TestbedCommand(), "--rtt").endsWith("(default 0: none)"));
    assertTrue(help(new TestbedCommand(), "--rack-uplink").endsWith("(default none)"));
    assertNull(help(new E2eBenchCommand(), "--rtt"), "e2e-bench's round trips are --rtts");
    assertTrue(
        help(new E2eBenchCommand(), "--hosts")
            .endsWith("(default 3 per site with 2 sites, 2 per site with 3 or 4)"));
  }

  @Test
  void aCommandThatKeepsItsOptionOrderStillDoes() {
    List<String> order =
        new CommandLine(new AppCommand())
            .getCommandSpec().options().stream().map(OptionSpec::longestName).toList();
    assertEquals("--sites", order.get(0), order.toString());
    assertTrue(order.indexOf("--rtt") < order.indexOf("--jar"), order.toString());
    assertEquals("--version", order.get(order.size() - 1), order.toString());
  }
}
