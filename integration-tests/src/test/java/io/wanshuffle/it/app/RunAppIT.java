package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.AppJars;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code wan-shuffle run-app} as a user runs it: a Spark application of its own jar ({@link
 * GeneratedSort}) submitted with spark-submit on a 2 + 2 testbed, with Spark's default shuffle and
 * with wan-shuffle; a failing application.
 *
 * <p>Needs root and iproute2 (the command itself would fall back to loopback: here that fails, with
 * the reason); {@code -Dwanshuffle.testbed=loopback} runs it on loopback addresses instead.
 */
class RunAppIT {
  static final int RECORDS = 300_000;
  static final int PARTITIONS = 8;
  static Path runs;

  @BeforeAll
  static void requireTheTestbed() throws IOException {
    runs =
        Files.createDirectories(
            Path.of(
                System.getProperty("wanshuffle.it.runDir", "target/it-runs"),
                "run-app-" + System.currentTimeMillis()));
    if (!Testbed.loopbackRequested()) {
      String missing =
          NamespaceTestbed.missingPrerequisite(
              new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0));
      assertNull(
          missing,
          "the shaped testbed cannot be built here (use -D" + Testbed.MODE_PROPERTY + "=loopback)");
    }
  }

  private static AppCommand execute(int expectedStatus, String... args) {
    AppCommand cmd = new AppCommand();
    List<String> all =
        new ArrayList<>(
            List.of(
                "--jar",
                AppJars.jarOf(GeneratedSort.class, runs).toString(),
                "--class",
                GeneratedSort.class.getName(),
                "--nodes-a",
                "2",
                "--nodes-b",
                "2",
                "--rtt",
                "0",
                "--executor-memory",
                "512m"));
    all.addAll(List.of(args));
    assertEquals(
        expectedStatus,
        new CommandLine(cmd).execute(all.toArray(String[]::new)),
        String.join(" ", all));
    return cmd;
  }

  @Test
  void anApplicationRunsWithAndWithoutThePluginWithTheSameOutputAndWithinK() throws IOException {
    Path out = runs.resolve("sort");
    // about 2 MB of cross-cluster bytes per read: below the automatic threshold, so every read is
    // gated explicitly
    AppCommand cmd =
        execute(
            0,
            "--variants",
            "default,auto",
            "--check-output",
            "--out",
            out.toString(),
            "--plugin-conf",
            "spark.wanshuffle.gate.minBytes=0",
            "--",
            Integer.toString(RECORDS),
            Integer.toString(PARTITIONS));
    assertEquals(2, cmd.figures.size());
    AppFigures plain = cmd.figures.get(0);
    AppFigures wan = cmd.figures.get(1);
    assertNull(plain.failure());
    assertNull(wan.failure());
    assertEquals(
        plain.stdoutSha256(), wan.stdoutSha256(), "the same answer with and without the plugin");
    List<String> answer = Files.readAllLines(out.resolve("02-auto-1").resolve("stdout.txt"));
    assertEquals(PARTITIONS + 1, answer.size(), answer.toString());
    assertEquals("sorted true", answer.get(PARTITIONS));
    assertEquals(
        RECORDS,
        answer.subList(0, PARTITIONS).stream()
            .mapToLong(l -> Long.parseLong(l.split(" ")[1]))
            .sum(),
        "every record once");
    // Spark's event log: the sort's shuffle was read by a stage of PARTITIONS tasks, partly from
    // other executors
    for (AppFigures f : cmd.figures) {
      StageRun sort =
          f.log().shuffleReadStages().stream()
              .filter(s -> s.tasks() == PARTITIONS)
              .findFirst()
              .orElseThrow(
                  () ->
                      new AssertionError(
                          "no shuffle-reading stage of "
                              + PARTITIONS
                              + " tasks: "
                              + f.log().stages()));
      assertTrue(sort.remoteBytesRead() > 0 && sort.seconds() > 0, sort.toString());
    }
    assertEquals(0, plain.k(), "no plugin, no capture");
    assertTrue(wan.k() >= 1 && wan.steps() >= 1, "the plugin granted steps: " + wan);
    assertTrue(
        wan.gatedAtOnceAToB() + wan.gatedAtOnceBToA() >= 1, "gated cross-cluster flows: " + wan);
    assertTrue(wan.withinK(), "at most k gated flows at once each way: " + wan);
    if (Testbed.loopbackRequested()) {
      assertEquals(-1, wan.aToBBytes(), "loopback: nothing measured on a backbone");
    } else {
      assertTrue(
          plain.aToBBytes() + plain.bToABytes() > 0 && wan.aToBBytes() + wan.bToABytes() > 0,
          "the shuffle crossed the backbone: " + plain + " " + wan);
    }
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.startsWith("# run-app: " + GeneratedSort.class.getName()), report);
    assertTrue(report.contains("| 2 | auto | ok |") && report.contains("same as run 1"), report);
    // report.json: one object per run; the per-link figures of the testbed's topology file
    com.fasterxml.jackson.databind.JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(out.resolve("report.json").toFile());
    assertEquals(2, json.size(), json.toString());
    com.fasterxml.jackson.databind.JsonNode d = json.get(0);
    com.fasterxml.jackson.databind.JsonNode w = json.get(1);
    assertEquals("default", d.get("variant").asText());
    assertEquals("auto", w.get("variant").asText());
    assertTrue(w.get("outputSameAsFirst").asBoolean(), w.toString());
    assertEquals(wan.steps(), w.get("steps").asInt());
    assertEquals(wan.wallSeconds(), w.get("seconds").asDouble(), 1e-9);
    assertTrue(d.get("maxFlowsOverCapacity").isNull(), "no plugin, no flow log: " + d);
    // two sites of one rack: k per direction and δ per NIC are the per-link contract
    assertTrue(w.get("maxFlowsOverCapacity").asDouble() <= 1.0, w.toString());
    com.fasterxml.jackson.databind.JsonNode side = w.get("links").get("backbone.out[/A]");
    assertEquals(2, side.get("capacityFlows").asInt(), w.toString());
    if (Testbed.loopbackRequested()) {
      assertTrue(side.get("bytes").isNull(), "loopback: no counters");
    } else {
      assertTrue(
          w.get("links").get("backbone.in[/B]").get("bytes").asLong()
                  + w.get("links").get("backbone.in[/A]").get("bytes").asLong()
              > 0,
          "the link counters saw the shuffle: " + w);
      assertTrue(w.get("busiestUtilisation").asDouble() > 0, w.toString());
    }
  }

  @Test
  void aFailingApplicationIsReportedWithItsLogAndTheCommandExitsWithOne() throws IOException {
    Path out = runs.resolve("failing");
    AppCommand cmd =
        execute(1, "--variants", "default", "--out", out.toString(), "--", "not-a-number");
    AppFigures f = cmd.figures.get(0);
    assertEquals(
        "exit 1: java.lang.IllegalArgumentException: records must be a positive integer, got"
            + " 'not-a-number'",
        f.failure(),
        "the exit status and the exception that ended the driver");
    assertNull(f.log(), "it failed before its SparkContext started: no event log");
    assertTrue(
        Files.readString(out.resolve("report.md"))
            .contains(
                "| 1 | default | FAILED: exit 1: java.lang."
                    + "IllegalArgumentException: records must be a positive integer, got 'not-a-number' |"));
    Path driverLog = out.resolve("spark").resolve("driver-01-default-1.log");
    assertTrue(
        Files.readString(driverLog)
            .contains("records must be a positive integer, got 'not-a-number'"),
        "the application's error is in its driver log");
  }
}
