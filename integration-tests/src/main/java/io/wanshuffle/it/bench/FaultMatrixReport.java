package io.wanshuffle.it.bench;

import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.fault.FaultRecord;
import io.wanshuffle.it.fault.FaultRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table of {@code fault-matrix} ({@code docs/benchmarks/faults.md}): per fault (the fault-free
 * row first), pattern and variant, the reduce stage's median against the first variant and against
 * the same cell without a fault, how long the fault held, the most flows on a link against its
 * capacity (until hand-over, and on the wire), whether every run answered as the fault-free runs
 * did, and the hung runs.
 */
final class FaultMatrixReport {
  /**
   * A run over this many times its cell's fault-free median plus the fault's planned end (AT + FOR
   * from the reduce stage's start) counts as hung.
   */
  static final double HUNG_FACTOR = 10;

  private FaultMatrixReport() {}

  /**
   * One row of the matrix: one {@code e2e-bench} run with one fault (or none).
   *
   * @param fault the fault's spec, null for the fault-free row
   * @param exitStatus the e2e-bench run's exit status (0: every answer right, the fault applied and
   *     undone)
   * @param cells its cells
   * @param answers per pattern and RTT ("pattern@rtt"), the answer of its first run (every later
   *     run of the row was checked against it)
   * @param wrongAnswers the runs that answered differently from their pattern's first in the row
   * @param faults per cell ("pattern|variant"), the faults of its runs
   */
  record Row(
      String fault,
      int exitStatus,
      List<E2eReport.Cell> cells,
      Map<String, List<String>> answers,
      List<String> wrongAnswers,
      Map<String, List<FaultRun>> faults) {}

  /**
   * @param rows the rows in the order they ran, the fault-free one first (null fault)
   * @param generated the line that says how the matrix was made
   * @return the Markdown: legend, table and the rows whose run failed
   */
  static String markdown(List<Row> rows, String generated) {
    Map<String, Double> free = freeMedians(rows);
    Map<String, List<String>> freeAnswers =
        !rows.isEmpty() && rows.get(0).fault() == null ? rows.get(0).answers() : Map.of();
    StringBuilder md = new StringBuilder("# Fault matrix: default shuffle vs wan-shuffle\n\n");
    md.append(generated).append("\n\n");
    md.append(
        "Each row: one `e2e-bench` run with the fault (every measured run of every cell gets it, its"
            + " times from the start of the run's first reduce stage). Median and spread of the"
            + " reduce stage over the measured runs; over fault-free = median - the same cell's"
            + " fault-free median; fault held = median over the runs of the time from the fault's"
            + " application to its undoing (`kill`: none); most flows / capacity = the most gated"
            + " flows holding one link at once against its capacity, worst run (a flow counted"
            + " until its ports were handed on); on the wire / capacity = the same with each flow"
            + " counted until its last block arrived (a flow reported stalled and the flow granted"
            + " in its place both count while both have bytes to deliver), worst run; answers ="
            + " `identical` when every run read exactly the records of the fault-free row's first"
            + " run of the pattern; hung = runs over "
            + (int) HUNG_FACTOR
            + " x (the cell's fault-free median + the fault's planned end, AT + FOR; 0 for a kill"
            + " or a fault held to the end of the run).\n\n");
    md.append(
        "| fault | pattern | variant | reduce stage median (s) | spread | vs first variant |"
            + " over fault-free (s) | fault held (s) | most flows / capacity |"
            + " on the wire / capacity | answers | hung |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    List<String> failed = new ArrayList<>();
    for (Row r : rows) {
      for (E2eReport.Cell c : r.cells()) {
        double med = median(c);
        E2eReport.Cell first =
            r.cells().stream().filter(x -> x.pattern().equals(c.pattern())).findFirst().orElse(c);
        Double freeMed = free.get(key(c));
        long hung = hungRuns(c, freeMed, r);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                r.fault() == null ? "none (fault-free)" : "`" + r.fault() + "`",
                c.pattern(),
                c.variant(),
                med,
                c.runs().size() < 2
                    ? "- (1 run)"
                    : String.format(Locale.ROOT, "%.1f%%", 100 * E2eReport.spread(seconds(c))),
                c == first
                    ? "-"
                    : String.format(
                        Locale.ROOT,
                        "%+.1f %% (%s)",
                        100 * (med / median(first) - 1),
                        first.variant()),
                r.fault() == null || freeMed == null
                    ? "-"
                    : String.format(Locale.ROOT, "%+.1f", med - freeMed),
                held(r.faults().getOrDefault(key(c), List.of())),
                E2eReport.mostFlows(c),
                E2eReport.mostOnTheWire(c),
                answers(r, c, freeAnswers),
                hung));
      }
      if (r.exitStatus() != 0) {
        failed.add(
            (r.fault() == null ? "the fault-free row" : "`" + r.fault() + "`")
                + ": e2e-bench exited "
                + r.exitStatus()
                + (r.wrongAnswers().isEmpty() ? "" : "; wrong answers: " + r.wrongAnswers()));
      }
    }
    if (!failed.isEmpty()) {
      md.append(
              "\n**Rows whose run failed** (a wrong answer, a fault not applied or not undone, or")
          .append(" a run that did not end):\n");
      failed.forEach(f -> md.append("- ").append(f).append('\n'));
    }
    return md.toString();
  }

  /**
   * @return "identical" when the row's runs of the pattern agreed with each other and with the
   *     fault-free row's first run, "WRONG" otherwise, "-" when there is nothing to compare
   */
  private static String answers(Row r, E2eReport.Cell c, Map<String, List<String>> freeAnswers) {
    String key = c.pattern() + "@" + c.rtt();
    List<String> mine = r.answers().get(key);
    String says = c.pattern() + " at RTT " + c.rtt() + " ms";
    boolean wrongInRow = r.wrongAnswers().stream().anyMatch(w -> w.contains(says));
    if (mine == null) {
      return "-";
    }
    List<String> reference = freeAnswers.get(key);
    return wrongInRow || (reference != null && !reference.equals(mine)) ? "WRONG" : "identical";
  }

  /**
   * @param rows the rows, the fault-free one first
   * @return the runs of the rows with a fault that took over {@link #HUNG_FACTOR} x (their cell's
   *     fault-free median + the fault's planned end), 0 without a fault-free row
   */
  static long hungRuns(List<Row> rows) {
    Map<String, Double> free = freeMedians(rows);
    long n = 0;
    for (Row r : rows) {
      for (E2eReport.Cell c : r.cells()) {
        n += r.fault() == null ? 0 : hungRuns(c, free.get(key(c)), r);
      }
    }
    return n;
  }

  /**
   * @return per cell ({@link #key}) of the fault-free row, its median; empty when the first row has
   *     a fault
   */
  private static Map<String, Double> freeMedians(List<Row> rows) {
    Map<String, Double> free = new LinkedHashMap<>();
    if (!rows.isEmpty() && rows.get(0).fault() == null) {
      rows.get(0).cells().forEach(c -> free.put(key(c), median(c)));
    }
    return free;
  }

  /**
   * @return the cell's key in {@link Row#faults()}: "pattern|variant"
   */
  static String key(E2eReport.Cell c) {
    return c.pattern() + "|" + c.variant();
  }

  private static long hungRuns(E2eReport.Cell c, Double freeMedian, Row r) {
    if (freeMedian == null) {
      return 0;
    }
    double planned = 0;
    for (FaultRun run : r.faults().getOrDefault(key(c), List.of())) {
      for (FaultRecord f : run.faults()) {
        planned = Math.max(planned, f.forSeconds() == null ? 0 : f.atSeconds() + f.forSeconds());
      }
    }
    double limit = HUNG_FACTOR * (freeMedian + planned);
    return c.runs().stream().filter(f -> f.reduceSeconds() > limit).count();
  }

  /**
   * @param runs a cell's runs' faults
   * @return the median time from the first fault's application to its undoing, s; "-" when no run
   *     applied and undid one (a kill, or no fault)
   */
  static String held(List<FaultRun> runs) {
    List<Double> v = new ArrayList<>();
    for (FaultRun run : runs) {
      for (FaultRecord f : run.faults()) {
        if (f.appliedAtSeconds() != null && f.undoneAtSeconds() != null) {
          v.add(f.undoneAtSeconds() - f.appliedAtSeconds());
          break;
        }
      }
    }
    return v.isEmpty()
        ? "-"
        : String.format(
            Locale.ROOT,
            "%.1f",
            E2eReport.median(v.stream().mapToDouble(Double::doubleValue).toArray()));
  }

  private static double[] seconds(E2eReport.Cell c) {
    return c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray();
  }

  private static double median(E2eReport.Cell c) {
    return E2eReport.median(seconds(c));
  }
}
