package io.wanshuffle.bench.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.bench.BenchRun;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QualityCommandTest {

  @Test
  void paperProtocolInstancesAre20x20WithWeightsInRange() {
    Random rnd = new Random(1);
    for (int i = 0; i < 200; i++) {
      TrafficMatrix m = PaperProtocol.instance(rnd, 20);
      assertEquals(20, m.rows());
      assertEquals(20, m.cols());
      assertTrue(m.nonZeroCount() >= 1 && m.nonZeroCount() <= 400);
      assertTrue(m.maxAmount() <= 20);
    }
  }

  @Test
  void reportHasOneRowPerKAndAutoNeverAboveOggp(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("q.md");
    StringWriter so = new StringWriter();
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(so), new PrintWriter(se))
            .execute(
                "quality",
                "--samples",
                "3",
                "--k",
                "2,7",
                "--algorithms",
                "auto,oggp",
                "--trace",
                "none",
                "--heavy-tailed-samples",
                "0",
                "--output",
                out.toString());
    assertEquals(0, status, se.toString());
    String md = Files.readString(out);
    // "| k | n | auto mean / max | oggp mean / max | ..." rows for k = 2 and 7, in both tables.
    Pattern row = Pattern.compile("\\| (\\d+) \\| 3 \\| ([0-9.]+) / ([0-9.]+) \\| ([0-9.]+) / ");
    Matcher m = row.matcher(md);
    int rows = 0;
    while (m.find()) {
      rows++;
      double autoMean = Double.parseDouble(m.group(2));
      double oggpMean = Double.parseDouble(m.group(4));
      assertTrue(autoMean >= 1.0 && autoMean <= oggpMean, md);
    }
    assertEquals(4, rows, md);
    assertTrue(md.contains("bench quality --samples 3"), "regeneration command is in the report");
  }

  @Test
  void unknownAlgorithmIsAUsageError(@TempDir Path dir) {
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(se))
            .execute("quality", "--algorithms", "nope", "--output", dir.resolve("x.md").toString());
    assertEquals(2, status);
    assertTrue(se.toString().contains("unknown algorithm 'nope'"), se.toString());
  }

  @Test
  void heavyTailedInstancesHaveParetoAmountsOfAtLeastOneSecond() {
    Random rnd = new Random(2);
    TrafficMatrix m = HeavyTailed.instance(rnd, 100);
    assertEquals(100, m.rows());
    assertEquals(100, m.cols());
    double density = m.nonZeroCount() / 10_000.0;
    assertTrue(density > 0.27 && density < 0.33, "density " + density);
    double min = Double.POSITIVE_INFINITY;
    for (int i = 0; i < 100; i++) {
      for (int j = 0; j < 100; j++) {
        if (m.amount(i, j) > 0) {
          min = Math.min(min, m.amount(i, j));
        }
      }
    }
    assertTrue(min >= 1, "minimum " + min);
    // Pareto(1.2) of 3000 draws: the largest is far above the mean (6 s), unlike uniform weights
    assertTrue(m.maxAmount() > 100, "largest " + m.maxAmount());
  }

  @Test
  void heavyTailedPartHasOneRowPerKAndAutoNeverAboveOggp(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("q.md");
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(se))
            .execute(
                "quality",
                "--samples",
                "1",
                "--k",
                "2",
                "--algorithms",
                "auto",
                "--trace",
                "none",
                "--heavy-tailed-samples",
                "2",
                "--heavy-tailed-n",
                "40",
                "--heavy-tailed-k",
                "4,8",
                "--heavy-tailed-algorithms",
                "auto,oggp",
                "--output",
                out.toString());
    assertEquals(0, status, se.toString());
    String md = Files.readString(out);
    String part4 = md.substring(md.indexOf("## 4. Large instances with heavy-tailed amounts"));
    Pattern row = Pattern.compile("\\| (\\d+) \\| 2 \\| ([0-9.]+) / ([0-9.]+) \\| ([0-9.]+) / ");
    Matcher m = row.matcher(part4);
    int rows = 0;
    while (m.find()) {
      rows++;
      assertTrue(Double.parseDouble(m.group(2)) <= Double.parseDouble(m.group(4)), part4);
    }
    assertEquals(2, rows, part4);
    assertTrue(md.contains("--heavy-tailed-n 40"), "regeneration command is in the report");
  }

  /** Without --trace, part 3 replays the trace the repository ships (and says which). */
  @Test
  void partThreeReadsTheRepositorysTraceByDefault(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("q.md");
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(se))
            .execute(
                "quality",
                "--samples",
                "1",
                "--k",
                "2",
                "--algorithms",
                "auto",
                "--trace-algorithms",
                "auto",
                "--trace-k",
                "8",
                "--heavy-tailed-samples",
                "0",
                "--report",
                out.toString());
    assertEquals(0, status, se.toString());
    String md = Files.readString(out);
    assertTrue(md.contains("## 3. Facebook coflow trace, two clusters"), md);
    assertTrue(md.contains("Trace `FB2010-1Hr-150-0.txt` (526 coflows, 150 racks)"), md);
    assertTrue(md.contains("537 instances per k"), md);
  }
}
