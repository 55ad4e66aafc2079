package io.wanshuffle.it.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcurrentReportTest {
  private static final String RUNS =
      "[{\"run\":1,\"variant\":\"default\",\"seconds\":10.0,\"outputSameAsFirst\":true},"
          + "{\"run\":2,\"variant\":\"default\",\"seconds\":11.0,\"outputSameAsFirst\":true},"
          + "{\"run\":3,\"variant\":\"auto\",\"seconds\":9.0,\"outputSameAsFirst\":true},"
          + "{\"run\":4,\"variant\":\"auto\",\"seconds\":9.5,\"outputSameAsFirst\":false}]";

  private static final RunGroup DEFAULT =
      new RunGroup("default run 1", 2, null, List.of(10.0, 11.0), null, null);
  private static final RunGroup AUTO =
      new RunGroup(
          "auto run 1",
          2,
          "zookeeper",
          List.of(9.0, 9.5),
          new AllAppsFlows.Peak("backbone.out[/A]", 3, 2),
          1.0);

  @Test
  void everyRunGainsItsGroupsFieldsAndKeepsItsOwn() throws Exception {
    JsonNode runs =
        new ObjectMapper().readTree(ConcurrentReport.json(RUNS, List.of(DEFAULT, AUTO)));
    assertEquals(4, runs.size());
    JsonNode d2 = runs.get(1);
    assertEquals(2, d2.get("concurrent").asInt());
    assertEquals(2, d2.get("app").asInt());
    assertTrue(d2.get("arbiter").isNull());
    assertTrue(d2.get("maxFlowsOverCapacityAllApps").isNull());
    assertTrue(d2.get("windowBoundOverCapacity").isNull());
    assertEquals(11.0, d2.get("seconds").asDouble(), "kept");
    JsonNode a1 = runs.get(2);
    assertEquals(1, a1.get("app").asInt());
    assertEquals("zookeeper", a1.get("arbiter").asText());
    assertEquals(1.5, a1.get("maxFlowsOverCapacityAllApps").asDouble());
    assertEquals(1.0, a1.get("windowBoundOverCapacity").asDouble());
    assertEquals(false, runs.get(3).get("outputSameAsFirst").asBoolean(), "kept");
  }

  @Test
  void groupsThatDoNotCoverTheRunsAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> ConcurrentReport.json(RUNS, List.of(DEFAULT)));
    assertThrows(
        IllegalArgumentException.class,
        () -> ConcurrentReport.json(RUNS, List.of(DEFAULT, AUTO, AUTO)));
  }

  @Test
  void theSectionFlagsFlowsAboveTheWindowBound() {
    String md = ConcurrentReport.markdown("spark-submit's wall time", List.of(DEFAULT, AUTO));
    assertTrue(
        md.contains("| default run 1 | 2 | - | 10.00, 11.00 | 11.00 | 11.00 | 21.00 | - | - |"),
        md);
    assertTrue(
        md.contains(
            "| auto run 1 | 2 | zookeeper | 9.00, 9.50 | 9.50 | 9.50 | 18.50 | 3 / 2 backbone.out[/A] (1.50)"
                + " ABOVE | 1.00 |"),
        md);
    assertFalse(md.contains("Per cell"), "one run per cell: no medians over runs");
    assertEquals("", ConcurrentReport.markdown("x", List.of()));
  }

  /**
   * The medians over a cell's runs are of each run's slowest application, last end and sum (not the
   * slowest of per-application medians: the applications take turns at being last), and the worst
   * run's flows are shown, over the bound in one run of three.
   */
  @Test
  void perCellTheMediansOfEachRunsSlowestAndSumAndTheWorstRun() {
    AllAppsFlows.Peak held = new AllAppsFlows.Peak("nic.up[a1]", 1, 1);
    AllAppsFlows.Peak over = new AllAppsFlows.Peak("nic.up[a1]", 2, 1);
    List<RunGroup> runs =
        List.of(
            new RunGroup("c run 1", 2, "zookeeper", List.of(21.0, 11.0), held, 1.0, "c", 21.5),
            new RunGroup("c run 2", 2, "zookeeper", List.of(11.0, 22.0), over, 1.0, "c", 24.0),
            new RunGroup("c run 3", 2, "zookeeper", List.of(12.0, 23.0), held, 1.0, "c", 23.0));
    String md = ConcurrentReport.markdown("reduce stage", runs);
    assertTrue(
        md.contains("| c run 2 | 2 | zookeeper | 11.00, 22.00 | 22.00 | 24.00 | 33.00 |"), md);
    assertTrue(
        md.contains("| c | 3 | 22.00 | 23.00 | 33.00 | 2 / 1 nic.up[a1] (2.00) ABOVE | 1.00 |"),
        md);
  }
}
