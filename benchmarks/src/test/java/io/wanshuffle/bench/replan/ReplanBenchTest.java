package io.wanshuffle.bench.replan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.bench.BenchRun;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplanBenchTest {

  @Test
  void shapesHaveTheirDensityAndEveryHostHasWork() {
    int n = 200;
    TrafficMatrix dense = ResidualInstances.matrix(ResidualInstances.Shape.DENSE, n, 1);
    TrafficMatrix sparse = ResidualInstances.matrix(ResidualInstances.Shape.SPARSE, n, 1);
    TrafficMatrix skewed = ResidualInstances.matrix(ResidualInstances.Shape.SKEWED, n, 1);
    assertEquals(n * n, dense.nonZeroCount());
    assertEquals(dense, ResidualInstances.matrix(ResidualInstances.Shape.DENSE, n, 1));
    assertNotEquals(dense, ResidualInstances.matrix(ResidualInstances.Shape.DENSE, n, 2));
    double sparseDensity = sparse.nonZeroCount() / (double) (n * n);
    assertTrue(sparseDensity > 0.08 && sparseDensity < 0.13, "sparse density " + sparseDensity);
    double skewedDensity = skewed.nonZeroCount() / (double) (n * n);
    assertTrue(skewedDensity > 0.27 && skewedDensity < 0.33, "skewed density " + skewedDensity);
    for (TrafficMatrix m : List.of(dense, sparse, skewed)) {
      for (int i = 0; i < n; i++) {
        double row = 0;
        double col = 0;
        for (int j = 0; j < n; j++) {
          row += m.amount(i, j);
          col += m.amount(j, i);
          assertTrue(
              m.amount(i, j) == 0
                  || m.amount(i, j) >= ResidualInstances.MIN_SECONDS
                      && m.amount(i, j) <= ResidualInstances.MAX_SECONDS);
        }
        assertTrue(row > 0 && col > 0, "host " + i + " has work");
      }
    }
    // skew: the hottest sender holds far more than the median sender
    double[] rows = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        rows[i] += skewed.amount(i, j);
      }
    }
    java.util.Arrays.sort(rows);
    assertTrue(
        rows[n - 1] > 3 * rows[n / 2],
        "skewed rows: max " + rows[n - 1] + " median " + rows[n / 2]);
    assertEquals(10, ResidualInstances.platform(50, 10).k());
    assertEquals(50, ResidualInstances.platform(50, 80).k(), "k capped by n (delta = 1)");
  }

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new String[] {Integer.toString(status), out.toString(), err.toString()};
  }

  @Test
  void smallRunWritesAReportWithValidatedPlans(@TempDir Path dir) throws Exception {
    Path md = dir.resolve("replan.md");
    String[] r =
        run(
            "replan",
            "--sizes",
            "6,12",
            "--shapes",
            "dense,skewed",
            "--k",
            "3,50",
            "--algorithms",
            "oggp,greedy",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--output",
            md.toString());
    assertEquals("0", r[0], r[2]);
    String text = Files.readString(md);
    assertTrue(
        text.contains(
            "    ./wan-shuffle bench replan --sizes 6,12 --shapes dense,skewed"
                + " --k 3,50 --algorithms oggp,greedy --warmup 0 --runs 2"),
        text);
    // 2 shapes x 2 sizes x 2 k x 2 algorithms = 16 rows
    long rows =
        text.lines().filter(l -> l.startsWith("| dense |") || l.startsWith("| skewed |")).count();
    assertEquals(16, rows, text);
    assertTrue(text.contains("| dense | 6 | 3 | 36 | oggp |"), text);
    assertTrue(text.contains("| dense | 12 | 12 | 144 | greedy |"), text);
  }

  @Test
  void badOptionsExitTwoWithOneLine() {
    String[] r = run("replan", "--shapes", "round");
    assertEquals("2", r[0]);
    assertEquals(1, r[2].strip().lines().count(), r[2]);
    assertTrue(r[2].startsWith("replan: option --shapes: unknown shape 'round'"), r[2]);
    r = run("replan", "--k", "0");
    assertEquals("2", r[0]);
    assertTrue(r[2].startsWith("replan: option --k: k must be >= 1, got 0"), r[2]);
    r = run("replan", "--algorithms", "nope");
    assertEquals("2", r[0]);
    assertTrue(r[2].startsWith("replan: option --algorithms: unknown algorithm 'nope'"), r[2]);
  }
}
