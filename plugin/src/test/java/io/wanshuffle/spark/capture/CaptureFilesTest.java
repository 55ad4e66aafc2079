package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFilesTest {
  @TempDir Path dir;

  static StageCapture sample() {
    PlanCapture plan =
        new PlanCapture(
            3,
            1000,
            "oggp",
            List.of("a1", "a2"),
            List.of("b1"),
            ResidualBytes.ofDense(new long[][] {{700}, {300}}),
            100,
            2,
            0.05,
            List.of(
                new PlanCapture.PlannedStep(
                    7.0, new int[] {0, 1}, new int[] {0, 0}, new double[] {7.0, 3.0})),
            12345);
    StepCapture step =
        new StepCapture(
            5,
            3,
            List.of(new StepCapture.Grant("a1", "b1", 700), new StepCapture.Grant("a2", "b1", 300)),
            1001,
            9001,
            1500,
            false,
            1000);
    FlowCapture f1 = new FlowCapture(5, 7, 0, 2, 41, "a1", "b1", 700, 1002, 1400, 1330);
    FlowCapture f2 = new FlowCapture(0, 7, 0, 2, 42, "a2", "b1", 300, 1003, 1450, 1450);
    return new StageCapture(
        "app-1",
        7,
        0,
        new int[] {2},
        "oggp",
        2,
        100,
        200,
        List.of("a1", "a2", "b1"),
        new long[][] {{0, 0, 700}, {0, 0, 300}, {0, 0, 0}},
        new long[][] {{0, 0, 700}, {0, 0, 300}, {0, 0, 0}},
        990,
        1600,
        List.of(plan),
        List.of(step),
        List.of(f1, f2),
        0,
        List.of(),
        List.of(),
        List.of(),
        null);
  }

  @Test
  void stageCaptureSurvivesAKryoRoundTrip() throws Exception {
    StageCapture c = sample();
    Path f = CaptureFiles.stageFile(dir, 7, 0);
    CaptureFiles.writeStage(f, c);
    StageCapture r = CaptureFiles.readStage(f);
    assertEquals(c.appId(), r.appId());
    assertEquals(c.stageId(), r.stageId());
    assertArrayEquals(c.shuffleIds(), r.shuffleIds());
    assertEquals(c.hosts(), r.hosts());
    assertArrayEquals(c.registeredBytes(), r.registeredBytes());
    assertArrayEquals(c.realisedBytes(), r.realisedBytes());
    assertEquals(c.steps(), r.steps());
    assertEquals(c.flows(), r.flows());
    PlanCapture p = r.plans().get(0);
    assertEquals("oggp", p.algorithm());
    assertArrayEquals(new long[][] {{700}, {300}}, p.residualBytes().toDense());
    assertArrayEquals(new double[] {7.0, 3.0}, p.steps().get(0).seconds());
    assertArrayEquals(new int[] {0, 1}, p.steps().get(0).src());
    assertEquals(7.05, p.costSeconds(), 1e-12);
    assertEquals(12345, p.planNanos());
    assertEquals(
        List.of(r.stageId()),
        CaptureFiles.readStages(dir).stream().map(StageCapture::stageId).toList());
  }

  @Test
  void linksHostPathsAndSeriesSurviveAKryoRoundTrip() throws Exception {
    StageCapture c =
        sample()
            .withLinks(
                0.25,
                LinkLoads.of(
                    io.wanshuffle.spark.topology.LinkModel.kpbs(
                        2, h -> 1, h -> h.substring(0, 1), 100),
                    sample()));
    assertTrue(c.hasLinks());
    Path f = dir.resolve("stage-7.0.kryo");
    CaptureFiles.writeStage(f, c);
    CaptureFiles.VersionedStage r = CaptureFiles.readVersionedStage(f);
    assertEquals(CaptureFiles.VERSION, r.version());
    assertEquals(0.25, r.capture().betaSeconds(), 0);
    assertEquals(List.of("/a", "/a", "/b"), r.capture().hostPaths());
    assertEquals(c.links(), r.capture().links());
    assertEquals(c.linkSeries(), r.capture().linkSeries());
    assertEquals(c.flows(), r.capture().flows());
  }

  @Test
  void networkFiguresSurviveAKryoRoundTripAndVersionThreeReadsWithout() throws Exception {
    NetworkFigures n =
        new NetworkFigures(
            0.12,
            java.util.Map.of("backbone.out[/a]", 2.5e6, "nic.up[a1]", 1.25e6),
            40,
            3.5,
            4.25,
            3.75,
            "gated",
            2,
            12_500_000,
            0.031);
    StageCapture c = sample().withNetwork(n);
    Path f = dir.resolve("stage-7.0.kryo");
    CaptureFiles.writeStage(f, c);
    assertEquals(n, CaptureFiles.readStage(f).network());
    assertTrue(n.plannedKnown());
    Path v4 = dir.resolve("stage-8.0.kryo");
    CaptureFiles.writeStage(v4, c, 4);
    NetworkFigures four = CaptureFiles.readStage(v4).network();
    assertEquals(n.measuredRates(), four.measuredRates(), "version 4: the measurement is read");
    assertEquals(n.decision(), four.decision());
    assertEquals(0, four.plannedK(), "version 4 has no planned values");
    assertTrue(Double.isNaN(four.plannedBetaSeconds()) && !four.plannedKnown());
    Path v3 = dir.resolve("stage-9.0.kryo");
    CaptureFiles.writeStage(v3, c, 3);
    CaptureFiles.VersionedStage r = CaptureFiles.readVersionedStage(v3);
    assertEquals(3, r.version());
    assertEquals(NetworkFigures.NONE, r.capture().network());
    assertTrue(!r.capture().network().known());
    assertEquals(c.flows(), r.capture().flows());
  }

  @Test
  void aPlansResidualIsWrittenAsItsCellsAndVersionFiveReadsItsDenseMatrix() throws Exception {
    long[][] dense = new long[300][200];
    dense[3][7] = 1_000_000_000_000L;
    dense[3][8] = 1;
    dense[299][0] = 42;
    PlanCapture p = sample().plans().get(0);
    PlanCapture sparse =
        new PlanCapture(
            p.planId(),
            p.atMs(),
            p.algorithm(),
            java.util.Collections.nCopies(300, "a"),
            java.util.Collections.nCopies(200, "b"),
            ResidualBytes.ofDense(dense),
            p.bytesPerSecond(),
            p.k(),
            p.betaSeconds(),
            p.steps(),
            p.planNanos());
    StageCapture s = sample();
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
            List.of(sparse),
            s.steps(),
            s.flows(),
            s.betaSeconds(),
            s.hostPaths(),
            s.links(),
            s.linkSeries(),
            s.network());
    Path v6 = dir.resolve("stage-7.0.kryo");
    CaptureFiles.writeStage(v6, c);
    Path v5 = dir.resolve("stage-8.0.kryo");
    CaptureFiles.writeStage(v5, c, 5);
    for (Path f : List.of(v6, v5)) {
      PlanCapture read = CaptureFiles.readStage(f).plans().get(0);
      assertEquals(sparse.residualBytes(), read.residualBytes(), f.toString());
      assertEquals(3, read.residualBytes().cellCount());
      assertEquals(1_000_000_000_043L, read.residualBytes().total());
    }
    assertEquals(5, CaptureFiles.readVersionedStage(v5).version());
    assertTrue(
        Files.size(v6) + 50_000 < Files.size(v5),
        "cells, not 60,000 dense zeros: " + Files.size(v6) + " B against " + Files.size(v5));
  }

  @Test
  void aVersionTwoCaptureIsReadWithoutLinksAndVersionOneIsRefused() throws Exception {
    Path v2 = dir.resolve("stage-7.0.kryo");
    CaptureFiles.writeStage(v2, sample(), 2);
    CaptureFiles.VersionedStage r = CaptureFiles.readVersionedStage(v2);
    assertEquals(2, r.version());
    assertEquals(sample().steps(), r.capture().steps());
    assertTrue(!r.capture().hasLinks());
    assertEquals(List.of(), r.capture().hostPaths());

    Path v1 = dir.resolve("stage-8.0.kryo");
    try (var out = new com.esotericsoftware.kryo.io.Output(Files.newOutputStream(v1))) {
      out.writeInt(CaptureFiles.MAGIC);
      out.writeVarInt(1, true);
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readStage(v1));
    assertEquals(
        v1 + ": capture format version 1, this reader knows versions 2 to " + CaptureFiles.VERSION,
        e.getMessage());
  }

  @Test
  void readerNamesTheFileOfAForeignOrTruncatedCapture() throws Exception {
    Path foreign = dir.resolve("stage-1.0.kryo");
    Files.writeString(foreign, "hello world, not kryo");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readStage(foreign));
    assertTrue(
        e.getMessage().startsWith(foreign + ": not a wan-shuffle stage capture"), e.getMessage());

    Path good = dir.resolve("stage-2.0.kryo");
    CaptureFiles.writeStage(good, sample());
    byte[] all = Files.readAllBytes(good);
    Path cut = dir.resolve("stage-3.0.kryo");
    Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2));
    e = assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readStage(cut));
    assertTrue(e.getMessage().startsWith(cut + ": truncated or corrupt"), e.getMessage());
  }

  @Test
  void matrixCsvHasTheHeaderThePlanCommandReadsAndRoundTrips() throws Exception {
    HostMatrix m = sample().transferMatrix();
    assertEquals(List.of("a1", "a2"), m.senders());
    assertEquals(List.of("b1"), m.receivers());
    StringWriter w = new StringWriter();
    m.writeCsv(w, List.of("stage 7.0"));
    assertEquals("#senders: a1,a2\n#receivers: b1\n# stage 7.0\n700\n300\n", w.toString());
    HostMatrix back = HostMatrix.readCsv(new StringReader(w.toString()), "m.csv");
    assertArrayEquals(m.bytes(), back.bytes());
    assertEquals(1000, back.total());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HostMatrix.readCsv(new StringReader("#senders: a\n#receivers: b\nx\n"), "m.csv"));
    assertEquals("m.csv: line 3, column 1: not a byte count: 'x'", e.getMessage());
  }

  @Test
  void compactDropsHostsThatNeitherSendNorReceive() {
    HostMatrix m =
        HostMatrix.compact(
            List.of("a", "b", "c", "d"),
            new long[][] {{0, 0, 5, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}});
    assertEquals(List.of("a", "d"), m.senders());
    assertEquals(List.of("b", "c"), m.receivers());
    assertArrayEquals(new long[][] {{0, 5}, {1, 0}}, m.bytes());
  }

  @Test
  void flowLogRoundTripsAndReportsBadLines() throws Exception {
    Path log = dir.resolve(CaptureFiles.FLOW_LOG);
    StringWriter w = new StringWriter();
    w.write(CaptureFiles.FLOW_LOG_HEADER + "\n");
    for (FlowCapture f : sample().flows()) {
      CaptureFiles.appendFlow(w, f);
    }
    Files.writeString(log, w.toString());
    assertEquals(sample().flows(), CaptureFiles.readFlowLog(log));
    Files.writeString(log, w + "1,2,3\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readFlowLog(log));
    assertEquals(
        log + ": line 4: expected 12 columns (" + CaptureFiles.FLOW_LOG_HEADER + "), got 3",
        e.getMessage());
  }

  @Test
  void linkLogRoundTripsAndNamesFileAndLineOfABadRow() throws Exception {
    List<LinkChange> changes =
        List.of(
            new LinkChange(1_000, "backbone.out[/A]", LinkChange.Kind.WINDOW, 3, 3, 2, -1),
            new LinkChange(2_500, "backbone.out[/A]", LinkChange.Kind.SHARE, 3, 1, 2, 2),
            new LinkChange(4_000, "rack.uplink[/A/r,0]", LinkChange.Kind.SHARE, 4, 4, 4, 0));
    StringWriter w = new StringWriter();
    w.write(CaptureFiles.LINK_LOG_HEADER + "\n");
    for (LinkChange c : changes) {
      CaptureFiles.appendLinkChange(w, c);
    }
    Path log = Files.writeString(dir.resolve(CaptureFiles.LINK_LOG), w.toString());
    assertEquals(
        "timeMs,link,kind,window,share,capacity,otherApplications\n"
            + "1000,backbone.out[/A],window,3,3,2,-1\n"
            + "2500,backbone.out[/A],share,3,1,2,2\n"
            + "4000,rack.uplink[/A/r,0],share,4,4,4,0\n",
        Files.readString(log));
    assertEquals(changes, CaptureFiles.readLinkLog(log), "a comma in a link's name reads back");
    Files.writeString(log, CaptureFiles.LINK_LOG_HEADER + "\n");
    assertEquals(List.of(), CaptureFiles.readLinkLog(log), "the header alone: no change");

    Files.writeString(log, w + "5000,backbone.in[/B],rate,2,2,2,0\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readLinkLog(log));
    assertEquals(log + ": line 5: kind must be window or share, got 'rate'", e.getMessage());
    Files.writeString(log, w + "5000,backbone.in[/B],share\n");
    e = assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readLinkLog(log));
    assertEquals(
        log + ": line 5: expected 7 columns (" + CaptureFiles.LINK_LOG_HEADER + "), got 3",
        e.getMessage());
    Files.writeString(log, w + "5000,backbone.in[/B],share,2,3,2,0\n");
    e = assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readLinkLog(log));
    assertEquals(log + ": line 5: share must be 0..2 flows (the window), got 3", e.getMessage());
    Files.writeString(log, w + "soon,backbone.in[/B],share,2,1,2,0\n");
    e = assertThrows(IllegalArgumentException.class, () -> CaptureFiles.readLinkLog(log));
    assertTrue(e.getMessage().startsWith(log + ": line 5: "), e.getMessage());
  }

  /**
   * A stalled flow keeps its stall in the stage capture and the flow log; a version-6 capture and
   * an 11-column flow log (without stalledMs) read with no flow stalled.
   */
  @Test
  void aStalledFlowKeepsItsStallAndOlderFormatsReadWithoutIt() throws Exception {
    FlowCapture stalled =
        new FlowCapture(5, 7, 0, 2, 41, "a1", "b1", 700, 1002, 31_000, 16_000, 15_000);
    assertTrue(stalled.stalled());
    StageCapture s = sample();
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
            List.of(stalled),
            s.betaSeconds(),
            s.hostPaths(),
            s.links(),
            s.linkSeries(),
            s.network());
    Path v7 = dir.resolve("stage-7.0.kryo");
    CaptureFiles.writeStage(v7, c);
    assertEquals(List.of(stalled), CaptureFiles.readStage(v7).flows());
    Path v6 = dir.resolve("stage-8.0.kryo");
    CaptureFiles.writeStage(v6, c, 6);
    FlowCapture read = CaptureFiles.readStage(v6).flows().get(0);
    assertEquals(0, read.stalledMs());
    assertEquals(stalled.handedOnMs(), read.handedOnMs());

    Path log = dir.resolve(CaptureFiles.FLOW_LOG);
    StringWriter w = new StringWriter();
    w.write(CaptureFiles.FLOW_LOG_HEADER + "\n");
    CaptureFiles.appendFlow(w, stalled);
    Files.writeString(log, w.toString());
    assertEquals(List.of(stalled), CaptureFiles.readFlowLog(log));
    Files.writeString(
        log, CaptureFiles.FLOW_LOG_HEADER_V2 + "\n5,7,0,2,41,a1,b1,700,1002,31000,16000\n");
    FlowCapture old = CaptureFiles.readFlowLog(log).get(0);
    assertEquals(16_000, old.handedOnMs());
    assertFalse(old.stalled());
  }

  /** A flow log of 10 columns (without handedOnMs) reads with handedOnMs 0: held until its end. */
  @Test
  void flowLogWithoutTheHandedOnColumnStillReads() throws Exception {
    Path log = dir.resolve(CaptureFiles.FLOW_LOG);
    Files.writeString(log, CaptureFiles.FLOW_LOG_HEADER_V1 + "\n5,7,0,2,41,a1,b1,700,1002,1400\n");
    List<FlowCapture> flows = CaptureFiles.readFlowLog(log);
    assertEquals(List.of(new FlowCapture(5, 7, 0, 2, 41, "a1", "b1", 700, 1002, 1400, 0)), flows);
    assertEquals(1400, flows.get(0).heldUntilMs());
  }
}
