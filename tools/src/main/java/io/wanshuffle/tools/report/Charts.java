package io.wanshuffle.tools.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The report's charts, drawn by JFreeChart and returned as PNG bytes. */
public final class Charts {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private Charts() {}

  /**
   * One bar of a Gantt chart.
   *
   * @param lane row of the chart (a step, a host)
   * @param series legend entry (bars of one series share a colour)
   * @param startSeconds start, seconds from the chart's origin
   * @param endSeconds end, seconds from the chart's origin (at least {@code startSeconds})
   */
  public record Bar(String lane, String series, double startSeconds, double endSeconds) {}

  /**
   * Heat map of a traffic matrix: senders as rows, receivers as columns, colour = bytes.
   *
   * @param title chart title
   * @param senders row labels (hosts)
   * @param receivers column labels (hosts)
   * @param bytes {@code [senders][receivers]} bytes
   * @return PNG image
   */
  public static byte[] heatMap(
      String title, List<String> senders, List<String> receivers, long[][] bytes) {
    return groupedHeatMap(
        title,
        senders,
        Collections.nCopies(senders.size(), ""),
        receivers,
        Collections.nCopies(receivers.size(), ""),
        bytes);
  }

  /**
   * Gantt chart: one horizontal bar per {@link Bar}, lanes in first-appearance order.
   *
   * @param title chart title
   * @param bars the bars
   * @return PNG image
   */
  public static byte[] gantt(String title, List<Bar> bars) {
    JFreeChart chart = ganttChart(title, bars, "seconds since the reduce stage started");
    int height = Math.max(260, 120 + 18 * lanes(bars).size());
    return png(chart, 900, Math.min(height, 1600));
  }

  private static JFreeChart ganttChart(String title, List<Bar> bars, String timeLabel) {
    Map<String, Integer> lanes = new LinkedHashMap<>();
    Map<String, XYIntervalSeries> series = new LinkedHashMap<>();
    for (Bar b : bars) {
      lanes.putIfAbsent(b.lane(), lanes.size());
      series.computeIfAbsent(b.series(), XYIntervalSeries::new);
    }
    for (Bar b : bars) {
      int lane = lanes.get(b.lane());
      series
          .get(b.series())
          .add(
              lane,
              lane - 0.35,
              lane + 0.35,
              b.startSeconds(),
              b.startSeconds(),
              Math.max(b.endSeconds(), b.startSeconds()));
    }
    XYIntervalSeriesCollection ds = new XYIntervalSeriesCollection();
    series.values().forEach(ds::addSeries);
    XYBarRenderer r = new XYBarRenderer();
    r.setUseYInterval(true);
    r.setShadowVisible(false);
    r.setDrawBarOutline(false);
    r.setBarPainter(new org.jfree.chart.renderer.xy.StandardXYBarPainter());
    SymbolAxis laneAxis = new SymbolAxis("", lanes.keySet().toArray(new String[0]));
    laneAxis.setGridBandsVisible(false);
    NumberAxis time = new NumberAxis(timeLabel);
    XYPlot plot = new XYPlot(ds, laneAxis, time, r);
    plot.setOrientation(PlotOrientation.HORIZONTAL);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(title, plot);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  /**
   * Backbone throughput over time, one line per run, with the backbone rate as a marker.
   *
   * @param title chart title
   * @param lines legend name to (seconds, bits/s) points
   * @param limitBitsPerSecond backbone rate, bits/s (drawn as a dashed line; 0 = none)
   * @return PNG image
   */
  public static byte[] throughput(
      String title, Map<String, List<double[]>> lines, double limitBitsPerSecond) {
    return throughputChart(
        title,
        "seconds since the reduce stage started",
        "A→B Mbit/s",
        lines,
        limitBitsPerSecond > 0 ? Map.of("backbone rate", limitBitsPerSecond) : Map.of());
  }

  /**
   * Utilisation of links by run: one group of bars per link, one bar per run.
   *
   * @param title chart title
   * @param byRun run name to (link name to utilisation, 0..1), links in the order to draw them
   * @return PNG image
   */
  public static byte[] linkUtilisation(String title, Map<String, Map<String, Double>> byRun) {
    org.jfree.data.category.DefaultCategoryDataset ds =
        new org.jfree.data.category.DefaultCategoryDataset();
    byRun.forEach((run, links) -> links.forEach((link, u) -> ds.addValue(100 * u, run, link)));
    JFreeChart chart =
        ChartFactory.createBarChart(
            title, "link", "utilisation (%)", ds, PlotOrientation.HORIZONTAL, true, false, false);
    org.jfree.chart.plot.CategoryPlot plot = chart.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    org.jfree.chart.renderer.category.BarRenderer r =
        (org.jfree.chart.renderer.category.BarRenderer) plot.getRenderer();
    r.setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
    r.setShadowVisible(false);
    chart.setBackgroundPaint(Color.WHITE);
    int links = ds.getColumnCount();
    return png(chart, 900, Math.max(260, 120 + 22 * links * Math.max(1, ds.getRowCount())));
  }

  /**
   * Heat map of a traffic matrix whose hosts are grouped (by site and rack): senders as rows,
   * receivers as columns, colour = MB, a line between two groups.
   *
   * @param title chart title
   * @param senders row labels, grouped (a group's hosts next to each other)
   * @param senderGroup per row, its group (e.g. {@code /A/rack0})
   * @param receivers column labels, grouped
   * @param receiverGroup per column, its group
   * @param bytes {@code [senders][receivers]} bytes
   * @return PNG image
   */
  public static byte[] groupedHeatMap(
      String title,
      List<String> senders,
      List<String> senderGroup,
      List<String> receivers,
      List<String> receiverGroup,
      long[][] bytes) {
    int n = senders.size() * receivers.size();
    double[][] xyz = new double[3][n];
    double max = 1e-6;
    int k = 0;
    for (int i = 0; i < senders.size(); i++) {
      for (int j = 0; j < receivers.size(); j++) {
        xyz[0][k] = j;
        xyz[1][k] = i;
        xyz[2][k] = bytes[i][j] / 1e6;
        max = Math.max(max, xyz[2][k]);
        k++;
      }
    }
    DefaultXYZDataset ds = new DefaultXYZDataset();
    ds.addSeries("MB", xyz);
    SymbolAxis x = new SymbolAxis("receiver (site/rack)", labels(receivers, receiverGroup));
    SymbolAxis y = new SymbolAxis("sender (site/rack)", labels(senders, senderGroup));
    x.setVerticalTickLabels(receivers.size() > 6);
    LookupPaintScale scale = new LookupPaintScale(0, max * 1.0001, Color.WHITE);
    int steps = 32;
    for (int s = 0; s < steps; s++) {
      float f = s / (float) (steps - 1);
      scale.add(max * s / steps, new Color(1f - 0.8f * f, 1f - 0.55f * f, 1f - 0.1f * f));
    }
    XYBlockRenderer r = new XYBlockRenderer();
    r.setPaintScale(scale);
    XYPlot plot = new XYPlot(ds, x, y, r);
    plot.setBackgroundPaint(Color.WHITE);
    BasicStroke line = new BasicStroke(2f);
    for (int j = 1; j < receivers.size(); j++) {
      if (!receiverGroup.get(j).equals(receiverGroup.get(j - 1))) {
        plot.addDomainMarker(new ValueMarker(j - 0.5, Color.DARK_GRAY, line));
      }
    }
    for (int i = 1; i < senders.size(); i++) {
      if (!senderGroup.get(i).equals(senderGroup.get(i - 1))) {
        plot.addRangeMarker(new ValueMarker(i - 0.5, Color.DARK_GRAY, line));
      }
    }
    JFreeChart chart = new JFreeChart(title, plot);
    chart.removeLegend();
    NumberAxis legendAxis = new NumberAxis("MB");
    legendAxis.setRange(0, max);
    PaintScaleLegend legend = new PaintScaleLegend(scale, legendAxis);
    legend.setPosition(RectangleEdge.RIGHT);
    legend.setMargin(4, 4, 40, 4);
    chart.addSubtitle(legend);
    chart.setBackgroundPaint(Color.WHITE);
    int side = Math.min(900, 360 + 14 * Math.max(senders.size(), receivers.size()));
    return png(chart, side + 80, side);
  }

  private static String[] labels(List<String> hosts, List<String> groups) {
    String[] out = new String[hosts.size()];
    for (int i = 0; i < out.length; i++) {
      String g = groups.get(i);
      out[i] = g == null || g.isEmpty() ? hosts.get(i) : hosts.get(i) + " " + g;
    }
    return out;
  }

  /**
   * Gantt chart of a given width whose time axis ends at {@code maxSeconds}, so that two charts
   * drawn side by side share a scale.
   *
   * @param title chart title
   * @param bars the bars
   * @param width image width, pixels
   * @param maxSeconds end of the time axis, seconds (0: from the bars)
   * @return PNG image
   */
  public static byte[] gantt(String title, List<Bar> bars, int width, double maxSeconds) {
    JFreeChart chart = ganttChart(title, bars, "seconds from the stage's first grant");
    if (maxSeconds > 0) {
      chart.getXYPlot().getRangeAxis().setRange(0, maxSeconds);
    }
    int height = Math.max(240, 110 + 16 * lanes(bars).size());
    return png(chart, width, Math.min(height, 1400));
  }

  /**
   * Throughput over time, one line per series, with dashed lines at given rates.
   *
   * @param title chart title
   * @param lines legend name to (seconds, bits/s) points
   * @param limits label to rate, bits/s (dashed lines)
   * @return PNG image
   */
  public static byte[] throughput(
      String title, Map<String, List<double[]>> lines, Map<String, Double> limits) {
    return throughputChart(title, "seconds from the stage's first flow", "Mbit/s", lines, limits);
  }

  private static byte[] throughputChart(
      String title,
      String xLabel,
      String yLabel,
      Map<String, List<double[]>> lines,
      Map<String, Double> limits) {
    XYSeriesCollection ds = new XYSeriesCollection();
    lines.forEach(
        (name, pts) -> {
          XYSeries s = new XYSeries(name, false, true);
          for (double[] p : pts) {
            s.add(p[0], p[1] / 1e6);
          }
          ds.addSeries(s);
        });
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, yLabel, ds, PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    limits.forEach(
        (label, bits) -> {
          ValueMarker m =
              new ValueMarker(
                  bits / 1e6,
                  Color.RED,
                  new BasicStroke(
                      1.5f,
                      BasicStroke.CAP_BUTT,
                      BasicStroke.JOIN_MITER,
                      1f,
                      new float[] {6f, 4f},
                      0f));
          m.setLabel(label);
          m.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_LEFT);
          m.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.BOTTOM_LEFT);
          plot.addRangeMarker(m);
        });
    double top = limits.values().stream().mapToDouble(v -> v / 1e6).max().orElse(0) * 1.1;
    if (top > plot.getRangeAxis().getUpperBound()) {
      plot.getRangeAxis().setUpperBound(top);
    }
    chart.setBackgroundPaint(Color.WHITE);
    return png(chart, 900, 360);
  }

  /**
   * Step chart: each series holds its value from one point to the next (a window, a share), one
   * line per series, the flows on a whole-number axis.
   *
   * @param title chart title
   * @param xLabel the time axis' label
   * @param yLabel the value axis' label
   * @param lines legend name to (seconds, value) points in time order
   * @param dashed legend names drawn dashed (the others solid)
   * @return PNG image
   */
  public static byte[] steps(
      String title,
      String xLabel,
      String yLabel,
      Map<String, List<double[]>> lines,
      Set<String> dashed) {
    XYSeriesCollection ds = new XYSeriesCollection();
    lines.forEach(
        (name, pts) -> {
          XYSeries s = new XYSeries(name, false, true);
          for (double[] p : pts) {
            s.add(p[0], p[1]);
          }
          ds.addSeries(s);
        });
    XYStepRenderer r = new XYStepRenderer();
    BasicStroke dash =
        new BasicStroke(
            2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f);
    int i = 0;
    for (String name : lines.keySet()) {
      r.setSeriesStroke(i++, dashed.contains(name) ? dash : new BasicStroke(2f));
    }
    double top =
        lines.values().stream().flatMap(List::stream).mapToDouble(p -> p[1]).max().orElse(0);
    NumberAxis y = new NumberAxis(yLabel);
    y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    y.setRange(0, Math.max(1, top) + 0.5);
    XYPlot plot = new XYPlot(ds, new NumberAxis(xLabel), y, r);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(title, plot);
    chart.setBackgroundPaint(Color.WHITE);
    return png(chart, 900, 360);
  }

  /**
   * Grouped bars: per category (a stage), one bar per series (lower bound, predicted, measured).
   *
   * @param title chart title
   * @param valueLabel the value axis' label
   * @param values series name to (category to value); NaN values are left out
   * @return PNG image
   */
  public static byte[] groupedBars(
      String title, String valueLabel, Map<String, Map<String, Double>> values) {
    org.jfree.data.category.DefaultCategoryDataset ds =
        new org.jfree.data.category.DefaultCategoryDataset();
    values.forEach(
        (series, byCategory) ->
            byCategory.forEach(
                (category, v) -> {
                  if (!Double.isNaN(v)) {
                    ds.addValue(v, series, category);
                  }
                }));
    JFreeChart chart =
        ChartFactory.createBarChart(
            title, "stage", valueLabel, ds, PlotOrientation.VERTICAL, true, false, false);
    chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
    chart.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
    ((org.jfree.chart.renderer.category.BarRenderer) chart.getCategoryPlot().getRenderer())
        .setBarPainter(new org.jfree.chart.renderer.category.StandardBarPainter());
    chart.setBackgroundPaint(Color.WHITE);
    return png(chart, 900, 340);
  }

  private static byte[] png(JFreeChart chart, int w, int h) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ChartUtils.writeChartAsPNG(out, chart, w, h);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render chart '" + chart.getTitle().getText() + "'", e);
    }
  }

  static List<String> lanes(List<Bar> bars) {
    List<String> l = new ArrayList<>();
    bars.forEach(
        b -> {
          if (!l.contains(b.lane())) {
            l.add(b.lane());
          }
        });
    return l;
  }
}
