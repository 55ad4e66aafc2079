package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FillTargetsTest {
  private static final String LINK = "backbone.out[/A]";

  /** A cell of three runs at the given times, retransmissions and phase utilisation. */
  static FillCell cell(
      String testbed,
      int load,
      String pattern,
      int rtt,
      String variant,
      double retrans,
      Double phase,
      double limit,
      double... seconds) {
    List<Comparison.Figures> runs = new ArrayList<>();
    List<LinkRun> links = new ArrayList<>();
    for (double t : seconds) {
      runs.add(new Comparison.Figures(variant, t, 0, 0, 0, 0, 0, 0, 1, retrans));
      links.add(new LinkRun(Map.of(), new TopologyLinks.Limit(limit, LINK), List.of(LINK)));
    }
    List<Double> zeros = Collections.nCopies(seconds.length, 0.0);
    E2eReport.Cell c =
        new E2eReport.Cell(testbed, pattern, rtt, variant, runs, zeros, List.of(), links);
    return new FillCell(
        c,
        load,
        Collections.nCopies(seconds.length, LINK),
        Collections.nCopies(seconds.length, phase));
  }

  private static Map<String, String> outcomes(List<FillTargets.Check> checks) {
    return checks.stream()
        .collect(
            Collectors.toMap(
                k ->
                    k.cell().cell().testbed()
                        + " "
                        + k.cell().cell().pattern()
                        + "@"
                        + k.cell().cell().rtt()
                        + " "
                        + k.cell().cell().variant()
                        + ": "
                        + k.target(),
                k -> k.figure() + " " + k.outcome().name(),
                (a, b) -> a + "; " + b,
                java.util.TreeMap::new));
  }

  @Test
  void eachTargetIsCheckedOnTheCellsItNames() {
    List<FillCell> cells =
        List.of(
            cell("", 0, "zipf", 0, "default", 3.0, 0.70, 6.0, 8.0, 8.2, 7.9),
            cell("", 0, "zipf", 0, "auto", 0.4, 0.95, 6.0, 6.5, 6.7, 6.6),
            cell("", 0, "zipf", 0, "auto/capacity", 0.1, 0.85, 6.0, 7.0, 7.1, 7.2),
            cell("", 0, "zipf", 0, "auto-rackblind/measured", 0.1, 0.9, 6.0, 6.8, 6.75, 6.7),
            cell("", 0, "uniform", 40, "default", 9.0, 0.80, 6.0, 7.0, 7.2, 7.1),
            cell("", 0, "uniform", 40, "auto", 1.5, 0.91, 6.0, 7.3, 7.2, 7.25),
            cell("", 2, "uniform", 40, "default", 9.0, 0.80, 6.0, 7.0, 7.2, 7.1),
            cell("", 2, "uniform", 40, "auto", 1.5, 0.91, 6.0, 7.1, 7.2, 7.15));
    assertEquals(
        Map.of(
            " zipf@0 auto: at most 2 % slower than default", "-17.5 % MET",
            " zipf@0 auto: bottleneck used >= 92 % over its transfer phase",
                "95 % backbone.out[/A] MET",
            " zipf@0 auto: TCP retransmissions <= 1 %", "0.40 % MET",
            " zipf@0 auto: at least 10 % faster than default", "-17.5 % MET",
            " zipf@0 auto: <= 1.10 x the generalised physical limit", "1.10 x MET",
            " zipf@0 auto-rackblind/measured: within 3 % of auto (the testbed's rates typed in)",
                "+2.3 % MET",
            " uniform@40 auto: at most 2 % slower than default", "+2.1 % NOT_MET",
            " uniform@40 auto: bottleneck used >= 92 % over its transfer phase",
                "91 % backbone.out[/A] NOT_MET",
            " uniform@40 auto: TCP retransmissions <= 1 %", "1.50 % NOT_MET"),
        outcomes(FillTargets.check(cells.stream().filter(f -> f.load() == 0).toList())),
        "uniform at 40 ms has no gain to reach, RTT 0 alone a limit ratio");
    List<FillTargets.Check> loaded =
        FillTargets.check(cells.stream().filter(f -> f.load() == 2).toList());
    assertEquals(1, loaded.size(), "loaded: the 2 % alone");
    assertEquals("+0.7 %", loaded.get(0).figure());
    assertEquals(FillTargets.Outcome.MET, loaded.get(0).outcome());
  }

  @Test
  void whatWasNotMeasuredIsNeitherMetNorMissed() {
    List<FillTargets.Check> checks =
        FillTargets.check(
            List.of(
                cell("", 0, "trace", 40, "auto", -1, null, 0, 6.0, 6.1),
                cell("", 0, "trace", 40, "oggp-rackblind/measured", -1, null, 0, 6.0, 6.1)));
    assertEquals(5, checks.size());
    assertTrue(
        checks.stream().allMatch(k -> k.outcome() == FillTargets.Outcome.NOT_MEASURED),
        checks.toString());
    assertTrue(
        checks.stream()
            .anyMatch(k -> k.target().equals("within 3 % of oggp (the testbed's rates typed in)")),
        checks.toString());
  }

  @Test
  void onTheLoopbackTestbedNoTimeIsHeldToATarget() {
    FillCell dflt = cell("", 0, "zipf", 0, "default", -1, null, 6.0, 8.0, 8.2);
    FillCell auto = cell("", 0, "zipf", 0, "auto", -1, null, 6.0, 9.0, 9.2);
    List<Comparison.Figures> unshaped =
        auto.cell().runs().stream()
            .map(r -> new Comparison.Figures("auto", r.reduceSeconds(), 0, 0, 0, -1, -1, -1, 1, -1))
            .toList();
    E2eReport.Cell c = auto.cell();
    FillCell loopback =
        new FillCell(
            new E2eReport.Cell(
                c.testbed(),
                c.pattern(),
                c.rtt(),
                c.variant(),
                unshaped,
                c.setupSeconds(),
                c.stalls(),
                c.links()),
            0,
            auto.bottlenecks(),
            auto.phaseUtilisation());
    List<FillTargets.Check> checks = FillTargets.check(List.of(dflt, loopback));
    assertEquals(5, checks.size());
    assertTrue(
        checks.stream().allMatch(k -> k.outcome() == FillTargets.Outcome.NOT_MEASURED),
        checks.toString());
    assertEquals("+12.3 % (not shaped)", checks.get(0).figure(), "the figure is still shown");
  }

  @Test
  void theReportGivesEveryCellAndEveryCheck() {
    List<FillCell> cells =
        List.of(
            cell("3 + 3 hosts", 0, "zipf", 0, "default", 3.0, 0.70, 6.0, 8.0, 8.2, 7.9),
            cell("3 + 3 hosts", 0, "zipf", 0, "auto", 0.4, 0.95, 6.0, 6.5, 6.7, 6.6),
            cell("3 + 3 hosts", 0, "zipf", 0, "auto/capacity", 0.1, 0.85, 6.0, 7.0, 7.1, 7.2));
    String md = FillReport.markdown(cells);
    String auto =
        md.lines()
            .filter(l -> l.startsWith("| 3 + 3 hosts | zipf | 0 | auto |"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        "| 3 + 3 hosts | zipf | 0 | auto | 6.60 (6.50-6.70) | -17.5 % faster | -7.0 % faster |"
            + " backbone.out[/A] | 95 % | 0.40 | 1.10 |",
        auto);
    assertTrue(
        md.contains(
            "| 3 + 3 hosts | zipf | 0 | auto | TCP retransmissions <= 1 % | 0.40 % | met |"),
        md);
    assertTrue(md.contains("\n5 checks: 5 met, 0 not met, 0 not measured.\n"), md);
    assertEquals("", FillReport.markdown(List.of()));
  }
}
