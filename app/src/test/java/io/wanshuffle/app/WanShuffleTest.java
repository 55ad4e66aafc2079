package io.wanshuffle.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.cli.InputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class WanShuffleTest {
  /** Every command of the product (issue 37's list) and picocli's help. */
  private static final Set<String> COMMANDS =
      Set.of(
          "plan",
          "liquid",
          "report",
          "demo",
          "run-app",
          "e2e-bench",
          "fault-matrix",
          "testbed",
          "bench",
          "help");

  @TempDir Path dir;

  private record Run(int status, String out, String err) {
    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
    }
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        WanShuffle.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
            .execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  /**
   * @return the names of the "Commands:" section of a usage text, one per line; fails when an entry
   *     takes more than one line
   */
  private static List<String> commandList(String usage) {
    List<String> lines = usage.lines().toList();
    int at = lines.indexOf("Commands:");
    assertTrue(at >= 0, "no Commands: section in\n" + usage);
    List<String> names = new ArrayList<>();
    for (String line : lines.subList(at + 1, lines.size())) {
      if (line.isBlank()) {
        break;
      }
      assertTrue(
          line.matches("  \\S+ +\\S.*"), "not one line per command: '" + line + "' in\n" + usage);
      names.add(line.strip().split(" +")[0]);
    }
    return names;
  }

  @Test
  void helpListsEveryCommandWithOneLineEach() {
    Run r = run("--help");
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().startsWith("Usage: wan-shuffle "), r.out());
    List<String> listed = commandList(r.out());
    assertEquals(new TreeSet<>(COMMANDS), new TreeSet<>(listed), r.out());
    assertEquals(COMMANDS.size(), listed.size(), r.out());
    Map<String, CommandLine> model =
        WanShuffle.commandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))
            .getSubcommands();
    assertEquals(model.keySet(), Set.copyOf(listed), "the usage lists what the root holds");
  }

  @Test
  void withoutACommandTheListGoesToStderrWithStatusTwo() {
    Run r = run();
    assertEquals(2, r.status());
    assertEquals("", r.out());
    assertEquals("wan-shuffle: missing subcommand", r.errLines().get(0));
    assertEquals(new TreeSet<>(COMMANDS), new TreeSet<>(commandList(r.err())), r.err());
  }

  @Test
  void everyCommandAnswersHelpWithStatusZero() {
    List<List<String>> paths = new ArrayList<>();
    collect(
        WanShuffle.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
        List.of(),
        paths);
    assertTrue(paths.size() >= COMMANDS.size() + 4, "bench's four reports too: " + paths);
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      Run r = run(args.toArray(String[]::new));
      String what = String.join(" ", args);
      assertEquals(0, r.status(), what + ": " + r.err());
      assertEquals("", r.err(), what);
      assertTrue(
          r.out().contains("Usage: wan-shuffle " + String.join(" ", path)), what + ":\n" + r.out());
      if (r.out().contains("Commands:")) {
        commandList(r.out());
      }
    }
  }

  private static void collect(CommandLine c, List<String> path, List<List<String>> into) {
    for (Map.Entry<String, CommandLine> e : c.getSubcommands().entrySet()) {
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      into.add(p);
      collect(e.getValue(), p, into);
    }
  }

  @Test
  void everyCommandPrintsTheVersion() {
    List<List<String>> paths = new ArrayList<>();
    paths.add(List.of());
    collect(
        WanShuffle.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
        List.of(),
        paths);
    for (List<String> path : paths) {
      if (path.contains("help")) {
        continue; // picocli's help command has no --version
      }
      for (String option : List.of("--version", "-V")) {
        List<String> args = new ArrayList<>(path);
        args.add(option);
        Run r = run(args.toArray(String[]::new));
        String what = String.join(" ", args);
        assertEquals(0, r.status(), what + ": " + r.err());
        assertTrue(r.out().matches("wan-shuffle \\S+\\R"), what + ": '" + r.out() + "'");
      }
    }
  }

  @Test
  void badUsageOfAnyCommandIsOneStderrLineWithStatusTwo() {
    String[][] cases = {
      {"frobnicate"},
      {"plan", "--matrix", "m.csv", "--beta", "0"},
      {"liquid", "--time-limit", "soon"},
      {"bench"},
      {"bench", "speed", "--sizes", "0"},
      {"testbed"},
      {"demo", "--scale", "0"},
      {"e2e-bench", "--runs", "0"},
      {"run-app", "--runs", "2"},
      {"report", "--out", "r.html"},
      {"report", "--capture", "no-such-folder"}
    };
    // the line's start (the command at fault) and a word it must name
    String[][] expected = {
      {"wan-shuffle: Unmatched argument at index 0: 'frobnicate'", "frobnicate"},
      {"plan: Missing required option: '--k=K'", "--k"},
      {"liquid: Invalid value for option '--time-limit': 'soon'", "soon"},
      {"bench: missing subcommand", "bench --help"},
      {"speed: option --sizes: n must be >= 1, got 0", "--sizes"},
      {"testbed: Missing required parameter: '<action>'", "action"},
      {"demo: ", "--scale"},
      {"e2e-bench: ", "--runs"},
      {"run-app: Missing required option: '--jar", "--jar"},
      {"report: Error: Missing required argument", "--event-log"},
      {"report: --capture no-such-folder: not a folder", "no-such-folder"}
    };
    for (int i = 0; i < cases.length; i++) {
      Run r = run(cases[i]);
      String what = String.join(" ", cases[i]);
      assertEquals(2, r.status(), what + ": " + r.err());
      assertEquals("", r.out(), what);
      assertEquals(1, r.errLines().size(), what + ": " + r.err());
      assertTrue(r.err().startsWith(expected[i][0]), what + ": " + r.err());
      assertTrue(r.err().contains(expected[i][1]), what + ": " + r.err());
    }
  }

  /**
   * The inputs of issue 53 that leaked an exception's text: a junk {@code .zstd.inprogress} file
   * and a file that is not UTF-8. One line on the command's stderr, and nothing from Spark's
   * logging on the process's stderr.
   */
  @Test
  void reportOnAFileThatIsNotAnEventLogIsOneLineWithStatusTwo() throws IOException {
    byte[] junk = new byte[2048];
    new java.util.Random(3).nextBytes(junk);
    Path running = Files.write(dir.resolve("app-2.zstd.inprogress"), junk);
    Path binary = Files.write(dir.resolve("app-3"), junk);
    java.io.PrintStream processErr = System.err;
    java.io.ByteArrayOutputStream spark = new java.io.ByteArrayOutputStream();
    List<Run> runs = new ArrayList<>();
    try {
      System.setErr(new java.io.PrintStream(spark, true, java.nio.charset.StandardCharsets.UTF_8));
      runs.add(run("report", "--event-log", running.toString(), "--out", dir + "/r.html"));
      runs.add(run("report", "--event-log", binary.toString(), "--out", dir + "/r.html"));
    } finally {
      System.setErr(processErr);
    }
    assertEquals(
        List.of(
            "report: --event-log "
                + running
                + ": not a Spark event log (its data does not decode as zstd, the codec its name"
                + " gives, or it is cut short within its first block)",
            "report: --event-log "
                + binary
                + ": not a Spark event log (its first line is not a Spark event)"),
        runs.stream().map(r -> r.err().strip()).toList());
    for (Run r : runs) {
      assertEquals(2, r.status(), r.err());
      assertEquals(1, r.errLines().size(), r.err());
      assertEquals("", r.out());
    }
    assertEquals("", spark.toString(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void planRunsThroughTheRootWithNothingOnStderr() throws IOException {
    Path m = Files.writeString(dir.resolve("m.csv"), "7,3\n0,1\n");
    Run r =
        run(
            "plan",
            "--matrix",
            m.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--delta-senders",
            "3,2",
            "--delta-receivers",
            "1,3",
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().contains("\"cost\":9.0,\"lowerBound\":9.0"), r.out());
  }

  /**
   * With a topology, plan maps hosts to racks through Hadoop's topology mapping, which logs through
   * SLF4J: on this module's class path (Spark's Log4j 2 binding) nothing reaches stderr either.
   */
  @Test
  void planWithATopologyPrintsNothingOnStderr() {
    Path examples = Path.of("..", "docs", "examples");
    Run r =
        run(
            "plan",
            "--matrix",
            examples.resolve("topology-matrix.csv").toString(),
            "--topology",
            Path.of("..", "conf", "topology.example.conf").toString(),
            "--beta",
            "0.5",
            "--algorithm",
            "liquid",
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().contains("\"linkOverloads\":0"), r.out());
  }

  private static CommandLine command(CommandLine root, String... path) {
    CommandLine c = root;
    for (String p : path) {
      c = c.getSubcommands().get(p);
    }
    return c;
  }

  @Test
  void failuresArePlanningErrorsForPlanAndLiquidAndRunErrorsElsewhere() {
    StringWriter err = new StringWriter();
    CommandLine root =
        WanShuffle.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    assertEquals(
        1,
        WanShuffle.failed(new IllegalStateException("bad\nschedule"), command(root, "plan"), null));
    assertEquals(
        2,
        WanShuffle.failed(
            new InputException("t.txt: line 2 (1-based): x"), command(root, "liquid"), null));
    assertEquals(
        1,
        WanShuffle.failed(
            new IllegalStateException("plugin jar not found"), command(root, "demo"), null));
    assertEquals(
        1,
        WanShuffle.failed(
            new java.io.IOException("disk full"), command(root, "bench", "speed"), null));
    assertEquals(1, WanShuffle.failed(new NullPointerException(), command(root, "testbed"), null));
    assertEquals(
        List.of(
            "plan: internal error: java.lang.IllegalStateException: bad schedule",
            "liquid: t.txt: line 2 (1-based): x",
            "wan-shuffle demo: plugin jar not found",
            "wan-shuffle bench speed: disk full",
            "wan-shuffle testbed: java.lang.NullPointerException"),
        err.toString().lines().toList());
  }

  @Test
  void debugPropertyAddsTheStackTrace() {
    StringWriter err = new StringWriter();
    CommandLine root =
        WanShuffle.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    String before = System.getProperty(WanShuffle.DEBUG_PROPERTY);
    System.setProperty(WanShuffle.DEBUG_PROPERTY, "true");
    try {
      WanShuffle.failed(new IllegalStateException("no root"), command(root, "run-app"), null);
    } finally {
      if (before == null) {
        System.clearProperty(WanShuffle.DEBUG_PROPERTY);
      } else {
        System.setProperty(WanShuffle.DEBUG_PROPERTY, before);
      }
    }
    List<String> lines = err.toString().lines().toList();
    assertEquals("wan-shuffle run-app: no root", lines.get(0));
    assertTrue(lines.size() > 2, err.toString());
    assertTrue(lines.get(1).startsWith("java.lang.IllegalStateException: no root"), lines.get(1));
  }
}
