package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSummaryTest {
  private static final List<String> VARIANTS = List.of("default", "auto-rackblind", "auto");

  @Test
  void theVariantsTakeTurnsRoundByRound() {
    assertEquals(
        List.of(
            new RunSummary.Slot("default", 1),
            new RunSummary.Slot("auto-rackblind", 1),
            new RunSummary.Slot("auto", 1),
            new RunSummary.Slot("default", 2),
            new RunSummary.Slot("auto-rackblind", 2),
            new RunSummary.Slot("auto", 2),
            new RunSummary.Slot("default", 3),
            new RunSummary.Slot("auto-rackblind", 3),
            new RunSummary.Slot("auto", 3)),
        RunSummary.alternation(VARIANTS, 3));
    assertEquals(
        List.of(new RunSummary.Slot("default", 1), new RunSummary.Slot("default", 2)),
        RunSummary.alternation(List.of("default"), 2),
        "--default-only");
    assertThrows(IllegalArgumentException.class, () -> RunSummary.alternation(VARIANTS, 0));
    assertThrows(IllegalArgumentException.class, () -> RunSummary.alternation(List.of(), 2));
  }

  @Test
  void eachVariantsColumnHoldsTheMedianAndRangeOfItsOwnRuns() {
    List<String> runs = List.of("default", "auto", "default", "auto", "default", "auto");
    List<List<String>> rows =
        List.of(
            List.of("reduce stage (s)", "6.50", "5.00", "7.10", "5.20", "6.90", "5.10"),
            List.of("answer rows (identical: yes)", "35", "35", "35", "35", "35", "35"),
            List.of("steps granted (k)", "-", "7 (k=2)", "-", "9 (k=2)", "-", "8 (k=2)"),
            List.of("pred (s)", "1.00 / 2.00", "1.20 / 2.00", "1.10 / 2.40", "-", "-", "-"),
            List.of("limit", "4.00 nic.up[a]", "4.00 nic.up[a]", "4.00 nic.up[b]", "x", "y", "z"),
            List.of("not measured", "-", "-", "-", "-", "-", "-"));
    assertEquals(
        List.of(
            List.of("reduce stage (s)", "6.90 (6.50-7.10)", "5.10 (5.00-5.20)"),
            List.of("answer rows (identical: yes)", "35", "35"),
            List.of("steps granted (k)", "-", "8 (7-9) (k=2)"),
            List.of("pred (s)", "1.05 (1.00-1.10) / 2.20 (2.00-2.40)", "1.20 / 2.00"),
            List.of("limit", "4.00 nic.up[a] | 4.00 nic.up[b] | y", "4.00 nic.up[a] | x | z"),
            List.of("not measured", "-", "-")),
        RunSummary.byVariant(runs, rows));
  }

  @Test
  void aRowWithoutACellPerRunIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RunSummary.byVariant(List.of("default", "auto"), List.of(List.of("x", "1"))));
    assertEquals("row 'x' has 1 cells for 2 runs", e.getMessage());
  }

  @Test
  void theVerdictRowNamesADifferenceOnlyBeyondTheSpread() {
    Map<String, RunSpread> reduce = new LinkedHashMap<>();
    reduce.put("default", RunSpread.of(10.0, 10.4));
    reduce.put("auto-rackblind", RunSpread.of(10.1, 10.5));
    reduce.put("auto", RunSpread.of(8.0, 8.2));
    List<String> row = RunSummary.verdictRow(VARIANTS, reduce, true);
    assertEquals(
        List.of("-", "+1.0 % within the spread", "-20.6 % faster"), row.subList(1, row.size()));
    List<String> loopback = RunSummary.verdictRow(VARIANTS, reduce, false);
    assertEquals(
        List.of("-", "not shaped: no verdict", "not shaped: no verdict"),
        loopback.subList(1, loopback.size()));
  }
}
