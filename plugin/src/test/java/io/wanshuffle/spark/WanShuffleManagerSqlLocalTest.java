package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark SQL with adaptive execution (coalesced partitions: batch fetch of contiguous blocks, the
 * 7-argument getReader) gives row-for-row the results of Spark's sort shuffle.
 */
class WanShuffleManagerSqlLocalTest {
  @TempDir Path dir;

  private List<String> run(String manager) throws IOException {
    Path table = Files.writeString(dir.resolve("t.table"), "127.0.0.1 /siteA/rack1\n");
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("wan-shuffle-sql")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.shuffle.manager", manager)
            .config("spark.sql.adaptive.enabled", "true")
            .config("spark.sql.adaptive.coalescePartitions.enabled", "true")
            .config("spark.sql.shuffle.partitions", "16")
            .config("spark.sql.autoBroadcastJoinThreshold", "-1")
            .config(Settings.ALGORITHM.key(), "oggp")
            .config(ClusterTopology.TABLE_KEY, table.toString())
            .getOrCreate();
    try {
      spark
          .range(0, 50_000)
          .selectExpr("id", "id % 313 AS k", "id * 3 % 1000 AS v")
          .createOrReplaceTempView("facts");
      spark
          .range(0, 313)
          .selectExpr("id AS k", "concat('name', id % 17) AS name")
          .createOrReplaceTempView("dims");
      List<Row> rows =
          spark
              .sql(
                  "SELECT d.name, count(*) AS n, sum(f.v) AS s, max(f.id) AS m "
                      + "FROM facts f JOIN dims d ON f.k = d.k GROUP BY d.name ORDER BY d.name")
              .collectAsList();
      List<String> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(r.toString());
      }
      return out;
    } finally {
      spark.stop();
    }
  }

  @Test
  void sqlJoinAndAggregationWithAqeEqualSortShuffle() throws IOException {
    List<String> expected = run("sort");
    List<String> actual = run(WanShuffleManager.class.getName());
    assertEquals(17, expected.size());
    assertTrue(expected.get(0).startsWith("[name0,"));
    assertEquals(expected, actual);
  }
}
