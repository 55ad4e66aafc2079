package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AppReportTest {
  private static AppFigures run(
      String variant, int n, String failure, String sha, int k, int aToB, int bToA) {
    StageRun reduce =
        new StageRun(
            1,
            0,
            "collect at Job.java:9",
            6,
            10_000,
            12_500,
            null,
            0,
            30_000_000,
            5_000_000,
            900,
            0);
    EventLog log = new EventLog("app-" + n, "job", 9_000, 13_000, List.of(reduce));
    return new AppFigures(
        variant,
        n,
        failure,
        failure == null ? log : null,
        4.2,
        30_500_000,
        100_000,
        190e6,
        0.5,
        k == 0 ? 0 : 12,
        k,
        aToB,
        bToA,
        sha);
  }

  @Test
  void eachRunIsComparedWithTheFirstAndAFailedRunNeverCountsAsTheSame() {
    List<AppFigures> runs =
        List.of(
            run("default", 1, null, "aa", 0, 0, 0),
            run("auto", 1, null, "aa", 2, 2, 1),
            run("auto", 2, null, "bb", 2, 2, 0),
            run("oggp", 1, "exit 1: x.Boom: a|b", "aa", 2, 0, 0));
    assertEquals(List.of(true, true, false, false), AppReport.sameOutputAsFirst(runs));
    String md = AppReport.markdown("# t", runs);
    assertTrue(
        md.contains(
            "| 2 | auto | ok | 4.20 | 2.50 | 30.0 | 30.5 / 0.1 | 190.0 | 0.50 % | 12 | 2 / 1 (2) |"
                + " same as run 1 |"),
        md);
    assertTrue(md.contains("| 3 | auto | ok |") && md.contains("DIFFERS from run 1"), md);
    assertTrue(
        md.contains("| 4 | oggp | FAILED: exit 1: x.Boom: a\\|b |"),
        md + " (a | in the reason is escaped)");
    assertTrue(
        md.contains(
            "| 1 | default | ok | 4.20 | 2.50 | 30.0 | 30.5 / 0.1 | 190.0 | 0.50 % | - | - |"
                + " reference |"),
        md);
    // the stage table: one row per shuffle-reading stage, a column per run, "-" for a run without
    // an event log
    assertTrue(md.contains("| 1 | collect at Job.java:9 | 2.50 | 2.50 | 2.50 | - |"), md);
  }

  @Test
  void gatedFlowsAboveKAreFlagged() {
    AppFigures over = run("auto", 1, null, "aa", 2, 3, 1);
    assertTrue(!over.withinK());
    assertTrue(AppReport.markdown("", List.of(over)).contains("3 / 1 (2) ABOVE k"));
    assertTrue(run("default", 1, null, "aa", 0, 0, 0).withinK(), "no plugin: nothing to bound");
  }
}
