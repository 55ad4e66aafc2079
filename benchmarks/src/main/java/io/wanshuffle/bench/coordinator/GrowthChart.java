package io.wanshuffle.bench.coordinator;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTitleAnnotation;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The chart of {@code bench coordinator --plot}: per cost figure ({@link Growth#COST}) one panel
 * with the configurations' values against H (hosts of every site together) and their power-law fit
 * ({@link Growth#fit}, its formula in the panel's legend), both axes logarithmic, drawn by
 * JFreeChart as a PNG.
 */
final class GrowthChart {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** Width of the image, pixels. */
  static final int WIDTH = 900;

  /** Height of one panel, pixels. */
  static final int PANEL_HEIGHT = 220;

  private GrowthChart() {}

  /**
   * Draws the chart.
   *
   * @param results the configurations' results, in the order they ran; the fit runs over {@link
   *     Growth#series}, the other configurations are drawn as their own points
   * @return the chart
   */
  static JFreeChart chart(List<BenchResult> results) {
    List<BenchResult> series = Growth.series(results);
    List<BenchResult> others = results.stream().filter(r -> !series.contains(r)).toList();
    LogAxis hosts = logAxis("hosts of every site together (H)");
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(hosts);
    plot.setGap(12);
    for (Growth.Figure f : Growth.COST) {
      XYSeriesCollection data = new XYSeriesCollection();
      XYSeries measured = Growth.points(series, f);
      measured.setKey(seriesName(series, "measured"));
      data.addSeries(measured);
      XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
      int n = 0;
      r.setSeriesLinesVisible(n, false);
      r.setSeriesPaint(n++, new Color(0x1f77b4));
      if (!others.isEmpty()) {
        XYSeries o = Growth.points(others, f);
        o.setKey(seriesName(others, "other"));
        data.addSeries(o);
        r.setSeriesLinesVisible(n, false);
        r.setSeriesPaint(n++, new Color(0xff7f0e));
      }
      Growth.Fit fit = Growth.fit(measured, f);
      if (fit != null) {
        XYSeries line = new XYSeries(f.name() + " fit " + fit.formula());
        double lo = measured.getMinX();
        double hi = measured.getMaxX();
        for (int i = 0; i <= 20; i++) {
          double h = lo * Math.pow(hi / lo, i / 20.0);
          line.add(h, fit.at(h));
        }
        data.addSeries(line);
        r.setSeriesShapesVisible(n, false);
        r.setSeriesPaint(n, Color.GRAY);
        r.setSeriesStroke(
            n,
            new BasicStroke(
                1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
      }
      XYPlot panel = new XYPlot(data, null, valueAxis(f.label()), r);
      panel.setBackgroundPaint(Color.WHITE);
      panel.setDomainGridlinePaint(Color.LIGHT_GRAY);
      panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
      LegendTitle legend = new LegendTitle(panel);
      legend.setBackgroundPaint(new Color(255, 255, 255, 200));
      panel.addAnnotation(new XYTitleAnnotation(0.01, 0.99, legend, RectangleAnchor.TOP_LEFT));
      plot.add(panel, 1);
    }
    JFreeChart chart =
        new JFreeChart(
            "bench coordinator: cost against hosts (dashed: fit y = a H^b)",
            JFreeChart.DEFAULT_TITLE_FONT,
            plot,
            false);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  /**
   * Writes the chart as a PNG.
   *
   * @param file the image file; its folder is created if missing
   * @param results the configurations' results
   * @throws IOException if the file cannot be written
   */
  static void write(Path file, List<BenchResult> results) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    ChartUtils.saveChartAsPNG(
        file.toFile(), chart(results), WIDTH, 80 + PANEL_HEIGHT * Growth.COST.size());
  }

  private static LogAxis logAxis(String label) {
    LogAxis a = new LogAxis(label);
    a.setBase(10);
    a.setSmallestValue(1e-3);
    // labelled ticks at whole powers of ten (1, 10, 100, ...), minor marks between them
    a.setStandardTickUnits(NumberAxis.createIntegerTickUnits(Locale.ROOT));
    a.setMinorTickCount(9);
    a.setMinorTickMarksVisible(true);
    a.setNumberFormatOverride(new DecimalFormat("0.###"));
    return a;
  }

  private static LogAxis valueAxis(String label) {
    LogAxis a = logAxis(label);
    // room above the points for the panel's legend
    a.setUpperMargin(0.45);
    a.setLowerMargin(0.1);
    return a;
  }

  private static String seriesName(List<BenchResult> rs, String what) {
    BenchResult first = rs.get(0);
    return what + " (" + first.sites() + " sites, " + first.mode() + ")";
  }
}
