package io.wanshuffle.bench.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The growth fits recover a known power law, run over one series (the first configuration's sites
 * and mode), need two different host counts, and reach the report and the chart.
 */
class GrowthTest {
  /** A result whose figures follow known power laws of H = hosts x sites. */
  private static BenchResult result(String mode, int hosts, int sites, double noise) {
    double h = hosts * sites;
    return new BenchResult(
        mode,
        hosts,
        sites,
        1,
        100,
        10,
        3,
        0,
        2,
        "auto",
        1.0,
        8.5 * Math.pow(h, 0.61) * noise,
        100,
        1000,
        50.0,
        1.0,
        2.0,
        4.9 * Math.pow(h, 0.59),
        10,
        4.0,
        0.0,
        1.26 * Math.pow(h, 0.44),
        30.0 * noise,
        12,
        10,
        1.2,
        100,
        100,
        100,
        0,
        0,
        "0 0 0 / 0 0 0",
        0,
        50.0);
  }

  @Test
  void theFitRecoversAPowerLawOverTheFirstConfigurationsSeries() {
    List<BenchResult> rs =
        List.of(
            result("rpc", 10, 2, 1),
            result("rpc", 100, 2, 1),
            result("rpc", 1000, 2, 1),
            result("rpc", 100, 3, 7), // another series: left out of the fit
            result("inprocess", 50, 2, 7)); // another mode: left out too
    assertEquals(3, Growth.series(rs).size());
    Growth.Fit replan = Growth.fit(Growth.series(rs), Growth.REPLAN_P99);
    assertEquals(4.9, replan.a(), 1e-9);
    assertEquals(0.59, replan.b(), 1e-12);
    assertEquals(3, replan.points());
    assertEquals(4.9 * Math.pow(2000, 0.59), replan.at(2000), 1e-9);
    Growth.Fit grant = Growth.fit(Growth.series(rs), Growth.GRANT_P99);
    assertEquals(8.5, grant.a(), 1e-9);
    assertEquals(0.61, grant.b(), 1e-12);
    Growth.Fit heap = Growth.fit(Growth.series(rs), Growth.PEAK_HEAP);
    assertEquals(0.0, heap.b(), 1e-12, "a constant figure is flat");
    assertEquals("8.50 H^0.61", grant.formula());
  }

  @Test
  void noFitWithoutTwoDifferentHostCounts() {
    List<BenchResult> rs = List.of(result("rpc", 100, 2, 1), result("rpc", 100, 2, 1.5));
    assertNull(Growth.fit(rs, Growth.DRIVER_CPU));
    assertTrue(Growth.fits(rs).isEmpty());
    assertEquals("", CoordinatorReport.fitTable(rs));
    assertTrue(Growth.fits(List.of()).isEmpty());
  }

  @Test
  void aFigureThatIsNotPositiveIsLeftOutOfItsFit() {
    BenchResult zero =
        new BenchResult(
            "rpc", 1000, 2, 1, 100, 10, 3, 0, 2, "auto", 1, 0, 0, 0, 0, 1, 2, 1, 1, 4, 0, 1, 1, 1,
            1, 1, 1, 1, 100, 0, 0, "", 0, 50.0);
    List<BenchResult> rs = List.of(result("rpc", 10, 2, 1), result("rpc", 100, 2, 1), zero);
    Growth.Fit grant = Growth.fit(rs, Growth.GRANT_P99);
    assertEquals(2, grant.points(), "the run with a zero p99 has no logarithm");
    assertEquals(0.61, grant.b(), 1e-12);
  }

  @Test
  void theReportCarriesTheFitsAndLinksTheChart(@TempDir Path dir) throws Exception {
    List<BenchResult> rs =
        List.of(result("rpc", 10, 2, 1), result("rpc", 100, 2, 1), result("rpc", 100, 3, 1));
    Path report = dir.resolve("docs/scale.md");
    Path chart = dir.resolve("docs/images/scale.png");
    GrowthChart.write(chart, rs);
    CoordinatorReport.write(report, rs, "./wan-shuffle bench coordinator", "now", chart);
    String md = Files.readString(report);
    assertTrue(md.contains("| re-plan p99 (ms) | 4.90 | 0.59 | 2 |"), md);
    assertTrue(md.contains("| driver CPU (s) | 1.26 | 0.44 | 2 |"), md);
    assertTrue(md.contains("over the 2-site rpc configurations"), md);
    assertTrue(md.contains("](images/scale.png)"), md);
    int end = md.indexOf(CoordinatorReport.END);
    assertTrue(md.indexOf("](images/scale.png)") < end, "the link is inside the generated block");
    BufferedImage img = ImageIO.read(chart.toFile());
    assertEquals(GrowthChart.WIDTH, img.getWidth());
    assertEquals(80 + GrowthChart.PANEL_HEIGHT * Growth.COST.size(), img.getHeight());
  }
}
