package io.wanshuffle.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorReportTest {
  @TempDir Path dir;

  private static int images(String html) {
    return html.split("<img ", -1).length - 1;
  }

  @Test
  void aCaptureFolderGivesEveryChartAndTable() throws Exception {
    Path app =
        ReportFixtures.captureDir(
            dir,
            "app-1",
            ReportFixtures.stage("app-1", 3, true),
            ReportFixtures.stage("app-1", 5, true));
    List<ApplicationCapture> apps = ApplicationCaptures.fromCaptureDir(app);
    assertEquals(1, apps.size());
    ApplicationCapture a = apps.get(0);
    assertEquals("app-1", a.appId());
    assertEquals(List.of(), a.notes());
    assertTrue(a.flowsRecorded());
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    // the stage chart, then per stage: heat map, two Gantt charts, throughput
    assertEquals(1 + 2 * 4, images(html), html.length() + " chars");
    assertFalse(html.contains("src=\"http"), "self-contained");
    assertTrue(html.contains("<h2>Stage 3.0: auto, k = 2, β = 0.05 s</h2>"), html);
    assertTrue(html.contains("<td>backbone.out[/A]</td>"), "the links table");
    // the sample's bottleneck: 5 MB into each receiver at one flow of 1 MB/s: 5 s
    assertTrue(html.contains("<td>nic.down[10.0.2.1]</td><td>5.00</td>"), "summary: " + html);
    // plan cost 2 x 0.05 + 3 + 2 s; measured 100 -> 5600 ms
    assertTrue(html.contains("<td>5.10</td><td>5.50</td><td>1.08</td>"), html);
  }

  @Test
  void aStalledFlowIsListedWithWhenItsPortsWentBackAndWhenItArrived() throws Exception {
    StageCapture s = ReportFixtures.stage("app-1", 3, true);
    List<FlowCapture> flows = new ArrayList<>(s.flows());
    FlowCapture f = flows.get(0);
    long t0 = s.steps().get(0).grantedAtMs();
    flows.set(
        0,
        new FlowCapture(
            f.stepId(),
            f.stageId(),
            f.stageAttempt(),
            f.shuffleId(),
            f.taskAttemptId(),
            f.srcHost(),
            f.dstHost(),
            f.bytes(),
            f.startMs(),
            f.endMs(),
            f.startMs() + 2000,
            1500));
    StageCapture c =
        new StageCapture(
            s.appId(),
            s.stageId(),
            s.stageAttempt(),
            s.shuffleIds(),
            s.algorithm(),
            s.k(),
            s.bytesPerSecond(),
            s.backboneBytesPerSecond(),
            s.hosts(),
            s.registeredBytes(),
            s.realisedBytes(),
            s.firstDemandMs(),
            s.endMs(),
            s.plans(),
            s.steps(),
            flows,
            s.betaSeconds(),
            s.hostPaths(),
            s.links(),
            s.linkSeries(),
            s.network());
    Path app = ReportFixtures.captureDir(dir, "app-1", c);
    ApplicationCapture a = ApplicationCaptures.fromCaptureDir(app).get(0);
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    assertTrue(html.contains("1 flow(s) stalled"), html);
    String started = String.format(java.util.Locale.ROOT, "%.2f", (f.startMs() - t0) / 1000.0);
    String back = String.format(java.util.Locale.ROOT, "%.2f", (f.startMs() + 2000 - t0) / 1000.0);
    String end = String.format(java.util.Locale.ROOT, "%.2f", (f.endMs() - t0) / 1000.0);
    assertTrue(
        html.contains(
            "<td>1</td><td>10.0.1.1 → 10.0.2.1</td><td>3.0</td><td>"
                + started
                + "</td><td>1.50</td><td>"
                + back
                + "</td><td>"
                + end
                + "</td>"),
        html);
    String plain =
        Files.readString(
            OperatorReport.render(
                    ApplicationCaptures.fromCaptureDir(
                            ReportFixtures.captureDir(
                                dir.resolve("plain"),
                                "app-1",
                                ReportFixtures.stage("app-1", 3, true)))
                        .get(0))
                .write(dir.resolve("p.html")));
    assertFalse(plain.contains("stalled"), "no stalled flow, no section");
  }

  @Test
  void aStageWithNetworkFiguresSaysWhatWasMeasuredAndPredicted() throws Exception {
    String p =
        OperatorReport.network(
            new io.wanshuffle.spark.capture.NetworkFigures(
                0.125,
                Map.of("backbone.out[/A]", 2.5e6),
                40,
                3.0,
                4.5,
                3.25,
                "gated",
                0,
                0,
                Double.NaN));
    assertEquals(
        "Cross-site reads gated. Transfer phase (first cross-site fetch to last byte) 3.25 s;"
            + " predicted at the first plan 3.00 s as scheduled, 4.50 s as Spark's default (η_o)."
            + " Measured over 40 flows: β 0.13 s; backbone.out[/A] 20.0 Mbit/s.",
        p);
    assertEquals(
        "Cross-site reads gated. Transfer phase (first cross-site fetch to last byte) 3.25 s;"
            + " predicted at the first plan 3.00 s as scheduled, 4.50 s as Spark's default (η_o)."
            + " Measured over 40 flows: β 0.13 s. Planned with k 2, base speed 100.0 Mbit/s,"
            + " β 0.03 s.",
        OperatorReport.network(
            new io.wanshuffle.spark.capture.NetworkFigures(
                0.125, Map.of(), 40, 3.0, 4.5, 3.25, "gated", 2, 12_500_000, 0.03)));
    Path app =
        ReportFixtures.captureDir(
            dir,
            "app-1",
            ReportFixtures.stage("app-1", 3, true)
                .withNetwork(
                    new io.wanshuffle.spark.capture.NetworkFigures(
                        0.125, Map.of(), 40, 3.0, 4.5, 3.25, "gated", 0, 0, Double.NaN)));
    String html =
        Files.readString(
            OperatorReport.render(ApplicationCaptures.fromCaptureDir(app).get(0))
                .write(dir.resolve("n.html")));
    assertTrue(html.contains("Cross-site reads gated."), html);
  }

  @Test
  void theLinksWindowsAndSharesAreChartedWhenTheyMovedAndSaidWhenNot() throws Exception {
    Path app = ReportFixtures.captureDir(dir, "app-1", ReportFixtures.stage("app-1", 3, true));
    String plain =
        Files.readString(
            OperatorReport.render(ApplicationCaptures.fromCaptureDir(app).get(0))
                .write(dir.resolve("plain.html")));
    assertFalse(plain.contains("Link windows and shares"), "no link log: the capture cannot say");

    ReportFixtures.linkLog(app, List.of());
    ApplicationCapture none = ApplicationCaptures.fromCaptureDir(app).get(0);
    assertTrue(none.linkChangesRecorded());
    String still = Files.readString(OperatorReport.render(none).write(dir.resolve("none.html")));
    assertTrue(still.contains("<h2>Link windows and shares</h2>"), still);
    assertTrue(still.contains(LinkWindowsReport.NO_CHANGE), still);
    assertEquals(1 + 4, images(still), "a sentence, no chart");

    ReportFixtures.linkLog(app, ReportFixtures.linkChanges());
    ApplicationCapture moved = ApplicationCaptures.fromCaptureDir(app).get(0);
    assertEquals(ReportFixtures.linkChanges(), moved.linkChanges());
    String html = Files.readString(OperatorReport.render(moved).write(dir.resolve("moved.html")));
    assertFalse(html.contains(LinkWindowsReport.NO_CHANGE), html);
    assertTrue(html.contains("3 change(s) on 1 link(s)"), html);
    assertEquals(1 + 1 + 4, images(html), "the step chart of the windows and shares");
    assertTrue(
        html.contains("<figcaption>Each link's window and this application's share of it (flows)"),
        html);
    // stage 3's first demand is at 1_700_000_300_000: the share halves 1 s in, the window grows 2 s
    // in, the other application leaves 4 s in
    assertTrue(
        html.contains(
            "<tr><td>1.00</td><td>backbone.out[/A]</td><td>share</td><td>2</td><td>1</td><td>2</td>"
                + "<td>1</td></tr>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>2.00</td><td>backbone.out[/A]</td><td>window</td><td>3</td><td>1</td><td>2</td>"
                + "<td>1</td></tr>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>4.00</td><td>backbone.out[/A]</td><td>share</td><td>3</td><td>3</td><td>2</td>"
                + "<td>0</td></tr>"),
        html);

    Path log = app.resolve(io.wanshuffle.spark.capture.CaptureFiles.LINK_LOG);
    Files.writeString(log, Files.readString(log) + "1,backbone.out[/A],share,2\n");
    ApplicationCapture broken = ApplicationCaptures.fromCaptureDir(app).get(0);
    assertEquals(1, broken.notes().size(), broken.notes().toString());
    assertTrue(
        broken.notes().get(0).startsWith(log + ": line 5: expected 7 columns"),
        broken.notes().get(0));
    assertFalse(broken.linkChangesRecorded());
    assertEquals(1, broken.stages().size(), "the stages still read");
  }

  @Test
  void anEventLogGivesTheLinksWindowsAndShares() throws Exception {
    List<String> lines =
        new ArrayList<>(ReportFixtures.eventLog("app-5", ReportFixtures.stage("app-5", 3, true)));
    lines.addAll(
        lines.size() - 1, ReportFixtures.linkEvents("app-5", ReportFixtures.linkChanges()));
    Path log = Files.write(dir.resolve("app-5"), lines);
    ApplicationCapture a = EventLogs.read(log).applications().get(0);
    assertEquals(ReportFixtures.linkChanges(), a.linkChanges());
    assertTrue(a.linkChangesRecorded());
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    assertTrue(html.contains("3 change(s) on 1 link(s)"), html);
    assertEquals(1 + 1 + 4, images(html));

    Path quiet =
        Files.write(
            dir.resolve("app-6"),
            ReportFixtures.eventLog("app-6", ReportFixtures.stage("app-6", 3, true)));
    ApplicationCapture q = EventLogs.read(quiet).applications().get(0);
    assertTrue(q.linkChangesRecorded(), "a stage event with links: nothing moved");
    String qh = Files.readString(OperatorReport.render(q).write(dir.resolve("q.html")));
    assertTrue(qh.contains(LinkWindowsReport.NO_CHANGE), qh);
  }

  @Test
  void hostsAreGroupedBySiteAndRack() {
    assertEquals(
        List.of(2, 1, 0),
        OperatorReport.order(
            List.of("c", "b", "a"), Map.of("c", "/B/rack0", "b", "/A/rack1", "a", "/A/rack1")));
  }

  @Test
  void anOlderCaptureOrABrokenFileIsNamedAndTheRestRenders() throws Exception {
    StageCapture old = ReportFixtures.stage("app-2", 3, false);
    Path app = ReportFixtures.captureDir(dir, "app-2", old, ReportFixtures.stage("app-2", 5, true));
    ReportFixtures.downgradeToVersion2(app.resolve("stage-3.0.kryo"));
    Files.writeString(app.resolve("stage-7.0.kryo"), "not a capture");
    ApplicationCapture a = ApplicationCaptures.fromCaptureDir(app).get(0);
    assertEquals(List.of(3, 5), a.stages().stream().map(StageCapture::stageId).toList());
    assertEquals(2, a.notes().size(), a.notes().toString());
    assertTrue(
        a.notes().get(0).startsWith(app.resolve("stage-3.0.kryo") + ": capture format version 2"),
        a.notes().get(0));
    assertTrue(
        a.notes().get(1).startsWith(app.resolve("stage-7.0.kryo") + ": not a wan-shuffle"),
        a.notes().get(1));
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    assertTrue(html.contains("class=\"note\""), html);
    assertTrue(html.contains("stage-7.0.kryo"), html);
    // stage 3 without links: heat map and Gantt charts, no throughput; stage 5 all four
    assertEquals(1 + 3 + 4, images(html));
  }

  @Test
  void anEventLogGivesTheStagesAndStepsAndNamesATruncatedLine() throws Exception {
    List<String> lines =
        new ArrayList<>(
            ReportFixtures.eventLog(
                "app-3",
                ReportFixtures.stage("app-3", 3, true),
                ReportFixtures.stage("app-3", 5, true)));
    lines.remove(lines.size() - 1);
    lines.add("{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":");
    Path log = Files.write(dir.resolve("app-3"), lines);
    ApplicationCapture a = EventLogs.read(log).applications().get(0);
    assertEquals("app-3", a.appId());
    assertEquals("sort", a.appName());
    assertFalse(a.flowsRecorded());
    assertEquals(2, a.stages().size());
    assertEquals(2, a.stages().get(0).steps().size());
    assertEquals(
        List.of(
            log
                + ": line "
                + lines.size()
                + " is cut short (the application is still running or did not end"
                + " cleanly); read up to line "
                + (lines.size() - 1)),
        a.notes());
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    assertTrue(html.contains("<title>wan-shuffle report: sort (app-3)</title>"), html);
    assertEquals(1 + 2 * 4, images(html), "the event log has the link series and the plan");
  }

  @Test
  void anEventLogWithoutWanShuffleEventsSaysSo() throws Exception {
    Path log = Files.write(dir.resolve("plain"), ReportFixtures.eventLog("app-4"));
    ApplicationCapture a = EventLogs.read(log).applications().get(0);
    assertEquals(List.of(), a.stages());
    assertTrue(
        a.notes().get(0).startsWith(log + ": no wan-shuffle stage events"), a.notes().toString());
    String html = Files.readString(OperatorReport.render(a).write(dir.resolve("r.html")));
    assertTrue(html.contains("No gated stage to show."), html);
  }

  @Test
  void theCommandWritesOnePagePerApplication() throws Exception {
    ReportFixtures.captureDir(dir.resolve("cap"), "app-1", ReportFixtures.stage("app-1", 3, true));
    ReportFixtures.captureDir(dir.resolve("cap"), "app-2", ReportFixtures.stage("app-2", 3, true));
    Path out = dir.resolve("out").resolve("r.html");
    ReportRun r = ReportRun.of("--capture", dir.resolve("cap").toString(), "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(Files.isRegularFile(dir.resolve("out").resolve("r-app-1.html")), r.out());
    assertTrue(Files.isRegularFile(dir.resolve("out").resolve("r-app-2.html")), r.out());
    assertTrue(r.out().contains("report: " + dir.resolve("out").resolve("r-app-1.html")), r.out());

    Path one =
        ReportFixtures.captureDir(
            dir.resolve("one"), "app-9", ReportFixtures.stage("app-9", 3, true));
    r = ReportRun.of("--capture", one.toString(), "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(Files.isRegularFile(out));
  }

  @Test
  void badInputIsNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ApplicationCaptures.fromCaptureDir(Files.createDirectories(dir.resolve("empty"))));
    assertTrue(
        e.getMessage().startsWith(dir.resolve("empty") + ": no wan-shuffle capture"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> EventLogs.read(dir.resolve("missing")));
    assertEquals(dir.resolve("missing") + ": no such file or folder", e.getMessage());
    assertEquals(Path.of("x/r-app-1.html"), ReportCommand.perApp(Path.of("x/r.html"), "app-1"));
  }
}
