package io.wanshuffle.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.capture.StageCapture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.io.CompressionCodec;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * The report on event logs as Spark writes them: a local[2] application with the wan-shuffle
 * shuffle manager and Spark's event logging (its default codec, each other codec, rolling, plain,
 * still in progress), and inputs that are not event logs.
 *
 * <p>In local mode every shuffle block is the driver's own, so no read crosses sites and no stage
 * is gated; the test posts two gated stages' events on Spark's listener bus as the plugin's capture
 * does ({@code CaptureListener}), and Spark's event logging writes them with the rest.
 */
class EventLogsTest {
  private static final String IN_PROGRESS =
      "in progress (the application is still running or did not end cleanly): what it logged so"
          + " far";

  @TempDir Path dir;

  /**
   * Runs a shuffle job with the wan-shuffle shuffle manager and Spark's event logging into {@code
   * <dir>/events}, posts two gated stages' events, then {@code whileRunning} (the application still
   * running) and stops.
   *
   * @return the event-log folder
   */
  private Path application(Map<String, String> settings, Consumer<Path> whileRunning)
      throws Exception {
    Path events = Files.createDirectories(dir.resolve("events"));
    Path table =
        Files.writeString(
            dir.resolve("topology.table"), "127.0.0.1 /A/rack0\nlocalhost /A/rack0\n");
    SparkConf conf =
        new SparkConf(false)
            .setMaster("local[2]")
            .setAppName("event-log-report")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.ui.enabled", "false")
            .set("spark.shuffle.manager", "io.wanshuffle.spark.WanShuffleManager")
            .set("spark.hadoop.net.topology.table.file.name", table.toString())
            .set("spark.eventLog.enabled", "true")
            .set("spark.eventLog.dir", events.toUri().toString());
    settings.forEach(conf::set);
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      List<Tuple2<Integer, Integer>> data = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        data.add(new Tuple2<>(i % 97, i));
      }
      assertEquals(97, sc.parallelizePairs(data, 4).reduceByKey(Integer::sum, 3).count());
      String app = sc.sc().applicationId();
      for (StageCapture s :
          List.of(ReportFixtures.stage(app, 3, true), ReportFixtures.stage(app, 5, true))) {
        for (SparkListenerEvent e : ReportFixtures.events(app, s)) {
          sc.sc().listenerBus().post(e);
        }
      }
      sc.sc().listenerBus().waitUntilEmpty(10_000);
      whileRunning.accept(events);
    }
    return events;
  }

  private static List<Path> list(Path folder) throws IOException {
    try (Stream<Path> s = Files.list(folder)) {
      return s.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
    }
  }

  /**
   * The application read from {@code path}: its name, both gated stages and their steps; while it
   * runs, a note that says so.
   */
  private static void assertTwoGatedStages(Path path, boolean running) throws IOException {
    EventLogs.Found found = EventLogs.read(path);
    assertEquals(List.of(), found.leftOut());
    assertEquals(1, found.applications().size());
    ApplicationCapture a = found.applications().get(0);
    assertEquals("event-log-report", a.appName());
    assertTrue(a.appId().startsWith("local-"), a.appId());
    assertEquals(List.of(3, 5), a.stages().stream().map(StageCapture::stageId).toList());
    assertEquals(2, a.stages().get(0).steps().size());
    assertEquals(a.appId(), a.stages().get(0).appId());
    assertEquals(
        running ? List.of(path + ": " + IN_PROGRESS) : List.of(),
        a.notes(),
        "nothing left out or cut short");
  }

  /** {@code report} on the event-log folder: exit 0, one page with two gated stages. */
  private void assertReportPage(Path events) throws IOException {
    Path page = dir.resolve("page.html");
    ReportRun r = ReportRun.of("--event-log", events.toString(), "--out", page.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals("", r.err());
    assertTrue(
        r.out().matches("report: \\Q" + page + "\\E \\(local-\\d+, 2 gated stages\\)\\R"), r.out());
    assertTrue(
        Files.readString(page).contains("<h2>Stage 5.0: auto, k = 2"), "the stage's section");
  }

  /** Reads {@code folder}'s one entry while the application runs; {@code name} matches it. */
  private static Consumer<Path> readWhileRunning(String name, List<Path> read) {
    return folder -> {
      try {
        Path log = list(folder).get(0);
        assertTrue(log.getFileName().toString().matches(name), log.toString());
        assertTwoGatedStages(log, true);
        read.add(log);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    };
  }

  @Test
  void sparksDefaultEventLogRollingAndZstdCompressedIsReadRunningAndFinished() throws Exception {
    List<Path> running = new ArrayList<>();
    Path events = application(Map.of(), readWhileRunning("eventlog_v2_local-\\d+", running));
    assertEquals(1, running.size(), "read while the application ran");
    Path rolling = list(events).get(0);
    assertEquals(
        List.of("appstatus_" + rolling.getFileName().toString().substring(12)),
        list(rolling).stream()
            .map(p -> p.getFileName().toString())
            .filter(n -> n.startsWith("appstatus_"))
            .toList(),
        "finished");
    assertTrue(
        list(rolling).stream()
            .anyMatch(p -> p.getFileName().toString().matches("events_1_local-\\d+\\.zstd")),
        list(rolling).toString());
    assertTwoGatedStages(rolling, false);
    assertReportPage(events);
  }

  @Test
  void aSingleFileEventLogIsReadRunningAndFinished() throws Exception {
    List<Path> running = new ArrayList<>();
    Path events =
        application(
            Map.of("spark.eventLog.rolling.enabled", "false"),
            readWhileRunning("local-\\d+\\.zstd\\.inprogress", running));
    assertEquals(1, running.size(), "read while the application ran");
    Path log = list(events).get(0);
    assertTrue(log.getFileName().toString().matches("local-\\d+\\.zstd"), log.toString());
    assertTwoGatedStages(log, false);
    assertReportPage(events);
  }

  @Test
  void everyCodecOfSparkAndAPlainLogAreRead() throws Exception {
    for (String codec : List.of("lz4", "lzf", "snappy")) {
      Path events =
          application(
              Map.of(
                  "spark.eventLog.rolling.enabled",
                  "false",
                  "spark.eventLog.compression.codec",
                  codec),
              f -> {});
      Path log = list(events).get(0);
      assertTrue(log.getFileName().toString().endsWith("." + codec), log.toString());
      assertTwoGatedStages(log, false);
      Files.delete(log);
    }
    Path events =
        application(
            Map.of("spark.eventLog.rolling.enabled", "false", "spark.eventLog.compress", "false"),
            f -> {});
    Path log = list(events).get(0);
    assertTrue(log.getFileName().toString().matches("local-\\d+"), log.toString());
    assertTwoGatedStages(log, false);
    assertEquals(List.of("lz4", "lzf", "snappy", "zstd"), EventLogs.codecs());
  }

  /**
   * {@code report} on {@code path}: exit 2, one stderr line {@code report: --event-log MESSAGE}.
   */
  private static void assertRefused(Path path, String message) {
    ReportRun r =
        ReportRun.of(
            "--event-log", path.toString(), "--out", path.resolveSibling("x.html").toString());
    assertEquals(2, r.status(), r.out() + r.err());
    assertEquals("", r.out());
    assertEquals("report: --event-log " + path + ": " + message + System.lineSeparator(), r.err());
    assertFalse(Files.exists(path.resolveSibling("x.html")));
  }

  @Test
  void inputThatIsNotAnEventLogIsRefusedWithOneLine() throws Exception {
    byte[] junk = new byte[4096];
    new Random(7).nextBytes(junk);
    Path text = Files.writeString(dir.resolve("notes"), "hello\nworld\n");
    assertRefused(text, "not a Spark event log (its first line is not a Spark event)");
    Path binary = Files.write(dir.resolve("app-1"), junk);
    assertRefused(binary, "not a Spark event log (its first line is not a Spark event)");
    Path empty = Files.write(dir.resolve("app-3"), new byte[0]);
    assertRefused(empty, "empty, not a Spark event log");
    for (String codec : List.of("lz4", "lzf", "snappy", "zstd")) {
      Path compressed = Files.write(dir.resolve("app-2." + codec), junk);
      assertRefused(
          compressed,
          "not a Spark event log (its data does not decode as "
              + codec
              + ", the codec its name gives, or it is cut short within its first block)");
      Path running = Files.write(dir.resolve("app-2." + codec + ".inprogress"), junk);
      assertRefused(
          running,
          "not a Spark event log (its data does not decode as "
              + codec
              + ", the codec its name gives, or it is cut short within its first block)");
    }
    Path txt = Files.write(dir.resolve("events.txt"), ReportFixtures.eventLog("app-5"));
    assertRefused(
        txt,
        "not a Spark event log (its name ends in .txt, none of Spark's compression codecs lz4,"
            + " lzf, snappy, zstd)");
    Path none = Files.createDirectories(dir.resolve("no-logs"));
    assertRefused(none, "no Spark event log here");
    Files.write(none.resolve("app-9"), junk);
    assertRefused(
        none,
        "no Spark event log here (1 files that are not, e.g. "
            + none.resolve("app-9")
            + ": not a Spark event log (its first line is not a Spark event) (left out))");
    Path rolling = Files.createDirectories(dir.resolve("eventlog_v2_app-7"));
    assertRefused(
        rolling,
        "not a Spark event log (a rolling event log's folder holds events_* files and an appstatus"
            + " file)");
  }

  /**
   * A compressed log cut in its last block (read while Spark writes it, or after a crash): the
   * blocks before the cut are read, and a note names the file and the last line read.
   */
  @Test
  void aCompressedLogCutShortIsReadUpToTheCutWithANote() throws Exception {
    StageCapture[] stages = new StageCapture[40];
    for (int i = 0; i < stages.length; i++) {
      stages[i] = ReportFixtures.stage("app-6", i + 1, true);
    }
    List<String> lines = ReportFixtures.eventLog("app-6", stages);
    for (String codec : EventLogs.codecs()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (OutputStream out =
          CompressionCodec.createCodec(new SparkConf(false), codec).compressedOutputStream(bytes)) {
        for (String line : lines) {
          out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
          out.flush(); // as Spark's event logging flushes after events
        }
      }
      byte[] all = bytes.toByteArray();
      Path cut =
          Files.write(
              dir.resolve("app-6." + codec + ".inprogress"),
              Arrays.copyOf(all, all.length * 3 / 4));
      ApplicationCapture a = EventLogs.read(cut).applications().get(0);
      assertEquals("app-6", a.appId(), codec);
      int read = a.stages().size();
      assertTrue(0 < read && read < stages.length, codec + ": " + read + " stages read");
      assertEquals(cut + ": " + IN_PROGRESS, a.notes().get(0), codec);
      // zstd's continuous stream ends at the last whole block: the lines before the cut; the
      // others' last block fails to decode, which a second note names
      for (String n : a.notes().subList(1, a.notes().size())) {
        assertTrue(n.matches("\\Q" + cut + "\\E: undecodable after line \\d+ .*"), n);
      }
    }
  }

  @Test
  void aFolderWithLogsAndOtherFilesGivesThePagesAndNamesTheOthers() throws Exception {
    Path events = Files.createDirectories(dir.resolve("events"));
    Files.write(
        events.resolve("app-1"),
        ReportFixtures.eventLog("app-1", ReportFixtures.stage("app-1", 3, true)));
    Files.writeString(events.resolve("README"), "spark event logs\n");
    Path out = dir.resolve("r.html");
    ReportRun r = ReportRun.of("--event-log", events.toString(), "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(
        "note: "
            + events.resolve("README")
            + ": not a Spark event log (its first line is not a Spark event) (left out)"
            + System.lineSeparator()
            + "report: "
            + out
            + " (app-1, 1 gated stages)"
            + System.lineSeparator(),
        r.out());
    assertTrue(Files.isRegularFile(out));
  }
}
