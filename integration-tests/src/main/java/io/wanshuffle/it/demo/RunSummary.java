package io.wanshuffle.it.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's runs in their order and its table over them: the variants take turns (default,
 * rack-blind, topology-aware, default, ...) so that a drift of the machine over the demo (another
 * process, a warmer page cache) falls on every variant alike, and the per-run table becomes one
 * column per variant holding each figure's median and range over its runs, with a verdict against
 * Spark's default that names a difference only where it exceeds the runs' spread ({@link Verdict}).
 */
final class RunSummary {
  private RunSummary() {}

  /** A cell's leading number and what follows it ({@code 5 (k=2)}, {@code 4.00 backbone...}). */
  private static final Pattern NUMBER = Pattern.compile("^(-?\\d+(?:\\.(\\d+))?)(.*)$");

  /** Separator of a cell's figures ({@code 1.20 / 2.10}). */
  private static final String PARTS = " / ";

  /**
   * One run of the demo's order.
   *
   * @param variant the variant
   * @param run its run number, 1-based
   */
  record Slot(String variant, int run) {}

  /**
   * @param variants the variants, in the order each round runs them
   * @param runs runs per variant, at least 1
   * @return round by round, each variant once per round: {@code runs x variants.size()} slots
   * @throws IllegalArgumentException if {@code runs < 1} or no variant is given
   */
  static List<Slot> alternation(List<String> variants, int runs) {
    if (runs < 1 || variants.isEmpty()) {
      throw new IllegalArgumentException(
          "need at least one variant and one run, got " + variants + " x " + runs);
    }
    List<Slot> out = new ArrayList<>();
    for (int r = 1; r <= runs; r++) {
      for (String v : variants) {
        out.add(new Slot(v, r));
      }
    }
    return out;
  }

  /**
   * Folds a per-run table into one column per variant.
   *
   * @param runVariants the variant of each run column, in column order
   * @param rows rows of the per-run table: a label, then one cell per run
   * @return rows: the label, then one cell per variant in the order they first appear ({@link
   *     #cell})
   * @throws IllegalArgumentException if a row does not have one cell per run
   */
  static List<List<String>> byVariant(List<String> runVariants, List<List<String>> rows) {
    List<String> variants = new ArrayList<>(new LinkedHashSet<>(runVariants));
    List<List<String>> out = new ArrayList<>();
    for (List<String> row : rows) {
      if (row.size() != runVariants.size() + 1) {
        throw new IllegalArgumentException(
            "row '"
                + row.get(0)
                + "' has "
                + (row.size() - 1)
                + " cells for "
                + runVariants.size()
                + " runs");
      }
      List<String> r = new ArrayList<>(List.of(row.get(0)));
      for (String v : variants) {
        List<String> cells = new ArrayList<>();
        for (int i = 0; i < runVariants.size(); i++) {
          if (runVariants.get(i).equals(v)) {
            cells.add(row.get(i + 1));
          }
        }
        r.add(cell(cells));
      }
      out.add(r);
    }
    return out;
  }

  /**
   * One variant's cell over its runs: numbers as {@link RunSpread#text} ({@code median (min-max)},
   * with the runs' own decimals); a number followed by the same text in every run the same way
   * ({@code 4.00 (3.90-4.10) backbone.out[/A]}); figures separated by {@code " / "} each on its
   * own; {@code -} (not measured) left out of a figure's runs; other text kept when every run gave
   * it, else the runs' values in order, separated by {@code " | "}.
   *
   * @param cells the variant's cells, one per run, at least one
   * @return the summary cell
   */
  static String cell(List<String> cells) {
    List<String> measured = cells.stream().filter(c -> !c.equals("-")).toList();
    if (measured.isEmpty()) {
      return "-";
    }
    if (new LinkedHashSet<>(measured).size() == 1) {
      return measured.get(0);
    }
    int parts = measured.get(0).split(PARTS, -1).length;
    if (parts > 1 && measured.stream().allMatch(c -> c.split(PARTS, -1).length == parts)) {
      List<String> out = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        int part = p;
        out.add(cell(measured.stream().map(c -> c.split(PARTS, -1)[part]).toList()));
      }
      return String.join(PARTS, out);
    }
    Map<String, List<Double>> bySuffix = new LinkedHashMap<>();
    int decimals = 0;
    for (String c : measured) {
      Matcher m = NUMBER.matcher(c);
      if (!m.matches()) {
        return String.join(" | ", measured);
      }
      decimals = Math.max(decimals, m.group(2) == null ? 0 : m.group(2).length());
      bySuffix.computeIfAbsent(m.group(3), s -> new ArrayList<>()).add(Double.valueOf(m.group(1)));
    }
    if (bySuffix.size() != 1) {
      return String.join(" | ", measured);
    }
    Map.Entry<String, List<Double>> only = bySuffix.entrySet().iterator().next();
    return RunSpread.of(only.getValue()).text("%." + decimals + "f") + only.getKey();
  }

  /**
   * The verdict row: each wan-shuffle variant's reduce stage against the default shuffle's.
   *
   * @param variants the variants in column order, {@link Demo#DEFAULT} among them or not
   * @param reduce each variant's reduce-stage times over its runs, s
   * @param shaped whether the testbed is shaped (on loopback the times say nothing about a WAN)
   * @return the row: its label, then per variant {@code -} for the default (or without it) and
   *     {@link Verdict#text} for the others, or that the times are not comparable on loopback
   */
  static List<String> verdictRow(
      List<String> variants, Map<String, RunSpread> reduce, boolean shaped) {
    List<String> row =
        new ArrayList<>(
            List.of("reduce stage median vs default (a word only beyond the runs' spread)"));
    RunSpread reference = reduce.get(Demo.DEFAULT);
    for (String v : variants) {
      if (v.equals(Demo.DEFAULT) || reference == null) {
        row.add("-");
      } else if (!shaped) {
        row.add("not shaped: no verdict");
      } else {
        row.add(Verdict.text(reduce.get(v), reference));
      }
    }
    return row;
  }
}
