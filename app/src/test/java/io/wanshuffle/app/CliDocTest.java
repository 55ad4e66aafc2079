package io.wanshuffle.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help and the reference agree: each command's options, as the root command's model holds them,
 * are the options {@code docs/cli.md} documents for it, no more and no fewer. The reference has a
 * section {@code ## `./wan-shuffle COMMAND`} per command, whose tables list its options in their
 * first column; a section that links to {@code #testbed-options} also takes the options of the
 * section {@code ## Testbed options}. {@code --help} and {@code --version}, which every command
 * takes, are documented once above the sections.
 */
class CliDocTest {
  private static final Path DOC = Path.of("..", "docs", "cli.md");
  private static final String TESTBED = "## Testbed options";
  private static final Pattern COMMAND_HEADING = Pattern.compile("## `\\./wan-shuffle ([^`]+)`");
  private static final Pattern OPTION = Pattern.compile("`(--[a-z][a-z0-9-]*)");
  private static final Set<String> EVERYWHERE = Set.of("--help", "--version", "-h", "-V");

  /** The options a section documents, and whether it takes the testbed options. */
  private static final class Section {
    final Set<String> options = new TreeSet<>();
    boolean testbed;
  }

  /**
   * @return the sections by command path (e.g. {@code bench coordinator}), and {@value #TESTBED}
   */
  private static Map<String, Section> sections() throws IOException {
    Map<String, Section> out = new LinkedHashMap<>();
    Section current = null;
    for (String line : Files.readAllLines(DOC)) {
      if (line.startsWith("## ")) {
        Matcher m = COMMAND_HEADING.matcher(line);
        String key = m.matches() ? m.group(1) : line.equals(TESTBED) ? TESTBED : null;
        current = key == null ? null : out.computeIfAbsent(key, k -> new Section());
        continue;
      }
      if (current == null) {
        continue;
      }
      if (line.contains("](#testbed-options)")) {
        current.testbed = true;
      }
      if (line.startsWith("|")) {
        String first = line.split("(?<!\\\\)\\|", -1)[1];
        Matcher o = OPTION.matcher(first);
        while (o.find()) {
          if (!EVERYWHERE.contains(o.group(1))) {
            current.options.add(o.group(1));
          }
        }
      }
    }
    return out;
  }

  private static void leaves(CommandLine c, List<String> path, Map<String, CommandLine> into) {
    for (Map.Entry<String, CommandLine> e : c.getSubcommands().entrySet()) {
      if (e.getKey().equals("help")) {
        continue;
      }
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      if (e.getValue().getSubcommands().isEmpty()) {
        into.put(String.join(" ", p), e.getValue());
      } else {
        leaves(e.getValue(), p, into);
      }
    }
  }

  @Test
  void everyCommandsOptionsAreTheOnesDocsCliMdListsForIt() throws IOException {
    Map<String, Section> doc = sections();
    Map<String, CommandLine> commands = new LinkedHashMap<>();
    leaves(
        WanShuffle.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
        List.of(),
        commands);
    assertEquals(
        13,
        commands.size(),
        "plan, liquid, report, demo, run-app, e2e-bench, fault-matrix, testbed, bench x5");
    Set<String> testbed = doc.get(TESTBED).options;
    assertTrue(testbed.contains("--backbone"), "the testbed options' section: " + testbed);
    for (Map.Entry<String, CommandLine> e : commands.entrySet()) {
      Section s = doc.get(e.getKey());
      assertTrue(s != null, "docs/cli.md has no section ## `./wan-shuffle " + e.getKey() + "`");
      Set<String> documented = new TreeSet<>(s.options);
      if (s.testbed) {
        documented.addAll(testbed);
      }
      Set<String> actual = new TreeSet<>();
      for (OptionSpec o : e.getValue().getCommandSpec().options()) {
        for (String n : o.names()) {
          if (!EVERYWHERE.contains(n)) {
            actual.add(n);
          }
        }
      }
      Set<String> missing = new TreeSet<>(actual);
      missing.removeAll(documented);
      Set<String> extra = new TreeSet<>(documented);
      extra.removeAll(actual);
      assertEquals(Set.of(), missing, e.getKey() + ": options missing from docs/cli.md");
      assertEquals(Set.of(), extra, e.getKey() + ": docs/cli.md options the command lacks");
    }
  }

  /**
   * picocli wraps a description line wider than the help at the left margin: an indented line (a
   * list in the text) would continue there, mid-sentence. Every indented line fits.
   */
  @Test
  void noIndentedDescriptionLineIsWrappedAtTheMargin() {
    Map<String, CommandLine> commands = new LinkedHashMap<>();
    CommandLine root =
        WanShuffle.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    commands.put("", root);
    leaves(root, List.of(), commands);
    commands.put("bench", root.getSubcommands().get("bench"));
    for (Map.Entry<String, CommandLine> e : commands.entrySet()) {
      CommandLine.Model.UsageMessageSpec u = e.getValue().getCommandSpec().usageMessage();
      List<String> lines = new ArrayList<>(List.of(u.description()));
      lines.addAll(List.of(u.footer()));
      for (String text : lines) {
        for (String line : text.split("%n|\\n")) {
          assertTrue(
              !line.startsWith(" ") || line.length() <= u.width(),
              e.getKey() + ": '" + line + "' is wider than " + u.width() + " columns");
        }
      }
    }
  }
}
