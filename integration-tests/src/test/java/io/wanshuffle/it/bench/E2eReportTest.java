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
    };
    for (String[] c : cases) {
      java.io.StringWriter err = new java.io.StringWriter();
      picocli.CommandLine cl = new picocli.CommandLine(new E2eBenchCommand());
      cl.setErr(new java.io.PrintWriter(err, true));
      // --patterns uniform unless the case is about patterns: without ../shared the default trace
      // pattern fails first
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
}
