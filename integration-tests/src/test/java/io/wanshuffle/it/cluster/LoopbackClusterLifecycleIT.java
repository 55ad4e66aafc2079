package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up and tear-down of {@link LoopbackCluster}: nothing is left running, even after a failure.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LoopbackClusterLifecycleIT {
  @TempDir Path runs;

  /** Processes of any cluster started under {@code root}, found by the marker property. */
  static List<ProcessHandle> marked(Path root) {
    return ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .orElse("")
                    .contains("-D" + LoopbackCluster.RUN_DIR_PROPERTY + "=" + root))
        .toList();
  }

  @Test
  void startsMasterAndWorkersOnTheirAddressesAndCloseLeavesNothingRunning() throws Exception {
    ClusterSpec spec =
        ClusterSpec.builder().cluster("east", 1).cluster("west", 1).runRoot(runs).build();
    List<ProcessHandle> procs;
    try (LoopbackCluster c = LoopbackCluster.start(spec)) {
      assertTrue(c.masterUrl().matches("spark://127\\.0\\.0\\.1:\\d+"), c.masterUrl());
      assertEquals(List.of("127.0.1.1", "127.0.2.1"), c.allHosts());
      assertEquals("127.0.2.1 /west/rack1", Files.readAllLines(c.topologyFile()).get(2));
      assertTrue(Files.readString(c.runDir().resolve("worker-west-1.log")).contains("127.0.2.1"));
      procs = c.processes();
      assertEquals(3, procs.size(), "master and two workers: " + procs);
      assertEquals(3, marked(runs).size());
    }
    for (ProcessHandle p : procs) {
      p.onExit().get(10, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), marked(runs));
  }

  @Test
  void aWorkerThatCannotStartFailsStartWithItsLogAndLeavesNothingRunning() {
    ClusterSpec spec =
        ClusterSpec.builder()
            .cluster("a", 1)
            .workerMemory("lots")
            .startTimeout(Duration.ofSeconds(60))
            .runRoot(runs)
            .build();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> LoopbackCluster.start(spec));
    assertTrue(e.getMessage().startsWith("worker-a-1 exited with status"), e.getMessage());
    assertTrue(e.getMessage().contains("worker-a-1.log"), e.getMessage());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!marked(runs).isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(List.of(), marked(runs), "the Master was stopped too");
  }

  @Test
  void aMissingSparkHomeIsReportedWithHowToBuildIt() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> SparkHome.at(runs.resolve("nowhere")));
    assertTrue(e.getMessage().contains("has no jars/ folder; build it with"), e.getMessage());
  }
}
