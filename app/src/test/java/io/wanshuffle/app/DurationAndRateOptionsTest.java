package io.wanshuffle.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.cli.units.UnitConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every duration and rate option of every command takes a bare number in the unit its help names,
 * or refuses a bare number; negative values, zero where zero makes no sense, unknown units and
 * words are usage errors (exit status 2) whose one stderr line names the option. Options are found
 * in the root command's model: those labelled as durations or rates must read their value with a
 * {@link UnitConverter}, except {@code plan}'s and {@code liquid}'s, which read bare decimal
 * numbers (their own contract, checked here by running them).
 */
class DurationAndRateOptionsTest {
  /** The labels of duration and rate values. */
  private static final Set<String> LABELS =
      Set.of("SECONDS", "MS", "MS[,MS...]", "DURATION", "RATE", "RATE[,RATE...]", "BYTES_PER_S");

  /** plan's and liquid's bare-number options: command, option, whether zero is a value. */
  private static final List<Object[]> BARE_NUMBER_OPTIONS =
      List.of(
          new Object[] {"plan", "--beta", true},
          new Object[] {"plan", "--rate", false},
          new Object[] {"liquid", "--time-limit", true});

  @TempDir Path dir;

  /** One option of one command. */
  private record Found(List<String> path, OptionSpec option) {
    String name() {
      return String.join(" ", path) + " " + option.longestName();
    }
  }

  private static CommandLine root(StringWriter err) {
    return WanShuffle.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true));
  }

  private static void collect(CommandLine c, List<String> path, List<Found> into) {
    for (OptionSpec o : c.getCommandSpec().options()) {
      if (LABELS.contains(o.paramLabel())) {
        into.add(new Found(path, o));
      }
    }
    for (Map.Entry<String, CommandLine> e : c.getSubcommands().entrySet()) {
      List<String> p = new ArrayList<>(path);
      p.add(e.getKey());
      collect(e.getValue(), p, into);
    }
  }

  private static List<Found> durationAndRateOptions() {
    List<Found> all = new ArrayList<>();
    collect(root(new StringWriter()), List.of(), all);
    return all;
  }

  private static boolean bareNumberOption(Found f) {
    return BARE_NUMBER_OPTIONS.stream()
        .anyMatch(
            b -> b[0].equals(String.join(" ", f.path())) && b[1].equals(f.option().longestName()));
  }

  private static UnitConverter<?> converter(Found f) {
    return (UnitConverter<?>) f.option().converters()[0];
  }

  @Test
  void everyDurationAndRateOptionReadsItsValueWithAUnitConverterAndNamesItsUnit() {
    List<Found> found = durationAndRateOptions();
    assertTrue(found.size() >= 30, "every command's: " + found.stream().map(Found::name).toList());
    for (String expected :
        List.of(
            "run-app --timeout",
            "demo --rtt",
            "e2e-bench --rtts",
            "testbed --seconds",
            "testbed --nic",
            "bench coordinator --timeout",
            "bench speed --iteration-time",
            "plan --beta")) {
      assertTrue(found.stream().anyMatch(f -> f.name().equals(expected)), expected);
    }
    for (Found f : found) {
      if (bareNumberOption(f)) {
        continue;
      }
      assertTrue(
          f.option().converters().length == 1
              && f.option().converters()[0] instanceof UnitConverter,
          f.name() + " reads its value with a UnitConverter");
      UnitConverter<?> c = converter(f);
      String help = String.join(" ", f.option().description()).toLowerCase(Locale.ROOT);
      String unitWord =
          c.bareUnit() == null
              ? "unit"
              : switch (c.bareUnit()) {
                case "s" -> "second";
                case "ms" -> "millisecond";
                default -> "bytes";
              };
      assertTrue(help.contains(unitWord), f.name() + "'s help names its unit (" + unitWord + ")");
    }
  }

  /** The stderr line and status of a parse of {@code args}, as the root command reports it. */
  private static String[] refused(List<String> args) {
    StringWriter err = new StringWriter();
    CommandLine root = root(err);
    String[] a = args.toArray(String[]::new);
    CommandLine.ParameterException e =
        assertThrows(CommandLine.ParameterException.class, () -> root.parseArgs(a), args::toString);
    int status;
    try {
      status = root.getParameterExceptionHandler().handleParseException(e, a);
    } catch (Exception x) {
      throw new AssertionError(x);
    }
    return new String[] {Integer.toString(status), err.toString()};
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOptionAndGoodOnesParse() {
    int checked = 0;
    for (Found f : durationAndRateOptions()) {
      if (bareNumberOption(f)) {
        continue;
      }
      UnitConverter<?> c = converter(f);
      String unit = c.units().isEmpty() ? "" : c.units().get(c.units().size() - 1);
      List<String> bad = new ArrayList<>(List.of("-5" + unit, "5parsecs", "soon", ""));
      if (!c.zeroAllowed()) {
        bad.add("0" + unit);
      }
      if (c.bareUnit() == null) {
        bad.add("100");
      }
      for (String value : bad) {
        List<String> args = new ArrayList<>(f.path());
        args.add(f.option().longestName() + "=" + value);
        String[] r = refused(args);
        assertEquals("2", r[0], args + ": " + r[1]);
        List<String> lines = r[1].lines().toList();
        assertEquals(1, lines.size(), args + ": " + r[1]);
        assertTrue(
            lines.get(0).contains("option '" + f.option().longestName() + "'")
                && lines.get(0).contains("'" + value + "'"),
            args + ": " + r[1]);
        checked++;
      }
      List<String> good = new ArrayList<>();
      if (c.bareUnit() != null) {
        good.add("5");
      }
      if (!unit.isEmpty()) {
        good.add("5" + unit);
      }
      for (String value : good) {
        CommandLine root = root(new StringWriter());
        List<String> args = new ArrayList<>(f.path());
        args.add(f.option().longestName() + "=" + value);
        try {
          root.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
          assertFalse(
              e.getMessage().contains("option '" + f.option().longestName() + "'"),
              args + " is accepted: " + e.getMessage());
        }
      }
    }
    assertTrue(checked >= 100, "values checked: " + checked);
  }

  /** plan and liquid compute on a file: they are run, with a valid input, on each bad value. */
  @Test
  void planAndLiquidRefuseBadNumbersWithStatusTwoNamingTheOption() throws IOException {
    Path matrix = Files.writeString(dir.resolve("m.csv"), "1,2\n3,4\n");
    Path transfers = Files.writeString(dir.resolve("t.txt"), "a: l1 l2\nb: l2\n");
    for (Object[] b : BARE_NUMBER_OPTIONS) {
      String command = (String) b[0];
      String option = (String) b[1];
      List<String> bad = new ArrayList<>(List.of("-5", "5ms", "soon", "1e999"));
      if (!(Boolean) b[2]) {
        bad.add("0");
      }
      for (String value : bad) {
        List<String> args =
            command.equals("plan")
                ? new ArrayList<>(List.of("plan", "--matrix", matrix.toString(), "--k", "1"))
                : new ArrayList<>(List.of("liquid", "--transfers", transfers.toString()));
        if (command.equals("plan") && !option.equals("--beta")) {
          args.addAll(List.of("--beta", "1"));
        }
        args.addAll(List.of(option, value));
        StringWriter err = new StringWriter();
        int status = root(err).execute(args.toArray(String[]::new));
        assertEquals(2, status, args + ": " + err);
        assertEquals(1, err.toString().lines().count(), args + ": " + err);
        assertTrue(err.toString().contains(option), args + ": " + err);
      }
    }
  }
}
