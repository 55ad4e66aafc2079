package io.wanshuffle.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.LoopbackTestbed;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up and tear-down of a {@link SparkCluster} on a loopback testbed: nothing is left running,
 * even after a failure.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SparkClusterLifecycleIT {
  static final TestbedSpec ONE_AND_ONE =
      new TestbedSpec(1, 1, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);

  @TempDir Path runs;

  /** Processes of any cluster started under {@code root}, found by the marker property. */
  static List<ProcessHandle> marked(Path root) {
    return ProcessHandle.allProcesses()
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .orElse("")
                    .contains("-D" + SparkCluster.RUN_DIR_PROPERTY + "=" + root))
        .toList();
  }

  @Test
  void startsMasterAndWorkersOnTheirAddressesAndCloseLeavesNothingRunning() throws Exception {
    Testbed testbed = LoopbackTestbed.start(ONE_AND_ONE);
    List<ProcessHandle> procs;
    try (SparkCluster c =
        SparkCluster.start(
            testbed, SparkHome.locate(), runs.resolve("cluster"), ClusterOptions.defaults())) {
      assertTrue(c.masterUrl().matches("spark://127\\.0\\.0\\.2:\\d+"), c.masterUrl());
      assertEquals(List.of("127.0.1.11", "127.0.2.11"), Node.addresses(testbed.workers()));
      assertEquals("127.0.2.11 /B/rack0", Files.readAllLines(c.topologyTable()).get(2));
      assertTrue(Files.readString(c.runDir().resolve("worker-b1.log")).contains("127.0.2.11"));
      procs = c.processes();
      assertEquals(3, procs.size(), "master and two workers: " + procs);
      assertEquals(3, marked(runs).size());
      c.close();
      c.close(); // idempotent
    }
    for (ProcessHandle p : procs) {
      p.onExit().get(10, TimeUnit.SECONDS);
    }
    assertEquals(List.of(), marked(runs));
  }

  @Test
  void aWorkerThatCannotStartFailsStartWithItsLogAndLeavesNothingRunning() {
    Testbed testbed = LoopbackTestbed.start(ONE_AND_ONE);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                SparkCluster.start(
                    testbed,
                    SparkHome.locate(),
                    runs.resolve("cluster"),
                    ClusterOptions.defaults().withWorkerMemory("lots")));
    assertTrue(e.getMessage().startsWith("worker-a1 exited with status"), e.getMessage());
    assertTrue(e.getMessage().contains("worker-a1.log"), e.getMessage());
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
