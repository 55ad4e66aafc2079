package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.app.AppCommand;
import io.wanshuffle.it.bench.E2eBenchCommand;
import io.wanshuffle.it.net.Testbed;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FaultOptionsTest {
  @TempDir Path dir;

  /**
   * {@code --loopback} selects the loopback testbed for the whole JVM: restored after each test.
   */
  private final String testbedMode = System.getProperty(Testbed.MODE_PROPERTY);

  @AfterEach
  void restoreTheTestbedChoice() {
    if (testbedMode == null) {
      System.clearProperty(Testbed.MODE_PROPERTY);
    } else {
      System.setProperty(Testbed.MODE_PROPERTY, testbedMode);
    }
  }

  /** Runs a command as {@code wan-shuffle} does; returns exit status and stderr. */
  private static Object[] execute(Object command, String... args) {
    StringWriter err = new StringWriter();
    int status = new CommandLine(command).setErr(new PrintWriter(err)).execute(args);
    return new Object[] {status, err.toString()};
  }

  @Test
  void aBadSpecStopsRunAppAndE2eBenchWithStatusTwoNamingIt() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    Object[] r = execute(new AppCommand(), "--jar", jar.toString(), "--fault", "flood:b1:1:1");
    assertEquals(2, r[0]);
    assertTrue(
        r[1].toString()
            .contains(
                "Invalid value for option '--fault' (SPEC): 'flood:b1:1:1': unknown fault kind 'flood'"
                    + " (known: down, loss, rate, delay, partition, kill)"),
        r[1].toString());
    // a link the testbed does not have: refused before any testbed starts
    System.clearProperty(Testbed.MODE_PROPERTY);
    r =
        execute(
            new E2eBenchCommand(),
            "--patterns",
            "uniform",
            "--out",
            dir.toString(),
            "--report",
            dir.resolve("r.md").toString(),
            "--fault",
            "down:backbone.out[/C]:10:30");
    assertEquals(2, r[0], r[1].toString());
    assertTrue(
        r[1].toString().contains("--fault 'down:backbone.out[/C]:10:30': the testbed has no link"),
        r[1].toString());
    assertTrue(Files.notExists(dir.resolve("r.md")), "nothing was run or written");
    // a delay on a testbed without a WAN round trip
    r =
        execute(
            new E2eBenchCommand(),
            "--patterns",
            "uniform",
            "--rtts",
            "0",
            "--out",
            dir.toString(),
            "--fault",
            "delay:backbone.out[/A]:0:rest:20");
    assertEquals(2, r[0], r[1].toString());
    assertTrue(r[1].toString().contains("its WAN round trip is 0 ms"), r[1].toString());
  }

  @Test
  void faultsNeedTheNamespaceTestbed() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    Object[] r =
        execute(
            new AppCommand(),
            "--jar",
            jar.toString(),
            "--loopback",
            "--out",
            dir.toString(),
            "--fault",
            "kill:b1:5");
    assertEquals(2, r[0], r[1].toString());
    assertTrue(
        r[1].toString().contains("--fault needs the network-namespace testbed"), r[1].toString());
  }

  @Test
  void theRunsSettingsGetTheListenerAfterTheirOwn() throws Exception {
    Path jar = FaultOptions.listenerJar(dir);
    try (JarFile j = new JarFile(jar.toFile())) {
      assertEquals(
          List.of("io/wanshuffle/it/fault/ReduceStageSignal.class"),
          Collections.list(j.entries()).stream().map(e -> e.getName()).toList(),
          "the listener alone: the driver's class path gets nothing else");
    }
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.extraListeners", "my.Listener");
    FaultOptions.addListener(conf, jar, dir.resolve("x.signal"));
    assertEquals(
        "my.Listener," + ReduceStageSignal.class.getName(), conf.get("spark.extraListeners"));
    assertEquals(jar.toAbsolutePath().toString(), conf.get("spark.driver.extraClassPath"));
    assertEquals(
        dir.resolve("x.signal").toAbsolutePath().toString(), conf.get(ReduceStageSignal.FILE_KEY));
    FaultOptions o = new FaultOptions();
    new CommandLine(o)
        .parseArgs("--fault", "rate:backbone.out[/A]:0:rest:50mbit", "--fault", "kill:b1:3");
    assertEquals(
        " --fault 'rate:backbone.out[/A]:0:rest:50mbit' --fault 'kill:b1:3'", o.commandLine());
    assertThrows(
        CommandLine.ParameterException.class,
        () -> {
          FaultOptions bad = new FaultOptions();
          CommandLine cl = new CommandLine(bad);
          cl.parseArgs("--fault", "partition:ctl:0:1");
          bad.check(cl, io.wanshuffle.it.net.TestbedSpec.defaults());
        });
  }

  @Test
  void docsCliMdsFaultSectionHasTheOptionAsTheHelpSaysIt() throws Exception {
    Path doc = Path.of("..", "docs", "cli.md");
    String md = Files.readString(Files.exists(doc) ? doc : Path.of("docs", "cli.md"));
    int start = md.indexOf("\n## Faults on the testbed: `--fault`");
    assertTrue(start >= 0, "docs/cli.md has no section on --fault");
    int end = md.indexOf("\n## ", start + 1);
    List<String> rows = new ArrayList<>();
    md.substring(start, end < 0 ? md.length() : end)
        .lines()
        .filter(l -> l.startsWith("| `--fault SPEC` |"))
        .forEach(rows::add);
    // the help as picocli prints it: %% is its escape of a %
    assertEquals(
        List.of("| `--fault SPEC` | " + FaultOptions.HELP.replace("%%", "%") + " |"), rows);
  }
}
