package io.wanshuffle.bench.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.jfree.data.statistics.Regression;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * How the coordinator's cost grows with the hosts: power-law fits y = a H^b of each figure of
 * {@code bench coordinator} over configurations that differ in hosts, H being the hosts of every
 * site together. The fit is least squares on log y against log H (JFreeChart's {@link
 * Regression#getPowerRegression}); a figure with an exponent b near 0 is flat.
 */
final class Growth {
  /**
   * One figure of a configuration's results.
   *
   * @param name its name in the fit table and the chart
   * @param unit its unit, e.g. "ms"; empty for a ratio
   * @param value reads it from a result
   */
  record Figure(String name, String unit, ToDoubleFunction<BenchResult> value) {
    /**
     * @return the name with its unit in brackets, e.g. "grant latency p99 (ms)"
     */
    String label() {
      return unit.isEmpty() ? name : name + " (" + unit + ")";
    }
  }

  /** Grant latency p99, ms. */
  static final Figure GRANT_P99 = new Figure("grant latency p99", "ms", r -> r.grantLatencyMsP99());

  /** Re-plan p99, ms. */
  static final Figure REPLAN_P99 = new Figure("re-plan p99", "ms", r -> r.replanMsP99());

  /** Driver CPU per stage, s. */
  static final Figure DRIVER_CPU = new Figure("driver CPU", "s", r -> r.driverCpuSeconds());

  /** Peak heap, MiB. */
  static final Figure PEAK_HEAP = new Figure("peak heap", "MiB", r -> r.peakHeapMb());

  /** The figures the chart draws: what the coordinator costs the driver. */
  static final List<Figure> COST = List.of(GRANT_P99, REPLAN_P99, DRIVER_CPU, PEAK_HEAP);

  /** The figures the fit table lists: the costs, then two that should stay flat. */
  static final List<Figure> FITTED =
      Stream.concat(
              COST.stream(),
              Stream.of(
                  new Figure("RPC messages per task", "", r -> r.messagesPerTask()),
                  new Figure("makespan / lower bound", "", r -> r.makespanOverLowerBound())))
          .toList();

  /**
   * The fit of one figure.
   *
   * @param figure the figure
   * @param a the factor, in the figure's unit
   * @param b the exponent of H
   * @param points the configurations fitted on (at least 2, with at least 2 different H)
   */
  record Fit(Figure figure, double a, double b, int points) {
    /**
     * @param hosts H, hosts of every site together
     * @return a H^b, in the figure's unit
     */
    double at(double hosts) {
      return a * Math.pow(hosts, b);
    }

    /**
     * @return the fit as text, e.g. "8.5 H^0.61"
     */
    String formula() {
      return CoordinatorReport.num(a) + " H^" + String.format(Locale.ROOT, "%.2f", b);
    }
  }

  private Growth() {}

  /**
   * @param r a configuration's results
   * @return H, the hosts of every site together
   */
  static int totalHosts(BenchResult r) {
    return r.hosts() * r.sites();
  }

  /**
   * The configurations a fit runs over: those of the first configuration's mode and number of sites
   * (a three-site row next to two-site ones is another series).
   *
   * @param results the configurations' results, in the order they ran
   * @return the series, in the same order; empty when {@code results} is
   */
  static List<BenchResult> series(List<BenchResult> results) {
    List<BenchResult> s = new ArrayList<>();
    if (results.isEmpty()) {
      return s;
    }
    BenchResult first = results.get(0);
    for (BenchResult r : results) {
      if (r.sites() == first.sites() && r.mode().equals(first.mode())) {
        s.add(r);
      }
    }
    return s;
  }

  /**
   * @param series configurations of one series ({@link #series})
   * @param figure a figure
   * @return its points (H, value), the values that are not positive left out (no logarithm)
   */
  static XYSeries points(List<BenchResult> series, Figure figure) {
    XYSeries xy = new XYSeries(figure.name(), true, true);
    for (BenchResult r : series) {
      double y = figure.value().applyAsDouble(r);
      if (y > 0 && Double.isFinite(y)) {
        xy.add(totalHosts(r), y);
      }
    }
    return xy;
  }

  /**
   * @param series configurations of one series ({@link #series})
   * @param figure a figure
   * @return its fit, or null when fewer than 2 different H have a positive value
   */
  static Fit fit(List<BenchResult> series, Figure figure) {
    return fit(points(series, figure), figure);
  }

  /**
   * @param xy a figure's points ({@link #points})
   * @param figure the figure
   * @return their fit, or null when fewer than 2 different H
   */
  static Fit fit(XYSeries xy, Figure figure) {
    if (xy.getItemCount() < 2 || xy.getMinX() == xy.getMaxX()) {
      return null;
    }
    double[] ab = Regression.getPowerRegression(new XYSeriesCollection(xy), 0);
    return new Fit(figure, ab[0], ab[1], xy.getItemCount());
  }

  /**
   * @param results the configurations' results, in the order they ran
   * @return the fits of {@link #FITTED} over {@link #series}, those that could be fitted; empty
   *     when the configurations do not differ in hosts
   */
  static List<Fit> fits(List<BenchResult> results) {
    List<BenchResult> s = series(results);
    List<Fit> out = new ArrayList<>();
    for (Figure f : FITTED) {
      Fit fit = fit(s, f);
      if (fit != null) {
        out.add(fit);
      }
    }
    return out;
  }
}
