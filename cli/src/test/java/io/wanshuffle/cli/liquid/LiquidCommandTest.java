package io.wanshuffle.cli.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.cli.ExitStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiquidCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return new picocli.CommandLine(new LiquidCommand())
        .setOut(new PrintWriter(out, true))
        .setErr(new PrintWriter(err, true))
        .setParameterExceptionHandler(ExitStatus::badUsage)
        .setExecutionExceptionHandler(ExitStatus::planningFailure)
        .execute(args);
  }

  /** The paper's Fig. 1 traffic in the CLI's format. */
  private Path paperFile() throws IOException {
    StringBuilder sb = new StringBuilder("# liquid-schedules paper, Fig. 1\n");
    for (int i = 1; i <= 5; i++) {
      for (int j = 1; j <= 5; j++) {
        sb.append("T").append(i).append("R").append(j).append(": l").append(i);
        if (i <= 3 && j > 3) {
          sb.append(" l12");
        } else if (i > 3 && j <= 3) {
          sb.append(" l11");
        }
        sb.append(" l").append(5 + j).append('\n');
      }
    }
    Path p = dir.resolve("paper.txt");
    Files.writeString(p, sb);
    return p;
  }

  @Test
  void paperExampleGivesSixFramesAsJson() throws IOException {
    Path f = paperFile();
    assertEquals(0, run("--transfers", f.toString(), "--format", "json"), err.toString());
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertEquals(6, j.get("duration").asInt());
    assertEquals(6, j.get("lowerBound").asInt());
    assertTrue(j.get("optimal").asBoolean());
    assertEquals(6, j.get("frames").size());
    // recompute: every transfer exactly once, no link twice in a frame
    Map<String, List<String>> links = new HashMap<>();
    for (String line : Files.readAllLines(f)) {
      if (!line.startsWith("#")) {
        String[] kv = line.split(":");
        links.put(kv[0].strip(), List.of(kv[1].strip().split(" ")));
      }
    }
    Set<String> seen = new HashSet<>();
    for (JsonNode frame : j.get("frames")) {
      Set<String> used = new HashSet<>();
      for (JsonNode t : frame) {
        assertTrue(seen.add(t.asText()));
        for (String l : links.get(t.asText())) {
          assertTrue(used.add(l), "link " + l + " used twice in a frame");
        }
      }
    }
    assertEquals(25, seen.size());
  }

  @Test
  void textOutputListsFrames() throws IOException {
    assertEquals(0, run("--transfers", paperFile().toString()));
    assertTrue(out.toString().contains("frame 6:"), out.toString());
    assertTrue(out.toString().contains("25 transfers"));
  }

  @Test
  void oddCycleIsOptimalButNotLiquid() throws IOException {
    Path f = dir.resolve("c5.txt");
    Files.writeString(f, "a: e0 e1\nb: e1 e2\nc: e2 e3\nd: e3 e4\ne: e4 e0\n");
    assertEquals(0, run("--transfers", f.toString(), "--format", "json"));
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertEquals(3, j.get("duration").asInt());
    assertEquals(2, j.get("lowerBound").asInt());
    assertTrue(j.get("optimal").asBoolean());
  }

  @Test
  void badLinesGiveStatusTwoAndOneLineNamingFileAndLine() throws IOException {
    Path f = dir.resolve("bad.txt");
    Files.writeString(f, "# header\na: l1 l2\nb l1\n");
    assertEquals(2, run("--transfers", f.toString()));
    String e = err.toString().strip();
    assertEquals(1, e.lines().count(), e);
    assertTrue(e.contains(f + ": line 3"), e);
    assertEquals("", out.toString());

    Files.writeString(f, "a: l1\na: l2\n");
    err.getBuffer().setLength(0);
    assertEquals(2, run("--transfers", f.toString()));
    assertTrue(err.toString().contains("line 2") && err.toString().contains("already defined"));

    Files.writeString(f, "a:\n");
    err.getBuffer().setLength(0);
    assertEquals(2, run("--transfers", f.toString()));
    assertTrue(err.toString().contains("line 1") && err.toString().contains("no link"));

    err.getBuffer().setLength(0);
    assertEquals(2, run("--transfers", dir.resolve("missing.txt").toString()));
    assertTrue(
        err.toString().contains("missing.txt: cannot read transfers file: no such file"),
        err.toString());

    Files.write(f, new byte[] {'a', ':', ' ', 'l', (byte) 0xe9, '\n'});
    err.getBuffer().setLength(0);
    assertEquals(2, run("--transfers", f.toString()));
    assertEquals(
        f + ": cannot read transfers file: not UTF-8 text",
        err.toString().strip().replaceFirst("^liquid: ", ""));

    err.getBuffer().setLength(0);
    assertEquals(2, run("--transfers", paperFile().toString(), "--time-limit", "-1"));
    assertTrue(err.toString().contains("--time-limit"));
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheFirstName() throws IOException {
    Path f = dir.resolve("bom.txt");
    Files.writeString(f, "\uFEFFt1: l1 l2\r\nt2: l2\r\n");
    assertEquals(0, run("--transfers", f.toString(), "--format", "json"), err.toString());
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertEquals("t1", j.get("frames").get(0).get(0).asText());
  }

  @Test
  void aCommentMayEndALineAndPunctuationIsNoPartOfALinkName() throws IOException {
    Path f = dir.resolve("comments.txt");
    // the two transfers share no link once the comments are gone: one frame
    Files.writeString(f, "A: l1 # to the left\nB: l2 #x\n");
    assertEquals(0, run("--transfers", f.toString(), "--format", "json"), err.toString());
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertEquals(1, j.get("frames").size(), out.toString());
    for (String line : new String[] {"A: l1, l2\n", "A:B: l1\n"}) {
      Files.writeString(f, line);
      err.getBuffer().setLength(0);
      assertEquals(2, run("--transfers", f.toString()), line);
      String e = err.toString().strip();
      assertEquals(1, e.lines().count(), e);
      assertTrue(e.contains(f + ": line 1") && e.contains("links are separated by blanks"), e);
    }
  }
}
