package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * An application whose last stage reads across sites and that stops right after its action: the
 * stage's {@link WanShuffleStageCaptured} is in the event log Spark wrote.
 */
class CaptureEventLogLocalTest {
  @TempDir Path dir;

  /** The stage the gated task ran in, as the task saw it (local mode: the same JVM). */
  static final AtomicInteger GATED_STAGE = new AtomicInteger(-1);

  /**
   * Holds up the listener bus's shared queue at each stage completion, as a busy driver does: the
   * coordinator, behind it in the queue, learns that the last stage completed only once the
   * application is already stopping.
   */
  public static final class SlowStageCompletions extends SparkListener {
    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
      try {
        Thread.sleep(1500);
      } catch (InterruptedException x) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The reduce task's cross-site read as its gated reader does it over Spark RPC: local mode keeps
   * every block on one host, so the task registers a demand of 1000 bytes from hostA (site A) to
   * hostB (site B) for its own stage, is granted a step and reports it fetched.
   */
  static Iterator<Long> readAcrossSites(Iterator<Tuple2<Integer, Integer>> records)
      throws Exception {
    long n = 0;
    while (records.hasNext()) {
      records.next();
      n++;
    }
    TaskContext task = TaskContext.get();
    GATED_STAGE.set(task.stageId());
    SparkEnv env = SparkEnv.get();
    CoordinatorChannel ch =
        new CoordinatorChannel(env.conf(), env.rpcEnv(), WanShuffleConf.from(env.conf()));
    Registered r =
        ch.register(
                new RegisterDemand(
                    task.stageId(),
                    task.stageAttemptNumber(),
                    0,
                    task.taskAttemptId(),
                    env.executorId(),
                    "hostB",
                    new String[] {"hostA"},
                    new long[] {1000}))
            .get(30, TimeUnit.SECONDS);
    GrantReply g = ch.await(AwaitGrant.poll(r.demandId())).get(30, TimeUnit.SECONDS);
    assertEquals(GrantReply.Status.GRANT, g.status());
    GrantReply done = CoordinatorCalls.reportFetched(ch, r.demandId(), g, "hostA", 1000, 30);
    assertEquals(GrantReply.Status.FINISHED, done.status());
    return List.of(n).iterator();
  }

  @Test
  void theLastGatedStagesEventReachesTheEventLogOfAnApplicationThatStopsAtOnce() throws Exception {
    Path table =
        Files.writeString(
            dir.resolve("topology.table"),
            "127.0.0.1 /siteA/rack1\nlocalhost /siteA/rack1\nhostA /siteA/rack1\nhostB"
                + " /siteB/rack1\n");
    Path events = Files.createDirectories(dir.resolve("events"));
    SparkConf conf =
        new SparkConf(false)
            .setMaster("local[2]")
            .setAppName("capture-event-log-test")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.ui.enabled", "false")
            .set("spark.shuffle.manager", WanShuffleManager.class.getName())
            .set("spark.plugins", WanShufflePlugin.class.getName())
            .set("spark.eventLog.enabled", "true")
            .set("spark.eventLog.dir", events.toUri().toString())
            .set("spark.eventLog.compress", "false")
            .set(ClusterTopology.TABLE_KEY, table.toString())
            .set(Settings.ALGORITHM.key(), "oggp")
            .set(Settings.GATHER_WINDOW.key(), "0ms");
    List<Tuple2<Integer, Integer>> data = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      data.add(new Tuple2<>(i % 10, i));
    }
    long rows;
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.sc().addSparkListener(new SlowStageCompletions());
      rows =
          sc.parallelizePairs(data, 2)
              .reduceByKey(Integer::sum, 1)
              .mapPartitions(CaptureEventLogLocalTest::readAcrossSites)
              .reduce(Long::sum);
    } // stops right after the action
    assertEquals(10, rows);
    // plain, or rolling (a folder of event files); not the checksums of Hadoop's local file system
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.walk(events)) {
      for (Path f :
          files
              .filter(f -> Files.isRegularFile(f) && !f.getFileName().toString().startsWith("."))
              .sorted()
              .toList()) {
        lines.addAll(Files.readAllLines(f));
      }
    }
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> captured = new ArrayList<>();
    for (String line : lines) {
      JsonNode e = json.readTree(line);
      if (WanShuffleStageCaptured.class.getName().equals(e.path("Event").asText())) {
        captured.add(e);
      }
    }
    assertEquals(1, captured.size(), "one gated stage, one event: " + captured);
    JsonNode stage = captured.get(0);
    assertEquals(GATED_STAGE.get(), stage.path("stageId").asInt(), stage.toString());
    assertEquals(List.of("hostA", "hostB"), hosts(stage), stage.toString());
    long registered = 0;
    for (JsonNode row : stage.path("registeredBytes")) {
      for (JsonNode v : row) {
        registered += v.asLong();
      }
    }
    assertEquals(1000, registered, "the transfer matrix of the stage: " + stage);
    assertTrue(stage.path("stepIds").size() == 1, stage.toString());
  }

  private static List<String> hosts(JsonNode stage) {
    List<String> out = new ArrayList<>();
    stage.path("hosts").forEach(h -> out.add(h.asText()));
    return out;
  }
}
