package io.wanshuffle.spark.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.junit.jupiter.api.Test;

/** The driver's check of the executor hosts: lenient (logged, listed) and strict (stopped). */
class HostCoverageTest {
  private static final Map<String, String> TABLE = Map.of("a1", "/dcA/r1", "b1", "/dcB/r1");

  private static HostCoverage coverage() {
    return new HostCoverage(h -> Optional.ofNullable(TABLE.get(h)), "topology table t.table");
  }

  /** Records what the listener does to the application. */
  private static final class FakeApplication implements HostCoverageListener.Application {
    final List<SparkListenerEvent> posted = new ArrayList<>();
    final List<String> stops = new ArrayList<>();

    @Override
    public void post(SparkListenerEvent e) {
      posted.add(e);
    }

    @Override
    public void stop(String reason) {
      stops.add(reason);
    }
  }

  @Test
  void eachHostIsRecordedOnceWithItsPathAndTheSummaryNamesTheUnmappedOnes() {
    HostCoverage c = coverage();
    assertTrue(c.see("b1").first());
    assertEquals(Optional.of("/dcB/r1"), c.see("b1").path());
    assertFalse(c.see("b1").first(), "seen before");
    assertFalse(c.see("x9").mapped());
    c.see("a1");
    c.see("h2");
    assertEquals(Set.of("a1", "b1"), c.mapped());
    assertEquals(List.of("h2", "x9"), List.copyOf(c.unmapped()));
    assertEquals(
        "the topology (topology table t.table) maps 2 of 4 executor hosts; not mapped: h2, x9"
            + " (their shuffle blocks are fetched at once, never gated)",
        c.summary());
    HostCoverage all = coverage();
    all.see("a1");
    assertEquals("the topology (topology table t.table) maps all 1 executor host", all.summary());
  }

  @Test
  void lenientAnUnmappedHostIsListedAndWarnedAboutButTheApplicationRuns() {
    FakeApplication app = new FakeApplication();
    HostCoverageListener l = new HostCoverageListener(coverage(), false, false, app);
    l.seen("1", "a1");
    l.seen("2", "x9");
    l.seen("3", "x9");
    assertEquals(
        List.of(
            new WanShuffleTopologyHost("1", "a1", "/dcA/r1"),
            new WanShuffleTopologyHost("2", "x9", null)),
        app.posted,
        "one event per host, the first executor's");
    assertEquals(List.of(), app.stops);
    assertEquals(Optional.empty(), l.violation());
    assertEquals(Set.of("x9"), l.coverage().unmapped());
  }

  @Test
  void strictAnUnmappedHostStopsTheApplicationOnceNamingTheHost() {
    FakeApplication app = new FakeApplication();
    HostCoverageListener l = new HostCoverageListener(coverage(), true, false, app);
    l.seen("1", "a1");
    assertEquals(List.of(), app.stops, "a mapped host is fine");
    l.seen("2", "x9");
    l.seen("3", "y7");
    assertEquals(1, app.stops.size(), "stopped once: " + app.stops);
    String error = app.stops.get(0);
    assertEquals(
        "executor host x9 (executor 2) is not in the topology (topology table t.table) and "
            + Settings.TOPOLOGY_STRICT.key()
            + " is true: stopping the application; map the host in the topology, or set "
            + Settings.TOPOLOGY_STRICT.key()
            + "=false to fetch its shuffle blocks ungated",
        error);
    assertEquals(Optional.of(error), l.violation());
    assertEquals(3, app.posted.size(), "every host is still listed");
  }

  @Test
  void theDriversBlockManagerIsAnExecutorHostOnlyInLocalMode() {
    FakeApplication cluster = new FakeApplication();
    new HostCoverageListener(coverage(), true, false, cluster).seen("driver", "gateway");
    assertEquals(List.of(), cluster.posted);
    assertEquals(List.of(), cluster.stops, "a driver outside the topology is fine");
    FakeApplication local = new FakeApplication();
    new HostCoverageListener(coverage(), true, true, local).seen("driver", "laptop");
    assertEquals(1, local.stops.size(), "in local mode the driver runs the tasks");
  }

  @Test
  void hostPortsAreSplitAsSparkWritesThem() {
    assertEquals("node7", HostCoverageListener.host("node7:40123"));
    assertEquals("10.0.0.7", HostCoverageListener.host("10.0.0.7:40123"));
    assertEquals("::1", HostCoverageListener.host("[::1]:40123"));
  }

  @Test
  void strictIsOffByDefault() {
    assertFalse(WanShuffleConf.from(new SparkConf(false)).get(Settings.TOPOLOGY_STRICT));
    assertTrue(
        WanShuffleConf.from(new SparkConf(false).set(Settings.TOPOLOGY_STRICT.key(), "TRUE"))
            .get(Settings.TOPOLOGY_STRICT));
  }
}
