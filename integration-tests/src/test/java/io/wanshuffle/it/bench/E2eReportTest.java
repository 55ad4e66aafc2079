package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class E2eReportTest {
  static final TestbedSpec SPEC = TestbedSpec.defaults();

  /**
   * 3 x 3 uniform, 150 MB: 9 transfers, k = 2, so any schedule has at least ceil(9 / 2) = 5 steps.
   */
  static final long[][] UNIFORM = {
    {16_666_667, 16_666_667, 16_666_667},
    {16_666_667, 16_666_667, 16_666_667},
    {16_666_667, 16_666_667, 16_666_667}
  };

  @Test
  void setupTimeCountsAtLeastTheStepsAnyScheduleNeeds() {
    double setup = E2eReport.setupSeconds(UNIFORM, SPEC, 0.05);
    assertTrue(setup >= 5 * 0.05 - 1e-9, "at least 5 steps of 50 ms, got " + setup + " s");
    assertEquals(0.0, E2eReport.setupSeconds(UNIFORM, SPEC, 0.0), 1e-12);
    double steps = setup / 0.05;
    assertEquals(Math.rint(steps), steps, 1e-9, "a whole number of steps times beta");
  }

  @Test
  void reportRowsGiveTheRatioToTheLimitAndToTheLimitPlusSetup() {
    double limit = Comparison.physicalLimitSeconds(UNIFORM, SPEC); // 150 MB / 25 MB/s = 6 s
    List<Comparison.Figures> runs = List.of(fig(6.6), fig(6.3), fig(6.9));
    List<Double> setups = List.of(0.3, 0.3, 0.3);
    String md =
        E2eReport.markdown(
            List.of(new E2eReport.Cell("uniform", 0, "auto", runs, setups, List.of())),
            "test",
            1,
            200e6);
    String row = md.lines().filter(l -> l.startsWith("| uniform |")).findFirst().orElseThrow();
    String[] cells = row.split("\\|");
    assertEquals("6.60", cells[4].trim(), row);
    assertEquals(String.format(java.util.Locale.ROOT, "%.2f", 6.6 / limit), cells[8].trim(), row);
    assertEquals(
        String.format(java.util.Locale.ROOT, "%.2f (0.30 s)", 6.6 / (limit + 0.3)),
        cells[9].trim(),
        row);
    assertEquals(11, cells.length, "no stalled-flows column without --tcp-sample: " + row);
  }

  @Test
  void sampledCellsGetTheStalledFlowsOfEachRun() {
    List<Comparison.Figures> runs = List.of(fig(6.6), fig(6.3), fig(6.9));
    List<Double> setups = List.of(0.3, 0.3, 0.3);
    String md =
        E2eReport.markdown(
            List.of(
                new E2eReport.Cell("uniform", 40, "auto", runs, setups, List.of(0, 2, 1)),
                new E2eReport.Cell("zipf", 40, "auto", runs, setups, List.of())),
            "test",
            1,
            200e6);
    String header = md.lines().filter(l -> l.startsWith("| pattern |")).findFirst().orElseThrow();
    assertTrue(header.endsWith("| stalled flows per run |"), header);
    String row = md.lines().filter(l -> l.startsWith("| uniform |")).findFirst().orElseThrow();
    assertEquals("0, 2, 1", row.split("\\|")[11].trim(), row);
    String unsampled = md.lines().filter(l -> l.startsWith("| zipf |")).findFirst().orElseThrow();
    assertEquals("-", unsampled.split("\\|")[11].trim(), unsampled);
  }

  private static Comparison.Figures fig(double reduceSeconds) {
    return new Comparison.Figures(
        "auto",
        reduceSeconds,
        1,
        1,
        150_000_000,
        150_000_000,
        150e6 * 8 / reduceSeconds,
        200e6,
        Comparison.physicalLimitSeconds(UNIFORM, SPEC),
        0.1);
  }

  @Test
  void aPatternTheTopologyCannotHoldFailsBeforeAnyRun() {
    java.io.StringWriter err = new java.io.StringWriter();
    picocli.CommandLine cl = new picocli.CommandLine(new E2eBenchCommand());
    cl.setErr(new java.io.PrintWriter(err, true));
    int rc =
        cl.execute(
            "--patterns",
            "uniform,fair-poor",
            "--nodes-a",
            "2",
            "--report",
            System.getProperty("java.io.tmpdir") + "/never-written.md");
    assertEquals(2, rc, err.toString());
    assertTrue(
        err.toString().contains("fair-sharing-poor pattern needs at least 3 + 3 hosts, got 2 + 3"),
        err.toString());
    assertEquals(
        2,
        new picocli.CommandLine(new E2eBenchCommand())
            .setErr(new java.io.PrintWriter(new java.io.StringWriter()))
            .execute("--patterns", "skewed"),
        "an unknown pattern is a usage error");
  }

  @Test
  void badVariantsRunsSizesAndRttsFailBeforeAnyRunAndLeaveTheReportAlone() throws Exception {
    java.nio.file.Path report = java.nio.file.Files.createTempFile("e2e-report", ".md");
    java.nio.file.Files.writeString(report, "published table\n");
    String[][] cases = {
      {"--variants", "foo", "unknown [foo]"},
      {"--variants", "default,ogpp/barrier", "unknown [ogpp/barrier]"},
      {"--runs", "0", "--runs and --mb must be >= 1, got 0 and 150"},
      {"--mb", "-5", "--runs and --mb must be >= 1, got 3 and -5"},
      {"--rtts", "0,5000", "--rtts: WAN RTT must be 0..2000 ms, got 5000"},
      {"--patterns", "skewed", "--patterns: unknown pattern 'skewed'"},
      {"--conf", "spark.wanshuffle.k=0", "--conf: spark.wanshuffle.k = '0'"},
      {"--variants", "default,auto/fast", "'auto/fast': unknown suffix"},
      {"--variants", "default,auto/measured", "use auto-rackblind/measured"},
      {"--load", "-1", "--load: busy processes must be 0 or more, got [-1]"},
      {"--load", "2,2", "--load: a count given twice: [2, 2]"},
    };
    for (String[] c : cases) {
      java.io.StringWriter err = new java.io.StringWriter();
      picocli.CommandLine cl = new picocli.CommandLine(new E2eBenchCommand());
      cl.setErr(new java.io.PrintWriter(err, true));
      // --patterns uniform unless the case is about patterns: the trace pattern would read the
      // trace first
      List<String> args =
          new java.util.ArrayList<>(
              List.of(
                  c[0],
                  c[1],
                  "--report",
                  report.toString(),
                  "--out",
                  System.getProperty("java.io.tmpdir") + "/e2e-never-run"));
      if (!c[0].equals("--patterns")) {
        args.addAll(List.of("--patterns", "uniform"));
      }
      int rc = cl.execute(args.toArray(String[]::new));
      assertEquals(2, rc, c[0] + " " + c[1] + ": " + err);
      assertTrue(err.toString().contains(c[2]), c[0] + " " + c[1] + ": " + err);
    }
    assertEquals(
        "published table\n", java.nio.file.Files.readString(report), "no run, no report written");
  }

  private static io.wanshuffle.it.links.LinkRun linkRun(
      String busyLink, double utilisation, Integer maxFlows, long drops, double limitSeconds) {
    java.util.Map<String, io.wanshuffle.it.links.LinkLoad> loads = new java.util.LinkedHashMap<>();
    loads.put(
        busyLink, new io.wanshuffle.it.links.LinkLoad(1, maxFlows, 1L, utilisation, 1e6, drops));
    return new io.wanshuffle.it.links.LinkRun(
        loads,
        new io.wanshuffle.it.links.TopologyLinks.Limit(limitSeconds, busyLink),
        List.of(busyLink));
  }

  @Test
  void linkColumnsCompareWithTheRackBlindRunAndGiveTheBottlenecksAndTheWorstOverload() {
    String up = "rack.uplink[/A/rack0]";
    List<Comparison.Figures> fast = List.of(fig(6.0), fig(6.0), fig(6.0));
    List<Comparison.Figures> slow = List.of(fig(8.0), fig(8.0), fig(8.0));
    List<Double> setups = List.of(0.3, 0.3, 0.3);
    E2eReport.Cell blind =
        new E2eReport.Cell(
            "2 sites x 2 racks",
            "zipf",
            0,
            "auto-rackblind",
            slow,
            setups,
            List.of(),
            List.of(
                linkRun(up, 0.70, 2, 40, 5.0),
                linkRun(up, 0.72, 1, 60, 5.0),
                linkRun(up, 0.74, 2, 50, 5.0)));
    E2eReport.Cell aware =
        new E2eReport.Cell(
            "2 sites x 2 racks",
            "zipf",
            0,
            "auto",
            fast,
            setups,
            List.of(),
            List.of(
                linkRun(up, 0.90, 1, 0, 5.0),
                linkRun(up, 0.92, 1, 2, 5.0),
                linkRun(up, 0.94, 1, 1, 5.0)));
    String md = E2eReport.markdown(List.of(blind, aware), "test", 1, 200e6);
    String header = md.lines().filter(l -> l.startsWith("| testbed |")).findFirst().orElseThrow();
    assertTrue(
        header.endsWith(
            "| vs rack-blind | reduce / generalised limit | bottleneck links (utilisation) | most"
                + " flows / capacity | tbf drops |"),
        header);
    String row =
        md.lines().filter(l -> l.contains("| zipf | 0 | auto |")).findFirst().orElseThrow();
    String[] cells = row.split("\\|");
    assertEquals("2 sites x 2 racks", cells[1].trim(), row);
    assertEquals("-25.0%", cells[12].trim(), "6 s against the rack-blind 8 s: " + row);
    assertEquals("1.20", cells[13].trim(), "6 s over a 5 s limit: " + row);
    assertEquals(up + " 92%", cells[14].trim(), "the median utilisation: " + row);
    assertEquals("1 / 1 " + up, cells[15].trim(), row);
    assertEquals("1", cells[16].trim(), "median drops: " + row);
    String blindRow =
        md.lines().filter(l -> l.contains("| auto-rackblind |")).findFirst().orElseThrow();
    String[] b = blindRow.split("\\|");
    assertEquals("-", b[12].trim(), "no rack-blind run to compare a rack-blind one with");
    assertEquals("2 / 1 " + up + " ABOVE", b[15].trim(), "the worst run: " + blindRow);
    assertEquals("auto-rackblind/barrier", E2eReport.rackBlind("auto/barrier"));
  }

  @Test
  void eachShapeIsATestbedOfItsOwnAndAShapeCannotSetTheRtt() {
    E2eBenchCommand cmd = new E2eBenchCommand();
    new picocli.CommandLine(cmd).parseArgs("--tcp-cc", "cubic");
    TestbedSpec three = cmd.shapeSpec("--sites 3 --hosts 2,3,2 --backbone 200mbit,200mbit,100mbit");
    assertEquals(List.of(2, 3, 2), three.hostsPerSite());
    assertEquals(
        List.of(200_000_000L, 200_000_000L, 100_000_000L), three.backboneSideBitsPerSecond());
    assertEquals("cubic", three.tcpCongestionControl(), "the command line's congestion control");
    TestbedSpec racks = cmd.shapeSpec(" --racks 2 --hosts 4 --rack-uplink 100mbit ");
    assertEquals(2, racks.racksPerSite());
    assertEquals(100_000_000L, racks.rackUplinkBitsPerSecond());
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> cmd.shapeSpec("--racks 2 --rtt 40"));
    assertEquals("--shape '--racks 2 --rtt 40': give the RTTs with --rtts", e.getMessage());
    e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> cmd.shapeSpec("--sites 7"));
    assertEquals("--shape '--sites 7': --sites: must be 2..4, got 7", e.getMessage());
    java.io.StringWriter err = new java.io.StringWriter();
    picocli.CommandLine cl = new picocli.CommandLine(new E2eBenchCommand());
    cl.setErr(new java.io.PrintWriter(err, true));
    assertEquals(
        2,
        cl.execute(
            "--patterns",
            "both-ways",
            "--shape",
            "--sites 3",
            "--report",
            System.getProperty("java.io.tmpdir") + "/never-written.md"),
        err.toString());
    assertTrue(err.toString().contains("pattern both-ways needs two sites, got 3"), err.toString());
  }

  @Test
  void thePredictionSectionComparesEachPredictionWithWhatWasMeasured() {
    io.wanshuffle.it.app.RunNetwork d1 =
        new io.wanshuffle.it.app.RunNetwork(8.0, null, null, null, java.util.Map.of());
    io.wanshuffle.it.app.RunNetwork d2 =
        new io.wanshuffle.it.app.RunNetwork(10.0, null, null, null, java.util.Map.of());
    io.wanshuffle.it.app.RunNetwork w1 =
        new io.wanshuffle.it.app.RunNetwork(
            5.0, 5.5, 9.0, 0.1, java.util.Map.of("backbone.out[/A]", 12.5e6, "nic.up[a]", 1.0));
    io.wanshuffle.it.app.RunNetwork w2 =
        new io.wanshuffle.it.app.RunNetwork(
            4.0, 4.0, 9.9, 0.2, java.util.Map.of("backbone.out[/A]", 12.5e6));
    String md =
        E2eReport.prediction(
            List.of(
                new E2eReport.Cell(
                    "",
                    "zipf",
                    40,
                    "default",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(d1, d2)),
                new E2eReport.Cell(
                    "",
                    "zipf",
                    40,
                    "auto",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(w1, w2))));
    assertTrue(md.contains("## Prediction"), md);
    // default phase median 9 s; auto: phase 4.5, scheduled 4.75 with |error| 10 % and 0 % -> 5 %,
    // default predicted 9.45 against 9: 5 %
    assertTrue(md.contains("| zipf | 40 | default | 9.00 | - | - | - | - | - | - |"), md);
    assertTrue(
        md.contains(
            "| zipf | 40 | auto | 4.50 | 4.75 | 5 % | 9.45 | 5 % | 0.150 | backbone.out[/A] 100.0 |"),
        md);
    assertEquals("", E2eReport.prediction(List.of()));
    String loaded =
        E2eReport.prediction(
            List.of(
                new E2eReport.Cell(
                    "2 busy processes",
                    "zipf",
                    40,
                    "auto",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(w1, w2))));
    assertTrue(
        loaded.contains(
            "| 2 busy processes | zipf | 40 | auto | 4.50 | 4.75 | 5 % | 9.45 | - | 0.150 |"),
        "cells of several shapes or loads name theirs: " + loaded);
    assertTrue(loaded.contains("| testbed | pattern |"), loaded);
  }
}
