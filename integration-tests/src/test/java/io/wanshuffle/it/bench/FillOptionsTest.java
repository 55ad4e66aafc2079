package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FillOptionsTest {
  private static final List<String> VARIANTS = List.of("default", "auto", "auto/capacity");

  @Test
  void alternatedVariantsTakeTurnsOneRunPerApplication() {
    assertEquals(
        List.of(
            new FillOptions.Slot("default", 1, 1, false),
            new FillOptions.Slot("auto", 1, 1, false),
            new FillOptions.Slot("auto/capacity", 1, 1, false),
            new FillOptions.Slot("default", 2, 1, true),
            new FillOptions.Slot("auto", 2, 1, true),
            new FillOptions.Slot("auto/capacity", 2, 1, true)),
        FillOptions.schedule(VARIANTS, 2, true));
  }

  @Test
  void withoutAlternationEachVariantMakesAllItsRunsInOneApplication() {
    assertEquals(
        List.of(
            new FillOptions.Slot("default", 1, 5, true),
            new FillOptions.Slot("auto", 1, 5, true),
            new FillOptions.Slot("auto/capacity", 1, 5, true)),
        FillOptions.schedule(VARIANTS, 5, false));
    assertThrows(IllegalArgumentException.class, () -> FillOptions.schedule(VARIANTS, 0, true));
    assertThrows(IllegalArgumentException.class, () -> FillOptions.schedule(List.of(), 1, false));
  }

  private static FillOptions parse(String... args) {
    E2eBenchCommand cmd = new E2eBenchCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd.fill;
  }

  @Test
  void theLoadLevelsNameTheCellsAndTheCommandLine() {
    FillOptions quiet = parse();
    assertEquals(List.of(0), quiet.loads);
    assertNull(quiet.loadProblem());
    assertEquals("", quiet.label("", 0), "one shape, quiet: no testbed column");
    assertEquals("3 + 3 hosts", quiet.label("3 + 3 hosts", 0));
    assertEquals("", quiet.commandLine(), "defaults are not repeated");

    FillOptions both = parse("--load", "0,2", "--alternate", "--targets");
    assertEquals(List.of(0, 2), both.loads);
    assertEquals("quiet machine", both.label("", 0));
    assertEquals("3 + 3 hosts, 2 busy processes", both.label("3 + 3 hosts", 2));
    assertEquals("1 busy process", both.label("", 1));
    assertEquals(" --alternate --load 0,2 --targets", both.commandLine());
    assertEquals(
        "--load: busy processes must be 0 or more, got [0, -2]",
        parse("--load", "0,-2").loadProblem());
  }
}
