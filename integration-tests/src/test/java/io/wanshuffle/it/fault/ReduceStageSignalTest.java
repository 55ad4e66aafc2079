package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/** The listener in a local Spark: it signals the stages that read shuffle data, and only those. */
class ReduceStageSignalTest {
  @TempDir Path dir;

  @Test
  void aShuffleReadingStageIsSignalledWithItsSubmissionTime() throws Exception {
    Path signal = dir.resolve("app.signal");
    SparkConf conf =
        new SparkConf()
            .setMaster("local[2]")
            .setAppName("signal")
            .set("spark.ui.enabled", "false")
            .set("spark.extraListeners", ReduceStageSignal.class.getName())
            .set(ReduceStageSignal.FILE_KEY, signal.toString());
    long before = System.currentTimeMillis();
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      assertEquals(10, sc.parallelize(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 2).count());
      ReduceStageSignal.mark(Map.of(ReduceStageSignal.FILE_KEY, signal.toString()), "begin");
      List<Tuple2<Integer, Integer>> sums =
          sc.parallelize(List.of(1, 2, 3, 4, 5, 6), 3)
              .mapToPair(x -> new Tuple2<>(x % 2, x))
              .reduceByKey(Integer::sum, 2)
              .collect();
      assertEquals(2, sums.size());
      ReduceStageSignal.mark(Map.of(ReduceStageSignal.FILE_KEY, signal.toString()), "end");
      sc.sc().listenerBus().waitUntilEmpty(10_000);
    }
    ReduceStageSignal.mark(Map.of(), "end"); // no signal file named: nothing written
    List<String[]> lines = Files.readAllLines(signal).stream().map(l -> l.split(" ")).toList();
    assertEquals(
        List.of("listening", "begin", "reduce", "end"),
        lines.stream().map(l -> l[0]).toList(),
        "one stage read shuffle data: " + Files.readString(signal));
    String[] reduce = lines.get(2);
    long at = Long.parseLong(reduce[1]);
    assertTrue(
        at >= Long.parseLong(lines.get(1)[1]) && at <= Long.parseLong(lines.get(3)[1]),
        "submitted between the marks: " + Files.readString(signal));
    assertTrue(Long.parseLong(lines.get(0)[1]) >= before);
    assertEquals("2", reduce[2], "stage 0: count; 1: the map side; 2: the reduce side");
    assertEquals("0", reduce[3]);
  }
}
