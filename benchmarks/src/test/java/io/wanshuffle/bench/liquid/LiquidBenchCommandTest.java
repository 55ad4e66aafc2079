package io.wanshuffle.bench.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.bench.BenchRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiquidBenchCommandTest {
  /**
   * Without --trace the two-cluster parts replay the trace the repository ships; the regeneration
   * command names no trace file, so it runs as printed on any copy of the repository.
   */
  @Test
  void theTwoClusterPartsReadTheRepositorysTraceByDefault(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("liquid.md");
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(se))
            .execute(
                "liquid",
                "--kring-samples",
                "1",
                "--time-limit",
                "1",
                "--max-pairs",
                "12",
                "--report",
                out.toString());
    assertEquals(0, status, se.toString());
    String md = Files.readString(out);
    assertTrue(md.contains("## 2. Two clusters, 4 racks each"), md);
    assertTrue(md.contains("Trace `FB2010-1Hr-150-0.txt`: each of its ports"), md);
    assertTrue(
        md.contains("bench liquid --kring-samples 1 --time-limit 1.0 --seed 1 --backbone"), md);
  }

  @Test
  void aMissingTraceIsAUsageErrorNamingTheOption(@TempDir Path dir) {
    StringWriter se = new StringWriter();
    int status =
        BenchRun.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(se))
            .execute(
                "liquid",
                "--trace",
                dir.resolve("nowhere.txt").toString(),
                "--out",
                dir.resolve("l.md").toString());
    assertEquals(2, status);
    assertTrue(se.toString().startsWith("liquid: option --trace: no such file"), se.toString());
    assertTrue(Files.notExists(dir.resolve("l.md")));
  }
}
