package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.spark.SparkLines;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AppCommandTest {
  @TempDir Path dir;

  /**
   * {@code --loopback} selects the loopback testbed for the whole JVM: the other tests must not
   * inherit it.
   */
  private final String testbedMode = System.getProperty(io.wanshuffle.it.net.Testbed.MODE_PROPERTY);

  @org.junit.jupiter.api.AfterEach
  void restoreTheTestbedChoice() {
    if (testbedMode == null) {
      System.clearProperty(io.wanshuffle.it.net.Testbed.MODE_PROPERTY);
    } else {
      System.setProperty(io.wanshuffle.it.net.Testbed.MODE_PROPERTY, testbedMode);
    }
  }

  /** Runs the command line as {@code wan-shuffle run-app} does; returns exit status and stderr. */
  private static Object[] execute(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new AppCommand()).setErr(new PrintWriter(err));
    int status = cl.execute(args);
    return new Object[] {status, err.toString()};
  }

  @Test
  void optionsAppArgumentsAndDefaults() throws Exception {
    AppCommand cmd = new AppCommand();
    new CommandLine(cmd)
        .parseArgs(
            "--jar",
            "app.jar",
            "--class",
            "a.B",
            "--conf",
            "spark.sql.shuffle.partitions=12",
            "--plugin-conf",
            "spark.wanshuffle.k=1",
            "--timeout",
            "90s",
            "--",
            "--in",
            "x=y",
            "3");
    assertEquals(List.of("default", "auto"), cmd.variants);
    assertEquals(Map.of("spark.sql.shuffle.partitions", "12"), cmd.conf);
    assertEquals(Map.of("spark.wanshuffle.k", "1"), cmd.pluginConf);
    assertEquals(
        List.of("--in", "x=y", "3"), cmd.appArgs, "after --: the application's, untouched");
    assertEquals(Duration.ofSeconds(90), cmd.timeout);
    assertEquals(1, cmd.runs);
    assertEquals("standalone", cmd.master);
    assertEquals("client", cmd.deployMode);
    assertEquals(AppCommand.DEFAULT_RTT_MS, cmd.net.spec(AppCommand.DEFAULT_RTT_MS).wanRttMillis());
  }

  @Test
  void badArgumentsAreRefusedByNameBeforeAnyTestbedStarts() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    Object[] r = execute("--jar", dir.resolve("missing.jar").toString());
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("--jar: no such file"), (String) r[1]);
    r = execute("--jar", jar.toString(), "--variants", "default,ogpp");
    assertEquals(2, r[0]);
    assertTrue(
        ((String) r[1]).contains("unknown variant 'ogpp'") && ((String) r[1]).contains("oggp"),
        (String) r[1]);
    r = execute("--jar", jar.toString(), "--variants", "auto,auto");
    assertTrue(((String) r[1]).contains("give each variant once"), (String) r[1]);
    r = execute("--jar", jar.toString(), "--runs", "0");
    assertTrue(((String) r[1]).contains("--runs and --cores must be >= 1"), (String) r[1]);
    r = execute("--jar", jar.toString(), "--master", "mesos");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("--master: use standalone or yarn"), (String) r[1]);
    r = execute("--jar", jar.toString(), "--deploy-mode", "cluster");
    assertEquals(2, r[0]);
    assertTrue(
        ((String) r[1]).contains("--deploy-mode: client, or cluster with --master yarn"),
        (String) r[1]);
    r = execute("--jar", jar.toString(), "--timeout", "soon");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("'soon' is not a duration"), (String) r[1]);
  }

  @Test
  void anUnsupportedSparkVersionIsRefusedWithTheSupportedLines() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "");
    for (String v : List.of("3.4.1", "4.1.3_2.12", "latest")) {
      Object[] r = execute("--jar", jar.toString(), "--spark-version", v);
      assertEquals(2, r[0], v);
      assertTrue(
          r[1].toString()
              .contains(
                  "supported lines: 3.5 (Scala 2.12, 2.13), 4.0 (Scala 2.13), 4.1 (Scala 2.13),"
                      + " 4.2 (Scala 2.13)"),
          r[1].toString());
    }
  }

  @Test
  void aPluginSettingThePluginWouldRefuseStopsTheCommandBeforeAnyRun() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    // --loopback: were the check missing, a loopback cluster would start and the default run go
    // first
    Object[] r =
        execute(
            "--jar",
            jar.toString(),
            "--loopback",
            "--out",
            dir.toString(),
            "--plugin-conf",
            "spark.wanshuffle.k=0");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("spark.wanshuffle.k = '0'"), (String) r[1]);
    r =
        execute(
            "--jar",
            jar.toString(),
            "--loopback",
            "--out",
            dir.toString(),
            "--variants",
            "default,oggp",
            "--conf",
            "spark.wanshuffle.beta=soon");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("spark.wanshuffle.beta"), (String) r[1]);
    // k above the testbed backbone's bytes/s is refused with the testbed's rates, not the plugin's
    // defaults
    r =
        execute(
            "--jar",
            jar.toString(),
            "--loopback",
            "--out",
            dir.toString(),
            "--backbone",
            "800kbit",
            "--nic",
            "800kbit",
            "--plugin-conf",
            "spark.wanshuffle.k=200000");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("spark.wanshuffle.k"), (String) r[1]);
  }

  @Test
  void aBadTestbedShapeIsAUsageErrorAndARackBlindVariantIsKnown() throws Exception {
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    String out = dir.toString();
    Object[] r = execute("--jar", jar.toString(), "--loopback", "--out", out, "--sites", "5");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("--sites: must be 2..4, got 5"), (String) r[1]);
    // the rack-blind variant passes the variant check; the shape is refused next
    r =
        execute(
            "--jar",
            jar.toString(),
            "--loopback",
            "--out",
            out,
            "--variants",
            "default,auto-rackblind,auto",
            "--backbone",
            "1mbit,2mbit,3mbit");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(
        ((String) r[1]).contains("--backbone: give one rate for every site or one per site (2)"),
        (String) r[1]);
    r = execute("--jar", jar.toString(), "--variants", "default,ogpp-rackblind");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("unknown variant 'ogpp-rackblind'"), (String) r[1]);
    r = execute("--jar", jar.toString(), "--loopback", "--out", out, "--rack-uplink", "slow");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(
        ((String) r[1]).contains("option '--rack-uplink': 'slow' is not a rate"), (String) r[1]);
  }

  /** The YARN testbed runs Spark 4.2.0: asking for that version there is no conflict. */
  @Test
  void onYarnOnlyTheYarnTestbedsOwnSparkVersionIsAccepted() throws Exception {
    for (String v : List.of("4.2.0", "4.2", "4.2.0_2.13")) {
      assertTrue(AppCommand.onTheYarnTestbed(SparkLines.resolve(v)), v);
    }
    for (String v : List.of("4.2.1", "4.1.3", "3.5.7")) {
      assertFalse(AppCommand.onTheYarnTestbed(SparkLines.resolve(v)), v);
    }
    Path jar = Files.writeString(dir.resolve("app.jar"), "x");
    Object[] r = execute("--jar", jar.toString(), "--master", "yarn", "--spark-version", "3.5.7");
    assertEquals(2, r[0], (String) r[1]);
    assertTrue(
        ((String) r[1]).contains("--spark-version 3.5.7 cannot run with --master yarn")
            && ((String) r[1]).contains("runs Spark 4.2.0 (Scala 2.13) only"),
        (String) r[1]);
  }

  /** A bare number is seconds: {@code --timeout 900} is 15 minutes, not 900 ms. */
  @Test
  void aTimeoutWithoutUnitIsSeconds() {
    AppCommand cmd = new AppCommand();
    new CommandLine(cmd).parseArgs("--jar", "app.jar", "--timeout", "900");
    assertEquals(Duration.ofMinutes(15), cmd.timeout);
    for (String bad : List.of("0", "-5", "5parsecs", "0.0001")) {
      Object[] r = execute("--jar", "app.jar", "--timeout", bad);
      assertEquals(2, r[0], bad);
      assertTrue(((String) r[1]).contains("option '--timeout': '" + bad + "'"), (String) r[1]);
    }
  }
}
