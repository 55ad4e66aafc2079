package io.wanshuffle.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.estimate.BruteForceEstimator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} on valid input: JSON contract, text report, --rate, δ lists, registry algorithms.
 */
class PlanCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path EXAMPLES = Path.of("..", "docs", "examples");
  private static final Path DGGP = EXAMPLES.resolve("dggp-example.csv");
  private static final TrafficMatrix DGGP_SECONDS =
      TrafficMatrix.of(new double[][] {{7, 3}, {0, 1}});
  private static final Platform DGGP_PLATFORM =
      Platform.of(2, 1, new int[] {3, 2}, new int[] {1, 3});

  @TempDir Path dir;

  private static JsonNode json(String... args) throws IOException {
    CliRun r = CliRun.of(args);
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    assertEquals(1, r.out().strip().lines().count(), "exactly one JSON object on one line");
    return JSON.readTree(r.out());
  }

  /** Checks the JSON contract and rebuilds the schedule it describes. */
  private static Schedule checkShape(JsonNode j) {
    List<String> keys = new ArrayList<>();
    j.fieldNames().forEachRemaining(keys::add);
    assertEquals(
        List.of("algorithm", "k", "beta", "cost", "lowerBound", "steps", "bruteForceEstimate"),
        keys);
    assertTrue(j.get("algorithm").isTextual());
    assertTrue(j.get("k").isInt());
    assertTrue(
        j.get("beta").isNumber() && j.get("cost").isNumber() && j.get("lowerBound").isNumber());
    List<Step> steps = new ArrayList<>();
    for (JsonNode s : j.get("steps")) {
      List<String> sk = new ArrayList<>();
      s.fieldNames().forEachRemaining(sk::add);
      assertEquals(List.of("duration", "transfers"), sk);
      List<Transfer> ts = new ArrayList<>();
      for (JsonNode t : s.get("transfers")) {
        List<String> tk = new ArrayList<>();
        t.fieldNames().forEachRemaining(tk::add);
        assertEquals(List.of("src", "dst", "amount"), tk);
        assertTrue(t.get("src").isInt() && t.get("dst").isInt());
        ts.add(
            new Transfer(t.get("src").asInt(), t.get("dst").asInt(), t.get("amount").asDouble()));
      }
      steps.add(new Step(s.get("duration").asDouble(), ts));
    }
    Schedule schedule = new Schedule(steps);
    double beta = j.get("beta").asDouble();
    assertEquals(
        schedule.cost(beta),
        j.get("cost").asDouble(),
        1e-9 * (1 + schedule.cost(beta)),
        "cost = Σ(β + duration)");
    return schedule;
  }

  /** The root's {@code --version} is checked by the root's test (module app). */
  @Test
  void everyCommandPrintsTheVersion() {
    for (String[] args : new String[][] {{"plan", "--version"}, {"liquid", "-V"}}) {
      CliRun r = CliRun.of(args);
      assertEquals(0, r.status(), String.join(" ", args));
      assertTrue(
          r.out().startsWith("wan-shuffle "), String.join(" ", args) + ": '" + r.out() + "'");
    }
  }

  @Test
  void bytesAreDividedByTheRate(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws java.io.IOException {
    java.nio.file.Path m = java.nio.file.Files.writeString(dir.resolve("b.csv"), "35000000\n");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            m.toString(),
            "--rate",
            "12500000",
            "--k",
            "1",
            "--beta",
            "0",
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("\"cost\":2.8,"), r.out());
  }

  @Test
  void jsonIsTheContractShapeAndTheScheduleValidates() throws IOException {
    JsonNode j =
        json(
            "plan",
            "--matrix",
            DGGP.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--delta-senders",
            "3,2",
            "--delta-receivers",
            "1,3",
            "--algorithm",
            "one-per-step",
            "--format",
            "json");
    Schedule s = checkShape(j);
    s.validate(DGGP_SECONDS, DGGP_PLATFORM);
    assertEquals("one-per-step", j.get("algorithm").asText());
    assertEquals(2, j.get("k").asInt());
    assertEquals(1.0, j.get("beta").asDouble());
    // one step per non-zero entry: (1 + 7) + (1 + 3) + (1 + 1)
    assertEquals(14.0, j.get("cost").asDouble(), 1e-12);
    assertEquals(3, s.stepCount());
    assertEquals(new Transfer(0, 0, 7), s.steps().get(0).transfers().get(0));
  }

  @Test
  void deltaListsReachTheLowerBound() throws IOException {
    // δ-port (DGGP paper sec. 2.4): η = 7 + 1·2 = 9; 1-port: η_d = w(s1) = 10, η_s = 2, η = 12
    JsonNode delta =
        json(
            "plan",
            "--matrix",
            DGGP.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--delta-senders",
            "3,2",
            "--delta-receivers",
            "1,3",
            "--algorithm",
            "one-per-step",
            "--format",
            "json");
    assertEquals(9.0, delta.get("lowerBound").asDouble(), 1e-12);
    JsonNode onePort =
        json(
            "plan",
            "--matrix",
            DGGP.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--algorithm",
            "one-per-step",
            "--format",
            "json");
    assertEquals(12.0, onePort.get("lowerBound").asDouble(), 1e-12);
  }

  @Test
  void rateTurnsBytesIntoSeconds() throws IOException {
    JsonNode bytes =
        json(
            "plan",
            "--matrix",
            EXAMPLES.resolve("dggp-example-bytes.csv").toString(),
            "--rate",
            "12500000",
            "--k",
            "2",
            "--beta",
            "1",
            "--delta-senders",
            "3,2",
            "--delta-receivers",
            "1,3",
            "--algorithm",
            "one-per-step",
            "--format",
            "json");
    Schedule s = checkShape(bytes);
    s.validate(DGGP_SECONDS, DGGP_PLATFORM);
    assertEquals(7.0, s.steps().get(0).transfers().get(0).amount(), 1e-12);
    assertEquals(3.0, s.steps().get(1).duration(), 1e-12);
    assertEquals(9.0, bytes.get("lowerBound").asDouble(), 1e-12);
  }

  @Test
  void textReportForPeople() throws IOException {
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            DGGP.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--delta-senders",
            "3,2",
            "--delta-receivers",
            "1,3",
            "--algorithm",
            "one-per-step");
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("algorithm   one-per-step", lines.get(0));
    assertTrue(lines.contains("cost        14 s  (3 steps: 3 s setup + 11 s transfer)"), r.out());
    assertTrue(
        lines.contains("eta         9 s  (lower bound: eta_d = 7 s, eta_s = 2 steps)"), r.out());
    assertTrue(lines.contains("ratio       1.5556  (cost / eta)"), r.out());
    assertTrue(lines.contains("platform    k = 2, beta = 1 s, delta-port"), r.out());
    // step table, host names from the header, start = Σ previous (β + duration)
    assertTrue(lines.contains("   1          0          7  s1 -> A: 7"), r.out());
    assertTrue(lines.contains("   2          8          3  s1 -> B: 3"), r.out());
    assertTrue(lines.contains("   3         12          1  s2 -> B: 1"), r.out());
  }

  @Test
  void textReportUsesZeroBasedIndicesWithoutHostNames() throws IOException {
    Path p = dir.resolve("plain.csv");
    Files.writeString(p, "0,5\n2,0\n");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            p.toString(),
            "--k",
            "1",
            "--beta",
            "0.5",
            "--algorithm",
            "one-per-step");
    assertEquals(0, r.status(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(
        lines.contains(
            "step      start   duration  transfers (sender -> receiver: seconds;"
                + " zero-based row -> column)"),
        r.out());
    assertTrue(lines.contains("   1          0          5  0 -> 1: 5"), r.out());
    assertTrue(lines.contains("   2        5.5          2  1 -> 0: 2"), r.out());
    assertTrue(lines.contains("platform    k = 1, beta = 0.5 s, 1-port"), r.out());
  }

  @Test
  void headerNamesAreKept() throws IOException {
    MatrixFile f = MatrixCsv.read(DGGP);
    assertEquals(List.of("s1", "s2"), f.senderNames());
    assertEquals(List.of("A", "B"), f.receiverNames());
    assertEquals(DGGP_SECONDS, f.amounts());
    MatrixFile plain = MatrixCsv.read(EXAMPLES.resolve("random-20x20.csv"));
    assertEquals(20, plain.amounts().rows());
    assertEquals(20, plain.amounts().cols());
    assertTrue(!plain.hasHostNames());
  }

  @Test
  void cellsAllowSpacesExponentsAndCrLf() throws IOException {
    Path p = dir.resolve("m.csv");
    Files.writeString(p, "\uFEFF 1.5 , 2e3\r\n\r\n0,.25\r\n");
    MatrixFile f = MatrixCsv.read(p);
    assertEquals(TrafficMatrix.of(new double[][] {{1.5, 2000}, {0, 0.25}}), f.amounts());
  }

  /** Every algorithm the registry holds plans the shipped examples and random matrices validly. */
  @Test
  void everyRegisteredAlgorithmGivesValidJson() throws IOException {
    assumeTrue(!Algorithms.names().isEmpty(), "no algorithm registered yet");
    Random rnd = new Random(7);
    for (String name : Algorithms.names()) {
      if (name.equals("exact")) {
        continue; // tiny instances only: tested below on the DGGP example
      }
      for (int trial = 0; trial < 20; trial++) {
        int rows = 1 + rnd.nextInt(8);
        int cols = 1 + rnd.nextInt(8);
        double[][] a = new double[rows][cols];
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < rows; i++) {
          for (int j = 0; j < cols; j++) {
            a[i][j] = rnd.nextDouble() < 0.5 ? 0 : 1 + rnd.nextInt(20);
            csv.append(j == 0 ? "" : ",").append((long) a[i][j]);
          }
          csv.append('\n');
        }
        Path p = dir.resolve("r" + trial + ".csv");
        Files.writeString(p, csv);
        int k = 1 + rnd.nextInt(Math.min(rows, cols) + 1);
        JsonNode j =
            json(
                "plan",
                "--matrix",
                p.toString(),
                "--k",
                "" + k,
                "--beta",
                "1",
                "--algorithm",
                name,
                "--format",
                "json");
        Schedule s = checkShape(j);
        TrafficMatrix m = TrafficMatrix.of(a);
        Platform pf = Platform.onePort(k, 1, rows, cols);
        s.validate(m, pf);
        assertEquals(LowerBound.of(m, pf).eta(), j.get("lowerBound").asDouble(), 1e-9);
        assertTrue(j.get("cost").asDouble() >= j.get("lowerBound").asDouble() - 1e-9);
        assertEquals(
            BruteForceEstimator.estimate(m, pf), j.get("bruteForceEstimate").asDouble(), 1e-9);
      }
    }
  }

  /**
   * The DGGP running example (DGGP paper sec. 2.3-2.5): every registered algorithm's schedule
   * validates and costs at least η = 9; the best of them ({@code auto} or {@code exact}) reaches 9.
   */
  @Test
  void dggpPaperExample() throws IOException {
    assumeTrue(!Algorithms.names().isEmpty(), "no algorithm registered yet");
    double best = Double.POSITIVE_INFINITY;
    for (String name : Algorithms.names()) {
      JsonNode j =
          json(
              "plan",
              "--matrix",
              DGGP.toString(),
              "--k",
              "2",
              "--beta",
              "1",
              "--delta-senders",
              "3,2",
              "--delta-receivers",
              "1,3",
              "--algorithm",
              name,
              "--format",
              "json");
      checkShape(j).validate(DGGP_SECONDS, DGGP_PLATFORM);
      assertEquals(9.0, j.get("lowerBound").asDouble(), 1e-12);
      assertTrue(j.get("cost").asDouble() >= 9 - 1e-9, name);
      best = Math.min(best, j.get("cost").asDouble());
    }
    if (Algorithms.names().contains("auto") || Algorithms.names().contains("exact")) {
      assertEquals(9.0, best, 1e-9, "the best algorithm reaches η = 9");
    }
  }

  /** The η_o example: two steps of one second are optimal (cost 2 = η with β = 0). */
  @Test
  void etaOExampleLowerBound() throws IOException {
    String algo = Algorithms.names().contains("auto") ? "auto" : "one-per-step";
    JsonNode j =
        json(
            "plan",
            "--matrix",
            EXAMPLES.resolve("eta-o-example.csv").toString(),
            "--k",
            "2",
            "--beta",
            "0",
            "--algorithm",
            algo,
            "--format",
            "json");
    Schedule s = checkShape(j);
    s.validate(
        TrafficMatrix.of(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}}),
        Platform.onePort(2, 0, 3, 3));
    assertEquals(2.0, j.get("lowerBound").asDouble(), 1e-12);
    if (algo.equals("auto")) {
      assertEquals(2.0, j.get("cost").asDouble(), 1e-9, "auto is optimal on the η_o example");
    }
  }

  @Test
  void helpGoesToStdout() {
    CliRun r = CliRun.of("plan", "--help");
    assertEquals(0, r.status());
    assertTrue(r.out().contains("--delta-receivers"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void allZeroMatrixGivesAnEmptySchedule() throws IOException {
    assumeTrue(!Algorithms.names().isEmpty(), "no algorithm registered yet");
    Path p = dir.resolve("zero.csv");
    Files.writeString(p, "0,0\n0,0\n");
    for (Iterator<String> it = Algorithms.names().iterator(); it.hasNext(); ) {
      JsonNode j =
          json(
              "plan",
              "--matrix",
              p.toString(),
              "--k",
              "1",
              "--beta",
              "1",
              "--algorithm",
              it.next(),
              "--format",
              "json");
      assertEquals(0, j.get("steps").size());
      assertEquals(0.0, j.get("cost").asDouble());
    }
  }

  /**
   * η_o beside the cost: on a complete bipartite matrix of equal amounts fair sharing is perfect
   * and η_o is the η_d bound max(P/k, max w(v)) (Wagner and Jeannot, INRIA RR-5361, sec. 3.1); the
   * text report prints it.
   */
  @Test
  void bruteForceEstimateIsPrintedBesideTheCost() throws IOException {
    Path p = dir.resolve("uniform.csv");
    Files.writeString(p, "2,2,2\n2,2,2\n2,2,2\n");
    // P = 18, k = 2: the backbone is the bottleneck, 9 s
    JsonNode j =
        json("plan", "--matrix", p.toString(), "--k", "2", "--beta", "1", "--format", "json");
    assertEquals(9.0, j.get("bruteForceEstimate").asDouble(), 1e-9);
    CliRun r = CliRun.of("plan", "--matrix", p.toString(), "--k", "2", "--beta", "1");
    assertEquals(0, r.status(), r.err());
    assertTrue(
        r.out()
            .lines()
            .anyMatch(
                l ->
                    l.equals(
                        "eta_o       9 s  (Spark's default: every transfer at once, fair sharing)")),
        r.out());
  }

  /** Over the size limit η_o is not computed: JSON null, and the text says why. */
  @Test
  void bruteForceEstimateIsSkippedOverItsLimit() throws IOException {
    int n = 129; // 16,641 transfers
    StringBuilder csv = new StringBuilder();
    for (int i = 0; i < n; i++) {
      csv.append("1,".repeat(n - 1)).append("1\n");
    }
    Path p = dir.resolve("large.csv");
    Files.writeString(p, csv);
    JsonNode j =
        json(
            "plan",
            "--matrix",
            p.toString(),
            "--k",
            "8",
            "--beta",
            "1",
            "--algorithm",
            "ggp",
            "--format",
            "json");
    assertTrue(j.get("bruteForceEstimate").isNull(), j.toString());
    CliRun r =
        CliRun.of(
            "plan", "--matrix", p.toString(), "--k", "8", "--beta", "1", "--algorithm", "ggp");
    assertTrue(r.out().contains("eta_o       not computed (more than 16384 transfers)"), r.out());
  }
}
