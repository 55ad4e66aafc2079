package io.wanshuffle.bench.speed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.bench.BenchRun;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpeedBenchTest {

  @Test
  void denseInstancesAreDenseSeededAndInRange() {
    TrafficMatrix a = DenseInstances.matrix(50, 3);
    assertEquals(a, DenseInstances.matrix(50, 3));
    assertTrue(!a.equals(DenseInstances.matrix(50, 4)));
    assertEquals(2500, a.nonZeroCount());
    assertTrue(a.maxAmount() <= DenseInstances.MAX_WEIGHT);
    for (int i = 0; i < 50; i++) {
      for (int j = 0; j < 50; j++) {
        assertTrue(a.amount(i, j) >= 1 && a.amount(i, j) == Math.rint(a.amount(i, j)));
      }
    }
    assertEquals(1, DenseInstances.k(5));
    assertEquals(2, DenseInstances.k(20));
    assertEquals(100, DenseInstances.k(1000));
    assertEquals(100, DenseInstances.platform(1000).k());
  }

  @Test
  void probeLineParses() {
    ProbeResult r =
        ProbeResult.parse(
            "seconds=1.250000 cpu=1.000000 warmSeconds=0.500000 warmCpu=0.400000"
                + " warmRuns=3 peakHeap=1048576 steps=42 ratio=1.031000\n");
    assertEquals(
        new ProbeResult(
            ProbeResult.Outcome.FINISHED, 1.25, 1.0, 0.5, 0.4, 3, 1048576, 42, 1.031, ""),
        r);
    assertEquals(ProbeResult.Outcome.FAILED, ProbeResult.parse("Exception in thread").outcome());
  }

  @Test
  void reportChecksTheTargets() {
    ProbeResult ok =
        new ProbeResult(
            ProbeResult.Outcome.FINISHED, 1.5, 1.25, 0.75, 0.5, 4, 200L << 20, 60, 1.01, "");
    List<SpeedRow> rows =
        List.of(
            new SpeedRow("auto", 500, 50, ok, 1500, 20, 1400, 3e6),
            new SpeedRow("auto", 1000, 100, ok, 12000, 300, 11000, 9e6),
            new SpeedRow(
                "ggp",
                1000,
                100,
                ProbeResult.timeLimit(120),
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN));
    String md = SpeedReport.render(rows, "./wan-shuffle bench speed", "s", "m", "now", "1 1 1");
    assertTrue(
        md.contains(
            "| auto | 500 | 50 | 1500 ± 20.00 | 1400 | 3.00 | 1.50 / 1.25 | 0.750 / 0.500 | 200 | 60 | 1.0100 |"),
        md);
    assertTrue(
        md.contains(
            "| ggp | 1000 | 100 | — | — | — | time limit: over the 120 s time limit | — | — | — | — |"),
        md);
    assertTrue(
        md.contains(
            "- 500 x 500 in under 2.00 s: **met** (JMH 1.50 s per call (wall), best"
                + " iteration 1.40 s; cold run 1.50 s wall, 1.25 s CPU; warm run 0.750 s wall, 0.500 s CPU)"),
        md);
    assertTrue(
        md.contains(
            "- 1000 x 1000 in under 10.00 s: **not met in wall time** (JMH 12.00 s"
                + " per call (wall), best iteration 11.00 s"),
        md);
    assertTrue(
        md.contains("; the CPU time is under the target, so the wall time reflects the load"), md);
    assertTrue(md.contains("- memory under 1 GB: **met**"), md);
    assertTrue(md.contains("    ./wan-shuffle bench speed\n"), md);
  }

  @Test
  void memoryTargetFailsWhenAColdRunDidNotFinish() {
    List<SpeedRow> rows =
        List.of(
            new SpeedRow(
                "auto",
                1000,
                100,
                ProbeResult.failed("java.lang.OutOfMemoryError: Java heap space"),
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN));
    String md = SpeedReport.render(rows, "c", "s", "m", "now", "l");
    assertTrue(md.contains("- memory under 1 GB: **not met**"), md);
    assertTrue(
        md.contains("- 1000 x 1000 in under 10.00 s: **not met** (java.lang.OutOfMemoryError"), md);
  }

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new String[] {Integer.toString(status), out.toString(), err.toString()};
  }

  @Test
  void badOptionsExitTwoWithOneLine() {
    String[] r = run("speed", "--algorithms", "no-such-algorithm");
    assertEquals("2", r[0]);
    assertEquals("", r[1]);
    assertEquals(1, r[2].strip().lines().count(), r[2]);
    assertTrue(
        r[2].startsWith("speed: option --algorithms: unknown algorithm 'no-such-algorithm'"), r[2]);
    r = run("speed", "--sizes", "0");
    assertEquals("2", r[0]);
    assertTrue(r[2].startsWith("speed: option --sizes: n must be >= 1, got 0"), r[2]);
    r = run();
    assertEquals("2", r[0]);
    assertTrue(r[2].startsWith("bench: missing subcommand"), r[2]);
  }
}
