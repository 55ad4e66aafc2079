package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.SparkLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * The smoke test of one Spark line: {@code wan-shuffle run-app --spark-version <line>} on the
 * loopback two-cluster (2 + 2 hosts) runs {@link LineSmoke} (reduceByKey, groupByKey, a Spark SQL
 * join + aggregation with AQE) on that line's Spark home with the line's plugin jar. Checks: it
 * succeeds, its stdout is the sort shuffle's ({@link LineSmokeOracle}), the plugin granted steps
 * and held at most k gated flows at once each way (its capture), and the driver log shows the
 * line's Spark version.
 */
abstract class SparkLineSmoke {
  static final int RECORDS = 200_000;
  static final int PARTITIONS = 8;

  /**
   * Runs the smoke test on a line.
   *
   * @param name the line, {@code <line>_<scala>}, e.g. {@code 3.5_2.12}
   */
  static void smoke(String name) throws IOException {
    SparkLines.Line line = SparkLines.line(name);
    Path out =
        Path.of(
            System.getProperty("wanshuffle.it.runDir", "target/it-runs"),
            "line-" + name + "-" + System.currentTimeMillis());
    String before = System.getProperty(Testbed.MODE_PROPERTY);
    AppCommand cmd = new AppCommand();
    List<String> args =
        List.of(
            "--jar",
            AppJars.jarOf(LineSmoke.class, out).toString(),
            "--class",
            LineSmoke.class.getName(),
            "--loopback",
            "--nodes-a",
            "2",
            "--nodes-b",
            "2",
            "--rtt",
            "0",
            "--executor-memory",
            "512m",
            "--spark-version",
            line.version() + "_" + line.scala(),
            "--variants",
            "auto",
            "--timeout",
            "5min",
            "--out",
            out.toString(),
            "--plugin-conf",
            "spark.wanshuffle.gate.minBytes=0",
            "--",
            Integer.toString(RECORDS),
            Integer.toString(PARTITIONS));
    int status;
    try {
      status = new CommandLine(cmd).execute(args.toArray(String[]::new));
    } finally {
      // --loopback sets the testbed variant for the whole JVM: give the other ITs theirs back
      if (before == null) {
        System.clearProperty(Testbed.MODE_PROPERTY);
      } else {
        System.setProperty(Testbed.MODE_PROPERTY, before);
      }
    }
    assertEquals(1, cmd.figures.size(), "one run: " + cmd.figures);
    AppFigures wan = cmd.figures.get(0);
    assertNull(wan.failure(), "Spark " + name + " with wan-shuffle: " + wan);
    assertEquals(0, status, String.join(" ", args));
    List<String> answer = Files.readAllLines(out.resolve("01-auto-1").resolve("stdout.txt"));
    assertEquals(
        LineSmokeOracle.stdout(RECORDS, PARTITIONS),
        answer,
        "the answers of Spark " + name + "'s sort shuffle");
    assertTrue(wan.k() >= 1 && wan.steps() >= 1, "the plugin granted steps: " + wan);
    assertTrue(
        wan.gatedAtOnceAToB() + wan.gatedAtOnceBToA() >= 1, "gated cross-cluster flows: " + wan);
    assertTrue(wan.withinK(), "at most k gated flows at once each way: " + wan);
    String driverLog = Files.readString(out.resolve("spark").resolve("driver-01-auto-1.log"));
    assertTrue(
        driverLog.contains("Running Spark version " + line.version()),
        "the application ran on Spark " + line.version());
  }
}
