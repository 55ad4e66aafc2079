package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TraceInputTest {
  /**
   * Four racks: A = racks 0 and 1, B = racks 2 and 3. Coflow 1: mappers 0 and 1, reducers 2 (10 MB)
   * and 3 (20 MB), every host of a 2 + 2 testbed takes part. Coflow 2: one mapper (0) and one
   * reducer (3), more bytes. Coflow 3: B to A only. Coflow 4: mappers 0, 1 and 2 (a B rack),
   * reducers 2, 3 and 1 (an A rack).
   */
  private static final String TRACE =
      "4 4\n"
          + "1 0 2 0 1 2 2:10 3:20\n"
          + "2 10 1 0 1 3:100\n"
          + "3 20 1 2 1 0:5\n"
          + "4 30 3 0 1 2 3 2:30 3:30 1:30\n";

  @TempDir Path dir;

  private Path trace() throws IOException {
    return Files.writeString(dir.resolve(TraceInput.FILE), TRACE);
  }

  private static void assertMatrix(double[][] want, double[][] got) {
    assertEquals(want.length, got.length);
    for (int i = 0; i < want.length; i++) {
      assertArrayEquals(want[i], got[i], 1e-6, "row " + i);
    }
  }

  @Test
  void theLargestShuffleIsTheLargestInWhichEveryHostTakesPart() throws IOException {
    // coflow 2 carries more bytes but has one sender and one receiver rack; coflow 4's A-to-B part
    // is 2 x 2 and
    // 40 MB (reducers 2 and 3 take 30 MB each from three mappers, two of them in A), coflow 1's 30
    // MB
    TraceInput in = TraceInput.largestShuffle(trace(), 2, 2, 80e6);
    assertEquals("coflow 4", in.name());
    assertMatrix(new double[][] {{20e6, 20e6}, {20e6, 20e6}}, in.bytes());
    assertTrue(
        in.describe().contains("coflow 4") && in.describe().contains("2 x 2 hosts"), in.describe());
    // with three hosts per side no coflow of this trace has enough racks
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> TraceInput.largestShuffle(trace(), 3, 3, 1e6));
    assertTrue(
        e.getMessage().contains("no coflow has 3 sender and 3 receiver racks"), e.getMessage());
  }

  @Test
  void aGivenCoflowIsReplayedWithItsShapeScaledToTheTotal() throws IOException {
    // coflow 1: reducer rack 2 takes 10 MB, 5 from each mapper rack; rack 3 takes 20 MB, 10 from
    // each
    TraceInput one = TraceInput.coflow(trace(), 1, 2, 2, 60e6);
    assertEquals("coflow 1", one.name());
    assertMatrix(new double[][] {{10e6, 20e6}, {10e6, 20e6}}, one.bytes());
    // folded onto one host per side: everything goes a1 -> b1
    assertMatrix(new double[][] {{60e6}}, TraceInput.coflow(trace(), 1, 1, 1, 60e6).bytes());
    // coflow 2 has one rack per side: on 2 + 2 hosts the second host of each cluster sends and
    // receives nothing
    assertMatrix(
        new double[][] {{5e6, 0}, {0, 0}}, TraceInput.coflow(trace(), 2, 2, 2, 5e6).bytes());
  }

  @Test
  void aCoflowThatIsNotThereOrDoesNotCrossFromAToBIsRefusedByName() throws IOException {
    Path t = trace();
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> TraceInput.coflow(t, 99, 2, 2, 1e6));
    assertTrue(missing.getMessage().contains("no coflow 99"), missing.getMessage());
    IllegalArgumentException backwards =
        assertThrows(IllegalArgumentException.class, () -> TraceInput.coflow(t, 3, 2, 2, 1e6));
    assertTrue(
        backwards.getMessage().contains("coflow 3 sends nothing from the A half"),
        backwards.getMessage());
  }

  private static DemoCommand.DemoOptions demo(String... args) {
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.opt;
  }

  @Test
  void theDemoReadsTheCoflowAskedForBeforeAnyTestbedStarts() throws IOException {
    Path t = trace();
    var spec = demo("--nodes-a", "2", "--nodes-b", "2").net.spec();
    assertEquals(
        "coflow 1",
        Demo.traceInput(demo("--trace-dir", dir.toString(), "--coflow", "1"), spec).name());
    assertEquals("coflow 4", Demo.traceInput(demo("--trace-dir", t.toString()), spec).name());
    assertNull(
        Demo.traceInput(
            demo("--trace-dir", dir.toString(), "--trace-mb", "0", "--coflow", "1"), spec),
        "--trace-mb 0: no replay");
    IllegalArgumentException wrongDir =
        assertThrows(
            IllegalArgumentException.class,
            () -> Demo.traceInput(demo("--trace-dir", dir.resolve("nowhere").toString()), spec));
    assertTrue(wrongDir.getMessage().startsWith("--trace-dir "), wrongDir.getMessage());
    IllegalArgumentException wrongId =
        assertThrows(
            IllegalArgumentException.class,
            () -> Demo.traceInput(demo("--trace-dir", dir.toString(), "--coflow", "99"), spec));
    assertTrue(wrongId.getMessage().contains("no coflow 99"), wrongId.getMessage());
  }

  /**
   * Without --trace-dir the demo replays the trace the repository ships: on 3 + 3 hosts its largest
   * coflow with every host taking part is coflow 406 (the end-to-end reports' replay).
   */
  @Test
  void theDemoFindsTheRepositorysTraceByDefault() {
    var spec = demo().net.spec();
    TraceInput in = Demo.traceInput(demo("--trace-mb", "100"), spec);
    assertEquals("coflow 406", in.name());
    assertTrue(
        in.describe().startsWith("coflow 406 of " + TraceInput.FILE + " (A-to-B part"),
        in.describe());
    assertTrue(in.describe().endsWith("onto 3 x 3 hosts, scaled to 100 MB"), in.describe());
  }
}
