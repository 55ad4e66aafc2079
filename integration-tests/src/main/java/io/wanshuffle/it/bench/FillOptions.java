package io.wanshuffle.it.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code e2e-bench} options of a benchmark of the bottleneck fill: the variants taking turns
 * run by run ({@code --alternate}), the machine loaded by busy processes ({@code --load}, {@link
 * MachineLoad}), and the targets' sections in the report ({@code --targets}, {@link FillReport}).
 */
public final class FillOptions {
  @Option(
      names = "--alternate",
      description =
          "the variants take turns run by run: each measured run is an application of its own"
              + " (with its warm-up), in the order default, auto, ..., default, auto, ... per"
              + " pattern, so that a drift of the machine falls on every variant alike (default:"
              + " one application per variant with --runs measured runs)")
  boolean alternate;

  @Option(
      names = "--load",
      paramLabel = "N",
      split = ",",
      defaultValue = "0",
      description =
          "busy processes (one spinning shell loop each, e.g. one per core) running beside every"
              + " application of the cells, started and stopped by the command; several counts"
              + " run everything at each (e.g. 0,2: quiet, then loaded) (default ${DEFAULT-VALUE})")
  List<Integer> loads = new ArrayList<>(List.of(0));

  @Option(
      names = "--targets",
      description =
          "add the sections \"Bottleneck fill\" (per cell: medians with their range, verdicts"
              + " against the default and against fixed windows, the bottleneck link's"
              + " utilisation over its transfer phase) and \"Targets\" (each fill target, met or"
              + " not) to the report")
  boolean targets;

  /**
   * One application of a pattern's schedule.
   *
   * @param variant the variant it runs
   * @param round its round, 1-based (1 without {@code --alternate})
   * @param runs measured runs it makes
   * @param last whether it is the variant's last application of the pattern (its cell is complete
   *     after it)
   */
  record Slot(String variant, int round, int runs, boolean last) {}

  /**
   * @param variants the variants, in option order
   * @param runs measured runs per variant, at least 1
   * @param alternate whether the variants take turns run by run
   * @return the applications of one pattern in the order they run: with {@code alternate}, {@code
   *     runs} rounds of one single-run application per variant; else one application per variant
   *     with every run
   * @throws IllegalArgumentException if {@code runs < 1} or no variant is given
   */
  static List<Slot> schedule(List<String> variants, int runs, boolean alternate) {
    if (runs < 1 || variants.isEmpty()) {
      throw new IllegalArgumentException(
          "need at least one variant and one run, got " + variants + " x " + runs);
    }
    List<Slot> out = new ArrayList<>();
    if (!alternate) {
      variants.forEach(v -> out.add(new Slot(v, 1, runs, true)));
      return out;
    }
    for (int r = 1; r <= runs; r++) {
      for (String v : variants) {
        out.add(new Slot(v, r, 1, r == runs));
      }
    }
    return out;
  }

  /**
   * @return why {@code --load} is wrong, or null: every count 0 or more, none twice
   */
  String loadProblem() {
    if (loads.isEmpty()) {
      return "--load: give a count of busy processes, e.g. 0 or 0,2";
    }
    if (loads.stream().anyMatch(n -> n == null || n < 0)) {
      return "--load: busy processes must be 0 or more, got " + loads;
    }
    if (new LinkedHashSet<>(loads).size() != loads.size()) {
      return "--load: a count given twice: " + loads;
    }
    return null;
  }

  /**
   * @param shapeLabel the testbed shape as the report's testbed column names it ("" with one shape)
   * @param load the busy processes of the cells
   * @return the testbed column's label: the shape alone on a quiet machine when no load is asked
   *     for; else the shape (if any) and the load, e.g. {@code quiet machine}, {@code 2 busy
   *     processes}
   */
  String label(String shapeLabel, int load) {
    if (loads.equals(List.of(0))) {
      return shapeLabel;
    }
    String machine = load == 0 ? "quiet machine" : load + " busy process" + (load == 1 ? "" : "es");
    return shapeLabel.isEmpty() ? machine : shapeLabel + ", " + machine;
  }

  /**
   * @return these options as the report's command line gives them ("" for the defaults)
   */
  String commandLine() {
    return (alternate ? " --alternate" : "")
        + (loads.equals(List.of(0))
            ? ""
            : " --load " + String.join(",", loads.stream().map(String::valueOf).toList()))
        + (targets ? " --targets" : "");
  }
}
