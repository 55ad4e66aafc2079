package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

class EventLogTest {
  @TempDir Path dir;

  /**
   * Spark's own event log of a local application with one shuffle: the format of the Spark this
   * project runs.
   */
  @Test
  void readsTheStagesAndShuffleMetricsOfARealEventLog() throws IOException {
    Path events = Files.createDirectories(dir.resolve("events"));
    SparkConf conf =
        new SparkConf()
            .setMaster("local[2]")
            .setAppName("event-log-test")
            .set("spark.ui.enabled", "false")
            .set("spark.eventLog.enabled", "true")
            .set("spark.eventLog.dir", events.toUri().toString())
            .set("spark.eventLog.compress", "false");
    long before = System.currentTimeMillis();
    long count;
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      List<Integer> xs = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        xs.add(i);
      }
      count =
          sc.parallelize(xs, 4)
              .mapToPair(i -> new Tuple2<>(i % 7, 1L))
              .reduceByKey(Long::sum, 3)
              .count();
    }
    long after = System.currentTimeMillis();
    assertEquals(7, count);
    Path file;
    try (var files = Files.list(events)) {
      file = files.findFirst().orElseThrow();
    }
    EventLog log = EventLog.read(file);
    assertEquals("event-log-test", log.appName());
    assertTrue(log.appId() != null && log.appId().startsWith("local-"), log.appId());
    assertTrue(
        before <= log.startMs() && log.startMs() <= log.endMs() && log.endMs() <= after,
        before + " " + log.startMs() + " " + log.endMs() + " " + after);
    assertEquals(2, log.stages().size(), log.stages().toString());
    StageRun map = log.stages().get(0);
    StageRun reduce = log.stages().get(1);
    assertEquals(4, map.tasks());
    assertEquals(3, reduce.tasks());
    assertTrue(map.shuffleBytesWritten() > 0 && !map.readsShuffle(), map.toString());
    // local mode: every block is read from the executor's own map output
    assertEquals(
        map.shuffleBytesWritten(),
        reduce.localBytesRead() + reduce.remoteBytesRead(),
        reduce.toString());
    assertEquals(List.of(reduce), log.shuffleReadStages());
    assertTrue(reduce.name().startsWith("count at "), reduce.name());
    assertTrue(
        map.submittedMs() <= map.completedMs()
            && map.completedMs() <= reduce.submittedMs()
            && reduce.submittedMs() <= reduce.completedMs(),
        log.stages().toString());
    assertEquals((reduce.completedMs() - reduce.submittedMs()) / 1000.0, reduce.seconds(), 1e-9);
    assertNull(reduce.failureReason());
    assertEquals(0, reduce.failedTasks());
  }

  @Test
  void aLastLineCutShortByACrashIsIgnoredButABrokenLineBeforeItIsAnError() throws IOException {
    String start =
        "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"app-1\","
            + "\"Timestamp\":1000}";
    String submitted =
        "{\"Event\":\"SparkListenerStageSubmitted\",\"Stage Info\":{\"Stage ID\":3,"
            + "\"Stage Attempt ID\":1,\"Stage Name\":\"collect at X.java:9\",\"Number of Tasks\":2,"
            + "\"Submission Time\":1500}}";
    String failedTask =
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":3,\"Stage Attempt ID\":1,"
            + "\"Task End Reason\":{\"Reason\":\"ExceptionFailure\"},\"Task Metrics\":{\"Shuffle Read Metrics\":"
            + "{\"Remote Bytes Read\":99}}}";
    String task =
        "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":3,\"Stage Attempt ID\":1,"
            + "\"Task End Reason\":{\"Reason\":\"Success\"},\"Task Metrics\":{\"Shuffle Read Metrics\":"
            + "{\"Remote Bytes Read\":10,\"Local Bytes Read\":5,\"Fetch Wait Time\":7}}}";
    Path cut = dir.resolve("cut");
    Files.writeString(
        cut, String.join("\n", start, submitted, failedTask, task, "{\"Event\":\"SparkListenerSt"));
    EventLog log = EventLog.read(cut);
    assertEquals("app-1", log.appId());
    assertEquals(0, log.endMs(), "the driver died: no application end");
    StageRun s = log.stages().get(0);
    assertEquals("3.1", s.label());
    assertEquals(10, s.remoteBytesRead(), "a failed task's metrics are not the stage's");
    assertEquals(5, s.localBytesRead());
    assertEquals(7, s.fetchWaitMs());
    assertEquals(1, s.failedTasks());
    assertEquals(0, s.seconds(), "never completed");
    Path broken = dir.resolve("broken");
    Files.writeString(broken, String.join("\n", start, "not json", task));
    IOException e = assertThrows(IOException.class, () -> EventLog.read(broken));
    assertTrue(
        e.getMessage().contains("line 2") && e.getMessage().contains("broken"), e.getMessage());
  }
}
