package io.wanshuffle.it.app;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The Spark application of the per-line smoke tests ({@code wan-shuffle run-app --spark-version}):
 * in one application, the shuffles users run most, each over every reduce partition from both
 * clusters:
 *
 * <ol>
 *   <li>{@code reduceByKey} (map-side combine, the reader's aggregator path);
 *   <li>{@code groupByKey} (no map-side combine);
 *   <li>a Spark SQL join of two generated tables and an aggregation by group, with adaptive query
 *       execution on and broadcast joins off (two shuffled inputs, then the aggregation's shuffle,
 *       partitions coalesced by AQE).
 * </ol>
 *
 * <p>It uses only APIs whose Java signatures are the same in Spark 3.5 to 4.2 ({@code
 * JavaSparkContext}, {@code SparkSession.sql}), so the one jar runs on every line. Its stdout
 * depends only on the arguments: per part its row count and the SHA-256 of its sorted rows, and the
 * SQL answer itself (a few rows); the same with any shuffle manager.
 *
 * <p>Arguments (optional): records (default 200,000), partitions (default 8).
 */
public final class LineSmoke {
  private LineSmoke() {}

  /**
   * Runs the three parts and prints their answers.
   *
   * @param args records, partitions (each optional, positive integers)
   * @throws IllegalArgumentException if an argument is not a positive integer
   */
  public static void main(String[] args) {
    int records = args.length > 0 ? positive(args[0], "records") : 200_000;
    int partitions = args.length > 1 ? positive(args[1], "partitions") : 8;
    SparkSession spark =
        SparkSession.builder()
            .appName("line-smoke")
            .config("spark.sql.adaptive.enabled", "true")
            .config("spark.sql.autoBroadcastJoinThreshold", "-1")
            .config("spark.sql.shuffle.partitions", Integer.toString(partitions))
            .getOrCreate();
    try {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      List<Integer> slices = new ArrayList<>();
      for (int i = 0; i < partitions; i++) {
        slices.add(i);
      }
      JavaPairRDD<Integer, Long> pairs =
          sc.parallelize(slices, partitions)
              .flatMapToPair(
                  slice -> {
                    List<Tuple2<Integer, Long>> out = new ArrayList<>();
                    for (long r = slice; r < records; r += partitions) {
                      out.add(new Tuple2<>((int) (r * 7919 % 997), r));
                    }
                    return out.iterator();
                  });
      print(
          "reduceByKey",
          pairs.reduceByKey(Long::sum, partitions).map(t -> t._1() + " " + t._2()).collect());
      print(
          "groupByKey",
          pairs
              .groupByKey(partitions)
              .map(
                  t -> {
                    long n = 0;
                    long sum = 0;
                    long max = Long.MIN_VALUE;
                    for (long v : t._2()) {
                      n++;
                      sum += v;
                      max = Math.max(max, v);
                    }
                    return t._1() + " " + n + " " + sum + " " + max;
                  })
              .collect());
      String query =
          "SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS amount, MAX(o.id) AS last"
              + " FROM (SELECT id, id % 5003 AS customer, (id * 31) % 1000 AS amount FROM range(0, "
              + records
              + ", 1, "
              + partitions
              + ")) o JOIN (SELECT id AS customer, CONCAT('region-', id % 7) AS region FROM"
              + " range(0, 5003, 1, "
              + partitions
              + ")) c ON o.customer = c.customer GROUP BY c.region ORDER BY c.region";
      List<String> rows = new ArrayList<>();
      for (Row r : spark.sql(query).collectAsList()) {
        rows.add(r.getString(0) + " " + r.getLong(1) + " " + r.getLong(2) + " " + r.getLong(3));
      }
      print("sql", rows);
      rows.forEach(r -> System.out.println("sql " + r));
    } finally {
      spark.stop();
    }
  }

  /** Prints the {@link #summary} of a part. */
  private static void print(String part, List<String> rows) {
    System.out.println(summary(part, rows));
  }

  /**
   * A part's line of stdout: {@code <part> rows <n> sha256 <hex>}, the hash over the rows sorted as
   * strings, each followed by a newline (UTF-8).
   */
  static String summary(String part, List<String> rows) {
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (String r : sorted) {
        md.update((r + "\n").getBytes(StandardCharsets.UTF_8));
      }
      return part + " rows " + sorted.size() + " sha256 " + HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int positive(String s, String what) {
    try {
      int v = Integer.parseInt(s);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + " must be a positive integer, got '" + s + "'");
  }
}
