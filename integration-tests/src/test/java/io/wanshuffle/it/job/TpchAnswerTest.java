package io.wanshuffle.it.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** The demo query's answer without Spark is the query's answer under Spark's sort shuffle. */
class TpchAnswerTest {
  @Test
  void theAnswerWithoutSparkIsTheSortShufflesAnswer() {
    double scale = 0.002;
    int mapParts = 3;
    SparkConf conf =
        new SparkConf()
            .setMaster("local[2]")
            .setAppName("tpch-answer")
            .set("spark.ui.enabled", "false")
            .set("spark.shuffle.manager", "sort")
            .set("spark.locality.wait", "0");
    List<String> spark;
    try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
      spark =
          TpchJoinQuery.answer(
              TpchJoinQuery.build(jsc, scale, mapParts, 2, List.of("a"), List.of("b")).collect());
    }
    List<String> expected = TpchAnswer.of(scale, mapParts);
    assertEquals(35, expected.size(), "5 order priorities x 7 ship modes");
    assertEquals(expected, spark);
    assertEquals(expected, TpchAnswer.of(scale, 1), "the parts only split the tables");
  }
}
