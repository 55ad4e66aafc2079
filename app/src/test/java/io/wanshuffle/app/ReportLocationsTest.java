package io.wanshuffle.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Benchmarks write into {@code run/} (ignored by git) unless {@code --report} names a file: a
 * default run of {@code e2e-bench} or any {@code bench} command leaves the working tree clean.
 */
class ReportLocationsTest {
  private static List<CommandLine> benchmarks() {
    CommandLine root =
        WanShuffle.commandLine(
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    List<CommandLine> out = new ArrayList<>();
    out.add(root.getSubcommands().get("e2e-bench"));
    root.getSubcommands().get("bench").getSubcommands().values().stream()
        .filter(c -> !c.getCommandName().equals("help"))
        .forEach(out::add);
    return out;
  }

  @Test
  void everyBenchmarkTakesReportAndWritesUnderRunByDefault() {
    List<CommandLine> commands = benchmarks();
    assertEquals(6, commands.size(), "e2e-bench and bench's five commands");
    for (CommandLine c : commands) {
      String name = c.getCommandSpec().qualifiedName();
      OptionSpec report = c.getCommandSpec().findOption("--report");
      assertNotNull(report, name + " has --report");
      assertEquals(Path.class, report.type(), name);
      for (OptionSpec o : c.getCommandSpec().options()) {
        if (o.type() == Path.class && o.defaultValue() != null) {
          assertTrue(
              Path.of(o.defaultValue()).normalize().startsWith("run"),
              name + " " + o.longestName() + " writes to " + o.defaultValue());
        }
      }
    }
  }

  @Test
  void eachBenchmarkSaysWhereItsReportGoes() {
    for (CommandLine c : benchmarks()) {
      String help = c.getUsageMessage();
      assertTrue(help.contains("run/"), c.getCommandSpec().qualifiedName() + ":\n" + help);
    }
  }
}
