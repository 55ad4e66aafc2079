package io.wanshuffle.bench.quality;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One table of the quality report: for each k, every algorithm's mean and max of cost/η over the
 * same instances, plus how often and by how much {@code auto} beats OGGP. Every schedule is
 * validated; an invalid one aborts the run (a bug, not a data point).
 */
final class QualityTable {
  /** Row label (k) → algorithm → stats. */
  final Map<Integer, Map<String, RatioStats>> rows = new LinkedHashMap<>();

  /** Row label → instances where auto costs strictly less than OGGP. */
  final Map<Integer, Integer> autoWins = new LinkedHashMap<>();

  /** Row label → Σ (OGGP cost - auto cost) / OGGP cost. */
  final Map<Integer, Double> autoSaving = new LinkedHashMap<>();

  final List<String> algorithms;

  QualityTable(List<String> algorithms) {
    this.algorithms = List.copyOf(algorithms);
  }

  /**
   * Runs every algorithm on one instance and records the ratios under row k.
   *
   * @throws IllegalStateException if an algorithm returns an invalid schedule
   */
  void add(int k, TrafficMatrix m, Platform p) {
    double eta = LowerBound.of(m, p).eta();
    if (!(eta > 0)) {
      return;
    }
    Map<String, RatioStats> row = rows.computeIfAbsent(k, x -> new LinkedHashMap<>());
    Map<String, Double> cost = new LinkedHashMap<>();
    for (String name : algorithms) {
      StepScheduler alg = Algorithms.byName(name);
      long t0 = System.nanoTime();
      Schedule s = alg.schedule(m, p);
      long t = System.nanoTime() - t0;
      try {
        s.validate(m, p);
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            name + " returned an invalid schedule for " + m + ": " + e.getMessage(), e);
      }
      double c = s.cost(p.beta());
      cost.put(name, c);
      row.computeIfAbsent(name, x -> new RatioStats()).add(c / eta, t);
    }
    Double a = cost.get("auto");
    Double o = cost.get("oggp");
    if (a != null && o != null) {
      autoWins.merge(k, a < o * (1 - 1e-12) ? 1 : 0, Integer::sum);
      autoSaving.merge(k, (o - a) / o, Double::sum);
    }
  }

  /**
   * @return the Markdown table: k, then mean / max per algorithm, then auto vs OGGP
   */
  String markdown(String rowLabel) {
    StringBuilder sb = new StringBuilder();
    boolean both = algorithms.contains("auto") && algorithms.contains("oggp");
    sb.append("| ").append(rowLabel).append(" | n |");
    for (String a : algorithms) {
      sb.append(' ').append(a).append(" mean / max |");
    }
    if (both) {
      sb.append(" auto < oggp | auto saving vs oggp |");
    }
    sb.append('\n').append("|---|---|");
    for (int i = 0; i < algorithms.size(); i++) {
      sb.append("---|");
    }
    if (both) {
      sb.append("---|---|");
    }
    sb.append('\n');
    for (var e : rows.entrySet()) {
      int n = e.getValue().values().iterator().next().count();
      sb.append("| ").append(e.getKey()).append(" | ").append(n).append(" |");
      for (String a : algorithms) {
        RatioStats r = e.getValue().get(a);
        sb.append(String.format(Locale.ROOT, " %s / %s |", fmt(r.mean()), fmt(r.max())));
      }
      if (both) {
        sb.append(
            String.format(
                Locale.ROOT,
                " %d of %d | %.4f %% |",
                autoWins.get(e.getKey()),
                n,
                100 * autoSaving.get(e.getKey()) / n));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * @return mean run time per algorithm over all rows, Markdown line
   */
  String timing() {
    List<String> parts = new ArrayList<>();
    for (String a : algorithms) {
      double sum = 0;
      int c = 0;
      for (var row : rows.values()) {
        RatioStats r = row.get(a);
        sum += r.meanMillis() * r.count();
        c += r.count();
      }
      parts.add(String.format(Locale.ROOT, "%s %.2f ms", a, sum / Math.max(1, c)));
    }
    return "Mean time per instance (one thread, this run): " + String.join(", ", parts) + ".";
  }

  private static String fmt(double v) {
    // Enough digits to tell auto from OGGP on large weights, where both are within 1e-4 of η.
    return v < 1.001
        ? String.format(Locale.ROOT, "%.6f", v)
        : String.format(Locale.ROOT, "%.4f", v);
  }
}
