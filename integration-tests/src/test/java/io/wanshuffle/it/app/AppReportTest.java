package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.links.LinkLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppReportTest {
  private static AppFigures run(
      String variant, int n, String failure, String sha, int k, int aToB, int bToA) {
    StageRun reduce =
        new StageRun(
            1,
            0,
            "collect at Job.java:9",
            6,
            10_000,
            12_500,
            null,
            0,
            30_000_000,
            5_000_000,
            900,
            0);
    EventLog log = new EventLog("app-" + n, "job", 9_000, 13_000, List.of(reduce));
    return new AppFigures(
        variant,
        n,
        failure,
        failure == null ? log : null,
        4.2,
        30_500_000,
        100_000,
        190e6,
        0.5,
        k == 0 ? 0 : 12,
        k,
        aToB,
        bToA,
        sha,
        Map.of(),
        RunNetwork.NONE);
  }

  @Test
  void eachRunIsComparedWithTheFirstAndAFailedRunNeverCountsAsTheSame() {
    List<AppFigures> runs =
        List.of(
            run("default", 1, null, "aa", 0, 0, 0),
            run("auto", 1, null, "aa", 2, 2, 1),
            run("auto", 2, null, "bb", 2, 2, 0),
            run("oggp", 1, "exit 1: x.Boom: a|b", "aa", 2, 0, 0));
    assertEquals(List.of(true, true, false, false), AppReport.sameOutputAsFirst(runs));
    String md = AppReport.markdown("# t", runs);
    assertTrue(
        md.contains(
            "| 2 | auto | ok | 4.20 | 2.50 | 30.0 | 30.5 / 0.1 | 190.0 | 0.50 % | 12 | 2 / 1 (2) |"
                + " same as run 1 |"),
        md);
    assertTrue(md.contains("| 3 | auto | ok |") && md.contains("DIFFERS from run 1"), md);
    assertTrue(
        md.contains("| 4 | oggp | FAILED: exit 1: x.Boom: a\\|b |"),
        md + " (a | in the reason is escaped)");
    assertTrue(
        md.contains(
            "| 1 | default | ok | 4.20 | 2.50 | 30.0 | 30.5 / 0.1 | 190.0 | 0.50 % | - | - |"
                + " reference |"),
        md);
    // the stage table: one row per shuffle-reading stage, a column per run, "-" for a run without
    // an event log
    assertTrue(md.contains("| 1 | collect at Job.java:9 | 2.50 | 2.50 | 2.50 | - |"), md);
  }

  @Test
  void gatedFlowsAboveKAreFlagged() {
    AppFigures over = run("auto", 1, null, "aa", 2, 3, 1);
    assertTrue(!over.withinK());
    assertTrue(AppReport.markdown("", List.of(over)).contains("3 / 1 (2) ABOVE k"));
    assertTrue(run("default", 1, null, "aa", 0, 0, 0).withinK(), "no plugin: nothing to bound");
  }

  private static AppFigures withLinks(
      String variant, int n, String sha, java.util.Map<String, LinkLoad> links) {
    AppFigures r = run(variant, n, null, sha, variant.equals("default") ? 0 : 2, 2, 0);
    return new AppFigures(
        r.variant(),
        r.run(),
        r.failure(),
        r.log(),
        r.wallSeconds(),
        r.aToBBytes(),
        r.bToABytes(),
        r.peakBitsPerSecond(),
        r.retransmitPercent(),
        r.steps(),
        r.k(),
        r.gatedAtOnceAToB(),
        r.gatedAtOnceBToA(),
        r.stdoutSha256(),
        links,
        RunNetwork.NONE);
  }

  @Test
  void theJsonReportHasOneObjectPerRunWithItsLinks() throws Exception {
    java.util.Map<String, LinkLoad> ungated = new java.util.LinkedHashMap<>();
    ungated.put("rack.uplink[/A/rack0]", new LinkLoad(1, null, 9_000_000L, 0.97, 99e6, 12L));
    ungated.put("backbone.out[/A]", new LinkLoad(2, null, 18_000_000L, 0.9, 190e6, 0L));
    java.util.Map<String, LinkLoad> gated = new java.util.LinkedHashMap<>();
    gated.put("rack.uplink[/A/rack0]", new LinkLoad(1, 2, 9_000_000L, 0.6, 99e6, 0L));
    gated.put("backbone.out[/A]", new LinkLoad(2, 2, 18_000_000L, 0.95, 195e6, 0L));
    List<AppFigures> runs =
        List.of(
            withLinks("default", 1, "aa", ungated), withLinks("auto-rackblind", 1, "bb", gated));
    com.fasterxml.jackson.databind.JsonNode j =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(AppReport.json(runs));
    assertEquals(2, j.size());
    com.fasterxml.jackson.databind.JsonNode d = j.get(0);
    assertEquals("default", d.get("variant").asText());
    assertEquals(4.2, d.get("seconds").asDouble(), 1e-9);
    assertTrue(d.get("outputSameAsFirst").asBoolean());
    assertEquals(0, d.get("steps").asInt());
    assertTrue(d.get("maxFlowsOverCapacity").isNull(), "ungated: null");
    assertEquals("rack.uplink[/A/rack0]", d.get("busiestLink").asText());
    com.fasterxml.jackson.databind.JsonNode l = d.get("links").get("rack.uplink[/A/rack0]");
    assertEquals(1, l.get("capacityFlows").asInt());
    assertTrue(l.get("maxFlows").isNull());
    assertEquals(9_000_000L, l.get("bytes").asLong());
    assertEquals(0.97, l.get("utilisation").asDouble(), 1e-9);
    com.fasterxml.jackson.databind.JsonNode w = j.get(1);
    assertEquals("auto-rackblind", w.get("variant").asText());
    assertEquals(false, w.get("outputSameAsFirst").asBoolean());
    assertEquals(12, w.get("steps").asInt());
    assertEquals(2.0, w.get("maxFlowsOverCapacity").asDouble(), 1e-9, "2 flows on a 1-flow uplink");
    assertEquals(2, w.get("links").get("backbone.out[/A]").get("maxFlows").asInt());
    List<String> names = new java.util.ArrayList<>();
    w.get("links").fieldNames().forEachRemaining(names::add);
    assertEquals(
        List.of("rack.uplink[/A/rack0]", "backbone.out[/A]"),
        names,
        "links in the topology's order");
    String md = AppReport.markdown("", runs);
    assertTrue(
        md.contains("| - | rack.uplink[/A/rack0] 97 % |"),
        "default: no flows, busiest link: " + md);
    assertTrue(md.contains("| 2 / 1 rack.uplink[/A/rack0] ABOVE | backbone.out[/A] 95 % |"), md);
  }

  @Test
  void theJsonReportHasEachRunsTransferPhasePredictionsBetaAndRates() throws Exception {
    AppFigures d = withLinks("default", 1, "aa", java.util.Map.of());
    AppFigures w = withLinks("auto", 1, "aa", java.util.Map.of());
    RunNetwork n =
        new RunNetwork(3.5, 3.25, 4.0, 0.12, java.util.Map.of("backbone.out[/A]", 2.5e6));
    List<AppFigures> runs =
        List.of(
            d,
            new AppFigures(
                w.variant(),
                w.run(),
                w.failure(),
                w.log(),
                w.wallSeconds(),
                w.aToBBytes(),
                w.bToABytes(),
                w.peakBitsPerSecond(),
                w.retransmitPercent(),
                w.steps(),
                w.k(),
                w.gatedAtOnceAToB(),
                w.gatedAtOnceBToA(),
                w.stdoutSha256(),
                w.links(),
                n));
    com.fasterxml.jackson.databind.JsonNode j =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(AppReport.json(runs));
    assertTrue(j.get(0).get("transferPhaseSeconds").isNull(), "nothing measured: null");
    assertTrue(j.get(0).get("beta").isNull());
    assertEquals(0, j.get(0).get("measuredRates").size());
    com.fasterxml.jackson.databind.JsonNode g = j.get(1);
    assertEquals(3.5, g.get("transferPhaseSeconds").asDouble(), 0);
    assertEquals(3.25, g.get("predictedScheduledSeconds").asDouble(), 0);
    assertEquals(4.0, g.get("predictedDefaultSeconds").asDouble(), 0);
    assertEquals(0.12, g.get("beta").asDouble(), 0);
    assertEquals(2.5e6, g.get("measuredRates").get("backbone.out[/A]").asDouble(), 0);
  }

  @Test
  void theJsonReportHasWhatEachRunsFaultsDid() throws Exception {
    AppFigures d = withLinks("default", 1, "aa", java.util.Map.of());
    AppFigures w = withLinks("auto", 1, "aa", java.util.Map.of());
    io.wanshuffle.it.fault.FaultRecord down =
        new io.wanshuffle.it.fault.FaultRecord(
            "down:backbone.out[/A]:1:2",
            "down",
            "backbone.out[/A]",
            1.0,
            2.0,
            true,
            1.05,
            "2026-12-02T08:00:01.050Z",
            1_796_198_401_050L,
            3.1,
            "2026-12-02T08:00:03.100Z",
            1_796_198_403_100L,
            true,
            "nft table netdev wsfault1 in wst-swA: drop every frame leaving by bbA",
            null);
    List<List<io.wanshuffle.it.fault.FaultRun>> faults =
        List.of(
            List.of(
                new io.wanshuffle.it.fault.FaultRun(
                    null, "2026-12-02T08:00:00Z", 1_796_198_400_000L, List.of(down), null)),
            List.of(
                new io.wanshuffle.it.fault.FaultRun(
                    null, null, null, List.of(), "the listener never started")));
    com.fasterxml.jackson.databind.JsonNode j =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(AppReport.json(List.of(d, w), faults));
    com.fasterxml.jackson.databind.JsonNode f = j.get(0).get("faults");
    assertEquals(1, f.size());
    assertEquals("down:backbone.out[/A]:1:2", f.get(0).get("spec").asText());
    assertEquals(1.05, f.get(0).get("appliedAtSeconds").asDouble(), 0);
    assertEquals("2026-12-02T08:00:03.100Z", f.get(0).get("undoneAt").asText());
    assertEquals(1_796_198_403_100L, f.get(0).get("undoneAtEpochMs").asLong());
    assertTrue(f.get(0).get("undoOk").asBoolean());
    assertTrue(f.get(0).get("error").isNull());
    assertEquals("2026-12-02T08:00:00Z", j.get(0).get("faultsReduceStageStart").asText());
    assertTrue(j.get(0).get("faultsError").isNull());
    assertEquals("the listener never started", j.get(1).get("faultsError").asText());
    assertEquals("auto", j.get(1).get("variant").asText(), "the other fields are kept");
    // without --fault: an empty list and nulls
    com.fasterxml.jackson.databind.JsonNode none =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(AppReport.json(List.of(d)));
    assertEquals(0, none.get(0).get("faults").size());
    assertTrue(none.get(0).get("faultsReduceStageStart").isNull());
  }

  @Test
  void theShuffleReadingStagesGiveTheUtilisationsWindowsOverlapsMerged() {
    StageRun a = new StageRun(1, 0, "a", 2, 1_000, 3_000, null, 0, 10, 0, 0, 0);
    StageRun b = new StageRun(2, 0, "b", 2, 2_000, 4_000, null, 0, 10, 0, 0, 0);
    StageRun c = new StageRun(3, 0, "c", 2, 6_000, 7_000, null, 0, 10, 0, 0, 0);
    StageRun maps = new StageRun(0, 0, "m", 2, 0, 500, null, 0, 0, 0, 0, 100);
    EventLog log = new EventLog("app", "job", 0, 8_000, List.of(maps, c, a, b));
    List<long[]> w = AppFigures.shuffleReadWindows(log);
    assertEquals(2, w.size());
    assertEquals(List.of(1_000L, 4_000L), List.of(w.get(0)[0], w.get(0)[1]));
    assertEquals(List.of(6_000L, 7_000L), List.of(w.get(1)[0], w.get(1)[1]));
  }

  @Test
  void theHtmlPageHasASectionPerWanShuffleRunAndNamesAMissingCapture(@TempDir Path dir)
      throws Exception {
    Map<String, Path> captures = new LinkedHashMap<>();
    captures.put("auto run 1", Files.createDirectories(dir.resolve("01-auto-1/capture")));
    captures.put("auto-rackblind run 1", dir.resolve("02-auto-rackblind-1/capture"));
    Path page =
        AppReport.html("Testbed: 2 sites", captures, a -> a).write(dir.resolve("report.html"));
    String html = Files.readString(page);
    assertTrue(html.contains("Testbed: 2 sites"), html);
    int first = html.indexOf("auto run 1: what the plugin did");
    int second = html.indexOf("auto-rackblind run 1: what the plugin did");
    assertTrue(first > 0 && second > first, "one section per run, in order: " + html);
    assertTrue(html.contains("01-auto-1"), "the empty capture folder is named: " + html);
    assertTrue(html.contains("02-auto-rackblind-1"), "the missing one too: " + html);
    assertEquals(2, html.split("class=\"note\"", -1).length - 1, html);
  }
}
