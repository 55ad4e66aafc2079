package io.wanshuffle.spark.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.capture.CapturedEvents;
import io.wanshuffle.spark.capture.LinkChange;
import io.wanshuffle.spark.capture.LinkLoads;
import io.wanshuffle.spark.capture.PlanCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import io.wanshuffle.spark.capture.WanShuffleLinkChanged;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import io.wanshuffle.spark.topology.LinkModel;
import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.InMemoryStore;
import org.junit.jupiter.api.Test;

/** The tab's rows in a status store and the HTML of its two pages. */
class WanShuffleTabTest {
  private static final LinkModel LINKS = LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 100);

  static WanShuffleStepCompleted step(long id, long granted, long end) {
    return new WanShuffleStepCompleted(
        "app-1",
        id,
        1,
        List.of(new StepCapture.Grant("a1", "b1", 500), new StepCapture.Grant("a2", "b2", 300)),
        granted,
        granted + 5000,
        end,
        id == 2,
        800,
        0.5);
  }

  /** Stage 3.0: a1, a2 on site a send 500 and 300 bytes to b1, b2 on site b in steps 1 and 2. */
  static WanShuffleStageCaptured stage() {
    long[][] m = {{0, 0, 500, 0}, {0, 0, 0, 300}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    PlanCapture plan =
        new PlanCapture(
            1,
            900,
            "auto",
            List.of("a1", "a2"),
            List.of("b1", "b2"),
            ResidualBytes.ofDense(new long[][] {{500, 0}, {0, 300}}),
            100,
            2,
            0.05,
            List.of(
                new PlanCapture.PlannedStep(
                    5.0, new int[] {0, 1}, new int[] {0, 1}, new double[] {5.0, 3.0})),
            1000);
    StageCapture c =
        new StageCapture(
            "app-1",
            3,
            0,
            new int[] {1},
            "auto",
            2,
            100,
            200,
            List.of("a1", "a2", "b1", "b2"),
            m,
            m,
            900,
            9000,
            List.of(plan),
            List.of(step(1, 1000, 3000).toCapture(), step(2, 3000, 6500).toCapture()),
            List.of(),
            0,
            List.of(),
            List.of(),
            List.of(),
            null);
    c = c.withLinks(0.05, LinkLoads.of(LINKS, c));
    return new WanShuffleStageCaptured(
        c.appId(),
        c.stageId(),
        c.stageAttempt(),
        c.shuffleIds(),
        c.algorithm(),
        c.k(),
        c.hosts(),
        c.registeredBytes(),
        c.realisedBytes(),
        new long[] {1, 2},
        new long[] {1},
        c.firstDemandMs(),
        c.endMs(),
        null,
        c.bytesPerSecond(),
        c.backboneBytesPerSecond(),
        c.betaSeconds(),
        c.hostPaths(),
        c.links(),
        c.linkSeries(),
        plan,
        null);
  }

  private static ElementTrackingStore store() {
    return new ElementTrackingStore(new InMemoryStore(), new SparkConf(false));
  }

  /** The page's HTML parses as XML (no stray markup, every text escaped). */
  private static void wellFormed(String html) {
    scala.xml.XML.loadString(html);
  }

  @Test
  void theListenerKeepsTheEventsAndTheStorerJoinsThem() {
    ElementTrackingStore store = store();
    WanShuffleStatusListener l = new WanShuffleStatusListener(store);
    l.onOtherEvent(step(1, 1000, 3000));
    l.onOtherEvent(step(2, 3000, 6500));
    l.onOtherEvent(stage());
    l.onOtherEvent(new org.apache.spark.scheduler.SparkListenerLogStart("4.1.3"));
    CapturedEvents ev = WanShuffleStore.of(store);
    assertEquals(1, ev.stageCount());
    StageCapture c = ev.stages().get(0);
    assertEquals(List.of(1L, 2L), c.steps().stream().map(StepCapture::stepId).toList());
    assertTrue(c.hasLinks());
  }

  @Test
  void theExecutorHostsAreKeptAndListedMappedAndUnmapped() {
    ElementTrackingStore store = store();
    WanShuffleStatusListener l = new WanShuffleStatusListener(store);
    l.onOtherEvent(new WanShuffleTopologyHost("2", "x9", null));
    l.onOtherEvent(new WanShuffleTopologyHost("1", "a1", "/dcA/r1"));
    List<WanShuffleTopologyHost> hosts = WanShuffleStore.hosts(store);
    assertEquals(List.of("a1", "x9"), hosts.stream().map(WanShuffleTopologyHost::host).toList());
    String html = HostsSection.of(hosts);
    wellFormed(html);
    assertTrue(html.contains("The topology maps 1 of 2 executor hosts."), html);
    assertTrue(html.contains("id=\"wanshuffle-unmapped\""), html);
    assertTrue(html.contains("never gated): x9 (executor 2)</p>"), html);
    assertTrue(html.contains("<td>a1</td><td>/dcA/r1</td>"), html);
    assertEquals("", HostsSection.of(List.of()), "nothing recorded: no section");
    String allMapped = HostsSection.of(List.of(new WanShuffleTopologyHost("1", "a1", "/dcA/r1")));
    assertFalse(allMapped.contains("wanshuffle-unmapped"), allMapped);
    assertTrue(allMapped.contains("maps 1 of 1 executor host."), allMapped);
  }

  @Test
  void linkWindowsAndSharesAreKeptAndListedPerLinkOverTime() {
    ElementTrackingStore store = store();
    WanShuffleStatusListener l = new WanShuffleStatusListener(store);
    // 2026-01-01T00:00:01Z and 2.5 s later
    long t = 1_767_225_601_000L;
    l.onOtherEvent(
        new WanShuffleLinkChanged(
            "app-1",
            new LinkChange(t + 2500, "backbone.out[/a]", LinkChange.Kind.SHARE, 3, 1, 2, 2)));
    l.onOtherEvent(
        new WanShuffleLinkChanged(
            "app-1",
            new LinkChange(t + 1000, "backbone.in[/b]", LinkChange.Kind.SHARE, 2, 1, 2, 1)));
    l.onOtherEvent(
        new WanShuffleLinkChanged(
            "app-1", new LinkChange(t, "backbone.out[/a]", LinkChange.Kind.WINDOW, 3, 3, 2, -1)));
    List<LinkChange> changes = WanShuffleStore.of(store).linkChanges();
    assertEquals(List.of(t, t + 1000, t + 2500), changes.stream().map(LinkChange::timeMs).toList());
    String html = LinkWindowsSection.of(changes);
    wellFormed(html);
    assertTrue(html.contains("<h4>Link windows and shares</h4>"), html);
    assertTrue(html.contains("id=\"wanshuffle-link-changes\""), html);
    assertFalse(html.contains("wanshuffle-link-windows-none"), html);
    // per link, in time order: backbone.in[/b] first, then backbone.out[/a]'s window and share
    String in =
        "<tr><td>backbone.in[/b]</td><td>2026-01-01 00:00:02.000</td><td>share</td>"
            + "<td>2</td><td>1</td><td>2</td><td>1</td></tr>";
    String window =
        "<tr><td>backbone.out[/a]</td><td>2026-01-01 00:00:01.000</td><td>window</td>"
            + "<td>3</td><td>3</td><td>2</td><td>-</td></tr>";
    String share =
        "<tr><td>backbone.out[/a]</td><td>2026-01-01 00:00:03.500</td><td>share</td>"
            + "<td>3</td><td>1</td><td>2</td><td>2</td></tr>";
    assertTrue(html.indexOf(in) >= 0 && html.indexOf(in) < html.indexOf(window), html);
    assertTrue(html.indexOf(window) < html.indexOf(share), html);

    String none = LinkWindowsSection.of(List.of());
    wellFormed(none);
    assertTrue(
        none.contains(
            "<p id=\"wanshuffle-link-windows-none\">No change: every link at its capacity, no other"
                + " application on the backbone.</p>"),
        none);
  }

  @Test
  void pastTheLimitTheOldestStepsAreDropped() throws Exception {
    InMemoryStore kv = new InMemoryStore();
    ElementTrackingStore store = new ElementTrackingStore(kv, new SparkConf(false));
    WanShuffleStatusListener l = new WanShuffleStatusListener(store, 10);
    for (long id = 1; id <= 11; id++) {
      l.onOtherEvent(step(id, 1000 * id, 1000 * id + 500));
    }
    store.close(false); // waits for the triggered clean-up, keeps the rows
    List<Long> kept = new java.util.ArrayList<>();
    kv.view(StepRow.class).forEach(r -> kept.add(r.id));
    // 11 rows passed the limit of 10: the oldest 11 - 10 + 1 = 2 went
    assertEquals(List.of(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), kept);
  }

  @Test
  void theStagesPageListsEveryStageWithItsFiguresAndLinks() {
    CapturedEvents ev = new CapturedEvents();
    ev.add(step(1, 1000, 3000)).add(step(2, 3000, 6500)).add(stage());
    String html = StagesPage.content(ev, "/history/app-1");
    wellFormed(html);
    assertTrue(html.contains("href=\"/history/app-1/wanshuffle/stage/?id=3.0\""), html);
    assertTrue(html.contains("href=\"/history/app-1/stages/stage/?id=3&amp;attempt=0\""), html);
    assertTrue(html.contains("<td>2 x 2, 2</td>"), html);
    assertTrue(html.contains("<td>2 (1)</td>"), "2 steps, one closed by its deadline: " + html);
    // b1 receives 500 bytes at one flow of 100 B/s: 5 s on nic.down[b1]; the plan 5.05 s;
    // measured 1000 to 6500 ms
    assertTrue(html.contains("<td>nic.down[b1]: 1 / 1</td>"), html);
    assertTrue(html.contains("<td>5.00</td><td>5.05</td><td>5.50</td>"), html);
    assertFalse(html.contains("wanshuffle-older"), html);
  }

  @Test
  void theStagesPageSaysWhenNothingIsRecordedAndWhenAStageIsFromAnOlderVersion() {
    String empty = StagesPage.content(new CapturedEvents(), "");
    wellFormed(empty);
    assertTrue(empty.contains("wanshuffle-empty"), empty);
    CapturedEvents old = new CapturedEvents();
    WanShuffleStageCaptured s = stage();
    old.add(
        new WanShuffleStageCaptured(
            s.appId(),
            s.stageId(),
            s.stageAttempt(),
            s.shuffleIds(),
            s.algorithm(),
            s.k(),
            s.hosts(),
            s.registeredBytes(),
            s.realisedBytes(),
            s.stepIds(),
            s.planIds(),
            s.firstDemandMs(),
            s.endMs(),
            null,
            0,
            0,
            0,
            null,
            null,
            null,
            null,
            null));
    String html = StagesPage.content(old, "");
    wellFormed(html);
    assertTrue(html.contains("wanshuffle-older"), html);
    assertTrue(html.contains("<td>-</td><td>-</td><td>-</td>"), "no bound, plan or steps: " + html);
  }

  @Test
  void theStagePageHasTheFiguresLinksStepsPlanAndMatrix() {
    CapturedEvents ev = new CapturedEvents();
    ev.add(step(1, 1000, 3000)).add(step(2, 3000, 6500)).add(stage());
    String html = StagePage.content(ev.stages().get(0));
    wellFormed(html);
    for (String id :
        List.of(
            "wanshuffle-stage-figures",
            "wanshuffle-links",
            "wanshuffle-steps",
            "wanshuffle-plan",
            "wanshuffle-matrix")) {
      assertTrue(html.contains("id=\"" + id + "\""), id + ": " + html);
    }
    // step 2: granted 2 s after step 1, 3.5 s long, 800 bytes at 200 B/s: 114 %
    assertTrue(
        html.contains(
            "<td>2</td><td>1</td><td>2</td><td>2.00</td><td>3.50</td><td>5.00</td><td>yes</td>"),
        html);
    assertTrue(html.contains("<td>114 %</td>"), html);
    assertTrue(html.contains("<th>b1 (/b)</th>"), html);
    assertTrue(html.contains("<td>backbone.out[/a]</td><td>2</td>"), html);
  }

  @Test
  void theStagePageShowsTheNetworkWhenItWasMeasured() {
    CapturedEvents ev = new CapturedEvents();
    ev.add(step(1, 1000, 3000)).add(stage());
    io.wanshuffle.spark.capture.StageCapture c = ev.stages().get(0);
    assertTrue(!StagePage.content(c).contains("wanshuffle-network"), "nothing measured");
    String html =
        StagePage.content(
            c.withNetwork(
                new io.wanshuffle.spark.capture.NetworkFigures(
                    0.125,
                    java.util.Map.of("backbone.out[/a]", 2_500_000.0),
                    12,
                    3.0,
                    4.5,
                    3.25,
                    "gated",
                    0,
                    0,
                    Double.NaN)));
    wellFormed(html);
    assertTrue(html.contains("id=\"wanshuffle-network\""), html);
    assertTrue(html.contains("<td>gated</td>"), html);
    assertTrue(html.contains("<td>3.25</td>"), html);
    assertTrue(html.contains("<td>4.50</td>"), html);
    assertTrue(html.contains("over 12 flows</td><td>0.13</td>"), html);
    assertTrue(
        html.contains("<td>measured rate of backbone.out[/a] (MB/s)</td><td>2.5</td>"), html);
    assertTrue(!html.contains("planned with"), "not recorded: no row");
    String planned =
        StagePage.content(
            c.withNetwork(
                new io.wanshuffle.spark.capture.NetworkFigures(
                    0.125, java.util.Map.of(), 12, 3.0, 4.5, 3.25, "gated", 2, 12_500_000, 0.03)));
    assertTrue(planned.contains("β (s)</td><td>2, 12.5, 0.03</td>"), planned);
  }
}
