package io.wanshuffle.it.bench;

import java.util.List;

/**
 * A cell of the end-to-end benchmark with what the fill targets read beyond its table: the
 * machine's load while it ran and, per run, its bottleneck link (the link of the generalised
 * physical limit of the run's traffic matrix) and that link's utilisation over its transfer phase
 * ({@link TransferPhase}).
 *
 * @param cell the cell
 * @param load busy processes running beside the cell's runs ({@code --load}), 0 for a quiet machine
 * @param bottlenecks per run, its bottleneck link, or null without traffic
 * @param phaseUtilisation per run, the bottleneck link's utilisation over its transfer phase
 *     (0..1), or null where not measured (loopback testbed, an unshaped link)
 */
record FillCell(
    E2eReport.Cell cell, int load, List<String> bottlenecks, List<Double> phaseUtilisation) {

  /** Copies the lists (they may hold nulls). */
  FillCell {
    bottlenecks = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(bottlenecks));
    phaseUtilisation =
        java.util.Collections.unmodifiableList(new java.util.ArrayList<>(phaseUtilisation));
  }

  /**
   * @return the median of the measured runs' phase utilisation, or null when no run measured it
   */
  Double medianPhaseUtilisation() {
    double[] u =
        phaseUtilisation.stream().filter(x -> x != null).mapToDouble(Double::doubleValue).toArray();
    return u.length == 0 ? null : E2eReport.median(u);
  }

  /**
   * @return the first run's bottleneck link, "-" without one (the runs of a cell shuffle the same
   *     records, so their matrices, and links, agree up to the fitted bytes)
   */
  String bottleneck() {
    return bottlenecks.stream().filter(x -> x != null).findFirst().orElse("-");
  }
}
