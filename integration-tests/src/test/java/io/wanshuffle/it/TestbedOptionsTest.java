package io.wanshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class TestbedOptionsTest {
  private static final long M = 1_000_000;

  @Command(name = "x")
  static final class Cmd implements java.util.concurrent.Callable<Integer> {
    @Mixin TestbedOptions net;
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      TestbedOptions.checked(spec.commandLine(), net::spec);
      return 0;
    }
  }

  private static TestbedOptions parse(String... args) {
    Cmd c = new Cmd();
    new CommandLine(c).parseArgs(args);
    return c.net;
  }

  private static String refused(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> parse(args).spec()).getMessage();
  }

  @Test
  void withoutShapeOptionsTheTestbedIsTodays() {
    assertEquals(TestbedSpec.defaults(), parse().spec());
    assertEquals(
        TestbedOptions.shapeOptions(TestbedSpec.defaults()),
        " --nodes-a 3 --nodes-b 3 --nic 100mbit --backbone 200mbit");
    assertEquals(List.of(2, 4), parse("--nodes-a", "2", "--nodes-b", "4").spec().hostsPerSite());
  }

  @Test
  void sitesRacksUplinksAndOneBackboneRatePerSite() {
    TestbedSpec s =
        parse(
                "--sites",
                "3",
                "--racks",
                "2",
                "--rack-uplink",
                "50mbit",
                "--backbone",
                "100mbit,200mbit,150mbit")
            .spec();
    assertEquals(List.of(2, 2, 2), s.hostsPerSite(), "2 per site beyond two sites");
    assertEquals(2, s.racksPerSite());
    assertEquals(50 * M, s.rackUplinkBitsPerSecond());
    assertEquals(50 * M, s.rackDownlinkBitsPerSecond(), "--rack-uplink sets both directions");
    assertEquals(List.of(100 * M, 200 * M, 150 * M), s.backboneSideBitsPerSecond());
    assertEquals(
        " --sites 3 --racks 2 --hosts 2,2,2 --nic 100mbit --rack-uplink 50mbit --backbone"
            + " 100mbit,200mbit,150mbit",
        TestbedOptions.shapeOptions(s));
    TestbedSpec one = parse("--sites", "4", "--hosts", "1", "--backbone", "300mbit").spec();
    assertEquals(List.of(1, 1, 1, 1), one.hostsPerSite());
    assertEquals(List.of(300 * M, 300 * M, 300 * M, 300 * M), one.backboneSideBitsPerSecond());
    assertEquals(
        List.of(3, 1), parse("--hosts", "3,1").spec().hostsPerSite(), "one count per site");
    assertEquals(
        TestbedSpec.UNSHAPED,
        parse("--racks", "2", "--rack-uplink", "none").spec().rackUplinkBitsPerSecond());
  }

  @Test
  void aCommandsOwnShapeAppliesWhereTheOptionsSayNothing() {
    TestbedOptions o = parse();
    o.shapeDefaults(new TestbedOptions.ShapeDefaults(2, 2, true));
    TestbedSpec s = o.spec();
    assertEquals(List.of(2, 2), s.hostsPerSite());
    assertEquals(2, s.racksPerSite());
    assertEquals(100 * M, s.rackUplinkBitsPerSecond(), "2:1 with two hosts per rack");
    TestbedOptions given = parse("--racks", "1", "--hosts", "3", "--rack-uplink", "none");
    given.shapeDefaults(new TestbedOptions.ShapeDefaults(2, 2, true));
    assertEquals(TestbedSpec.defaults(), given.spec(), "given options win");
  }

  @Test
  void badShapesAreRefusedByOption() {
    assertEquals("--sites: must be 2..4, got 5", refused("--sites", "5"));
    assertEquals("--racks: must be 1..4, got 0", refused("--racks", "0"));
    assertEquals(
        "--backbone: give one rate for every site or one per site (3), got 2",
        refused("--sites", "3", "--backbone", "1mbit,2mbit"));
    assertEquals(
        "--hosts: give one count for every site or one per site (2), got 3",
        refused("--hosts", "1,2,3"));
    assertEquals(
        "--hosts and --nodes-a/--nodes-b: give the hosts per site one way, got both",
        refused("--hosts", "2", "--nodes-a", "2"));
    assertEquals(
        "site A has 1 host(s) for 2 racks: every rack needs a host",
        refused("--racks", "2", "--hosts", "1"));
  }

  /** Rates and the round trip are read by picocli's converters: a bad one fails the parse. */
  @Test
  void badRatesAndRoundTripsAreRefusedWhileParsing() {
    String[][] cases = {
      {"--rack-uplink", "fast", "'fast' is not a rate with a unit"},
      {"--nic", "100", "'100' is not a rate with a unit"},
      {"--backbone", "200mbit,0mbit", "'0mbit' is not a rate of at least 1bit"},
      {"--rtt", "-5", "'-5' is negative"},
      {"--rtt", "40.5", "'40.5' is not a whole number of milliseconds"},
      {"--rtt", "40parsecs", "'40parsecs' has an unknown unit"}
    };
    for (String[] c : cases) {
      CommandLine.ParameterException e =
          assertThrows(CommandLine.ParameterException.class, () -> parse(c[0], c[1]));
      assertTrue(
          e.getMessage().startsWith("Invalid value for option '" + c[0] + "'"), e.getMessage());
      assertTrue(e.getMessage().contains(": " + c[2]), e.getMessage());
    }
    assertEquals(40, parse("--rtt", "0.04s").spec().wanRttMillis());
    assertEquals(64_000L, parse("--nic", "64kbit").spec().nicBitsPerSecond());
    assertEquals(
        " --nodes-a 3 --nodes-b 3 --nic 64kbit --backbone 200mbit",
        TestbedOptions.shapeOptions(parse("--nic", "64kbit").spec()),
        "the reports' command lines print rates the options take");
  }

  @Test
  void aBadShapeIsAUsageErrorOfTheCommand() {
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new Cmd()).setErr(new PrintWriter(err, true));
    assertEquals(2, cl.execute("--sites", "9"));
    assertTrue(err.toString().contains("--sites: must be 2..4, got 9"), err.toString());
  }
}
