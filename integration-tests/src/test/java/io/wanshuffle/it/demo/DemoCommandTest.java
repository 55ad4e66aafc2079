package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {
  @Test
  void repeatedConfOptionsAreCollectedForTheWanShuffleRuns() {
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd)
        .parseArgs(
            "--trace-mb",
            "0",
            "--conf",
            "spark.wanshuffle.step.handover=arrival",
            "--conf",
            "spark.wanshuffle.k=3");
    assertEquals(
        Map.of("spark.wanshuffle.step.handover", "arrival", "spark.wanshuffle.k", "3"),
        cmd.opt.extraConf);
    DemoCommand plain = new DemoCommand();
    new CommandLine(plain).parseArgs();
    assertTrue(plain.opt.extraConf.isEmpty(), "no --conf: the plugin's defaults");
    assertEquals(2, plain.opt.runs, "every variant twice unless --runs says otherwise");
  }

  /** What a machine with root and iproute2 but no python3 lacks: only the delay line. */
  static final Function<TestbedSpec, String> NO_PYTHON3 =
      s ->
          s.wanRttMillis() > 0
              ? "python3 is needed for the WAN delay line (--rtt " + s.wanRttMillis() + " ms)"
              : null;

  private static TestbedSpec spec(
      Function<TestbedSpec, String> missing, List<String> notes, String... args) {
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.opt.net.spec(DemoCommand.DEFAULT_RTT_MS, missing, notes::add);
  }

  @Test
  void theDemoRunsOverAWanRoundTripUnlessRttIsGiven() {
    List<String> notes = new ArrayList<>();
    assertEquals(DemoCommand.DEFAULT_RTT_MS, spec(s -> null, notes).wanRttMillis());
    assertEquals(0, spec(s -> null, notes, "--rtt", "0").wanRttMillis());
    assertEquals(10, spec(s -> null, notes, "--rtt", "10").wanRttMillis());
    assertTrue(notes.isEmpty(), "nothing missing, nothing to say: " + notes);
    // the other commands sharing the options keep RTT 0 by default
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd).parseArgs();
    assertEquals(0, cmd.opt.net.spec().wanRttMillis());
  }

  @Test
  void withoutPython3TheDefaultRoundTripIsDroppedWithANoteButAnExplicitOneIsKept() {
    List<String> notes = new ArrayList<>();
    assertEquals(
        0, spec(NO_PYTHON3, notes).wanRttMillis(), "still the shaped testbed, without latency");
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).contains("python3") && notes.get(0).contains("RTT 0"), notes.get(0));
    notes.clear();
    assertEquals(
        40,
        spec(NO_PYTHON3, notes, "--rtt", "40").wanRttMillis(),
        "asked for explicitly: kept (the start then says what is missing)");
    assertTrue(notes.isEmpty(), notes.toString());
    // without root the shaped testbed is not possible at all: the RTT stays, the loopback fallback
    // says why
    assertEquals(40, spec(s -> "not running as root (user x)", notes).wanRttMillis());
    assertTrue(notes.isEmpty(), notes.toString());
  }

  @Test
  void aScaleOrTraceSizeOutOfRangeIsAUsageErrorBeforeTheTestbedStarts() {
    String[][] cases = {
      {"--scale", "-1", "--scale: the TPC-H scale factor must be a positive number, got -1.0"},
      {"--scale", "0", "must be a positive number, got 0.0"},
      {"--scale", "NaN", "must be a positive number, got NaN"},
      {"--scale", "Infinity", "must be a positive number, got Infinity"},
      {"--trace-mb", "-3", "--trace-mb: must be 0 (no trace replay) or more, got -3"},
      {"--runs", "1", "--runs: each variant runs at least 2 times"},
      {"--runs", "0", "(a verdict needs the runs' spread), got 0"},
    };
    for (String[] c : cases) {
      java.io.StringWriter err = new java.io.StringWriter();
      CommandLine cl = new CommandLine(new DemoCommand());
      cl.setErr(new java.io.PrintWriter(err, true));
      // --loopback: were the check missing, the run would start a loopback cluster, not fail at
      // once
      assertEquals(
          2,
          cl.execute(
              c[0],
              c[1],
              "--loopback",
              "--out",
              System.getProperty("java.io.tmpdir") + "/demo-never-run"),
          c[0] + " " + c[1] + ": " + err);
      assertTrue(err.toString().contains(c[2]), c[0] + " " + c[1] + ": " + err);
    }
  }
}
