package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import scala.Tuple2;

/**
 * The shuffle jobs of the end-to-end tests, each returning its result as rows of text in a
 * deterministic order, so two runs (Spark's {@code sort} shuffle manager and wan-shuffle) can be
 * compared row by row, and each with a plain-Java oracle computing the same rows without Spark. RDD
 * jobs generate data in map tasks pinned to {@link JobLayout#mapHosts()} and read the shuffle in
 * tasks pinned to {@link JobLayout#reduceHosts()} ({@link Placement}); the SQL job lets Spark place
 * its tasks.
 */
public final class ShuffleJobs {
  private ShuffleJobs() {}

  /** Key range of the aggregation jobs. */
  static final long KEYS = 4096;

  /** Payload length of groupByKey and sortByKey records (characters). */
  static final int PAYLOAD = 64;

  private static JavaPairRDD<Long, TestData.Rec> generate(
      JavaSparkContext jsc, JobLayout l, long seed, long keys, int payload) {
    int n = l.recordsPerMap();
    return Placement.seeds(jsc, l.maps(), l.mapHosts())
        .flatMapToPair(
            m ->
                TestData.records(seed, m, n, keys, payload).stream()
                    .map(r -> new Tuple2<>(r.key(), r))
                    .iterator());
  }

  private static <T> List<T> pinnedCollect(JavaSparkContext jsc, JavaRDD<T> rdd, JobLayout l) {
    return Placement.onHosts(jsc, rdd, l.reduceHosts()).collect();
  }

  /**
   * reduceByKey: sum of values per key. Rows {@code key,sum} ordered by key.
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed
   * @return result rows
   */
  public static List<String> reduceByKey(JavaSparkContext jsc, JobLayout l, long seed) {
    List<String> rows = new ArrayList<>(reduceByKeyRows(jsc, l, seed).collect());
    rows.sort(ShuffleJobs::byLeadingNumber);
    return rows;
  }

  /**
   * The rows of {@link #reduceByKey} as an RDD whose reduce tasks are pinned to the layout's reduce
   * hosts, for callers that run several actions over one shuffle (the second reads the map output
   * the first wrote). Rows {@code key,sum} in no particular order; oracle {@link
   * #reduceByKeyOracle}.
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed
   * @return the pinned RDD of rows
   */
  public static JavaRDD<String> reduceByKeyRows(JavaSparkContext jsc, JobLayout l, long seed) {
    JavaPairRDD<Long, Long> sums =
        generate(jsc, l, seed, KEYS, 0)
            .mapValues(TestData.Rec::value)
            .reduceByKey(new HashPartitioner(l.reduces()), Long::sum);
    return Placement.onHosts(jsc, sums.map(t -> t._1() + "," + t._2()), l.reduceHosts());
  }

  /**
   * The sums of {@link #reduceByKey}, computed in the reduce tasks from the raw records (no
   * combining), with a straggler: the first attempt of reduce partition 0 reads one record of its
   * shuffle input and then stalls for {@code stallMillis} (interruptibly), and every partition may
   * run on any of {@link JobLayout#reduceHosts()}, so that speculative execution ({@code
   * spark.speculation}) can finish the partition with a copy on another host. Same rows as {@link
   * #reduceByKey}; oracle {@link #reduceByKeyOracle}.
   *
   * @param jsc the driver
   * @param l layout (at least two reduce hosts for a copy to have somewhere to run)
   * @param seed data seed
   * @param stallMillis how long the straggling attempt stalls, ms
   * @return result rows
   */
  public static List<String> reduceByKeyWithStraggler(
      JavaSparkContext jsc, JobLayout l, long seed, long stallMillis) {
    // no map-side combine and no reduce-side aggregation in Spark: the task sees the shuffle's
    // records as they
    // are fetched, so the straggler stalls in the middle of its gated read
    JavaPairRDD<Long, Long> values =
        generate(jsc, l, seed, KEYS, 0)
            .mapValues(TestData.Rec::value)
            .partitionBy(new HashPartitioner(l.reduces()));
    JavaRDD<String> rows =
        values.mapPartitions(
            it -> {
              org.apache.spark.TaskContext ctx = org.apache.spark.TaskContext.get();
              boolean stall = ctx.partitionId() == 0 && ctx.attemptNumber() == 0;
              Map<Long, Long> sums = new TreeMap<>();
              while (it.hasNext()) {
                Tuple2<Long, Long> t = it.next();
                sums.merge(t._1(), t._2(), Long::sum);
                if (stall) {
                  stall = false;
                  Thread.sleep(
                      stallMillis); // killed by Spark (interrupt) once the copy has succeeded
                }
              }
              List<String> out = new ArrayList<>();
              sums.forEach((k, v) -> out.add(k + "," + v));
              return out.iterator();
            });
    List<String> result = new ArrayList<>(Placement.onAnyOf(jsc, rows, l.reduceHosts()).collect());
    result.sort(ShuffleJobs::byLeadingNumber);
    return result;
  }

  /** Oracle of {@link #reduceByKey}. @param l layout @param seed seed @return expected rows */
  public static List<String> reduceByKeyOracle(JobLayout l, long seed) {
    Map<Long, Long> sums = new TreeMap<>();
    for (int m = 0; m < l.maps(); m++) {
      for (TestData.Rec r : TestData.records(seed, m, l.recordsPerMap(), KEYS, 0)) {
        sums.merge(r.key(), r.value(), Long::sum);
      }
    }
    List<String> rows = new ArrayList<>();
    sums.forEach((k, v) -> rows.add(k + "," + v));
    return rows;
  }

  /**
   * groupByKey: per key the number of records and a CRC32 of its sorted payloads. Rows {@code
   * key,count,crc} ordered by key.
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed
   * @return result rows
   */
  public static List<String> groupByKey(JavaSparkContext jsc, JobLayout l, long seed) {
    JavaPairRDD<Long, Iterable<String>> groups =
        generate(jsc, l, seed, KEYS, PAYLOAD)
            .mapValues(TestData.Rec::payload)
            .groupByKey(new HashPartitioner(l.reduces()));
    List<String> rows =
        new ArrayList<>(
            pinnedCollect(
                jsc,
                groups.map(
                    t -> {
                      List<String> vs = new ArrayList<>();
                      t._2().forEach(vs::add);
                      return t._1() + "," + digest(vs);
                    }),
                l));
    rows.sort(ShuffleJobs::byLeadingNumber);
    return rows;
  }

  /** Oracle of {@link #groupByKey}. @param l layout @param seed seed @return expected rows */
  public static List<String> groupByKeyOracle(JobLayout l, long seed) {
    return groupsOracle(l, seed, k -> k);
  }

  /**
   * Rows {@code key,count,crc} of the generated payloads grouped by {@code key(record key)}, by
   * key.
   */
  private static List<String> groupsOracle(
      JobLayout l, long seed, java.util.function.LongUnaryOperator key) {
    Map<Long, List<String>> groups = new TreeMap<>();
    for (int m = 0; m < l.maps(); m++) {
      for (TestData.Rec r : TestData.records(seed, m, l.recordsPerMap(), KEYS, PAYLOAD)) {
        groups.computeIfAbsent(key.applyAsLong(r.key()), k -> new ArrayList<>()).add(r.payload());
      }
    }
    List<String> rows = new ArrayList<>();
    groups.forEach((k, vs) -> rows.add(k + "," + digest(vs)));
    return rows;
  }

  /**
   * sortByKey over the full 64-bit key range (range partitioning, so the reducers' outputs
   * concatenate to one sorted sequence). Rows {@code key:payload} in the collected order; equal
   * keys are rare but possible, so rows with equal keys are ordered by payload.
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed
   * @return result rows
   */
  public static List<String> sortByKey(JavaSparkContext jsc, JobLayout l, long seed) {
    JavaPairRDD<Long, String> sorted =
        generate(jsc, l, seed, Long.MAX_VALUE, PAYLOAD)
            .mapValues(TestData.Rec::payload)
            .sortByKey(true, l.reduces());
    List<String> rows =
        new ArrayList<>(pinnedCollect(jsc, sorted.map(t -> t._1() + ":" + t._2()), l));
    return stableTies(rows);
  }

  /** Oracle of {@link #sortByKey}. @param l layout @param seed seed @return expected rows */
  public static List<String> sortByKeyOracle(JobLayout l, long seed) {
    List<TestData.Rec> all = new ArrayList<>();
    for (int m = 0; m < l.maps(); m++) {
      all.addAll(TestData.records(seed, m, l.recordsPerMap(), Long.MAX_VALUE, PAYLOAD));
    }
    all.sort(
        (a, b) ->
            a.key() != b.key()
                ? Long.compare(a.key(), b.key())
                : a.payload().compareTo(b.payload()));
    List<String> rows = new ArrayList<>();
    for (TestData.Rec r : all) {
      rows.add(r.key() + ":" + r.payload());
    }
    return rows;
  }

  /**
   * Spark SQL join and aggregation (run it with {@code spark.sql.adaptive.enabled=true}): orders
   * {@code (o_id, cust)} for {@code o_id < orders}, lineitems {@code (o_id = i mod orders, qty = i
   * mod 7 + 1, price = i mod 101)} for {@code i < lineitems}; joined on {@code o_id}, grouped by
   * {@code cust = o_id mod 97}: {@code cust, count(*), sum(qty*price), max(price)} ordered by
   * {@code cust}. Rows are {@link Row#toString()}.
   *
   * @param spark the session
   * @param orders number of orders
   * @param lineitems number of line items
   * @param partitions partitions of the generated tables
   * @return result rows
   */
  public static List<String> sqlJoinAggregate(
      SparkSession spark, long orders, long lineitems, int partitions) {
    Dataset<Row> o =
        spark.range(0, orders, 1, partitions).selectExpr("id AS o_id", "id % 97 AS cust");
    Dataset<Row> li =
        spark
            .range(0, lineitems, 1, partitions)
            .selectExpr("id % " + orders + " AS o_id", "id % 7 + 1 AS qty", "id % 101 AS price");
    Dataset<Row> r =
        li.join(o, "o_id")
            .groupBy("cust")
            .agg(
                functions.count("*").as("n"),
                functions.sum(functions.expr("qty * price")).as("revenue"),
                functions.max("price").as("maxprice"))
            .orderBy("cust");
    List<String> rows = new ArrayList<>();
    for (Row row : r.collectAsList()) {
      rows.add(row.toString());
    }
    return rows;
  }

  /**
   * Oracle of {@link #sqlJoinAggregate}. @param orders orders @param lineitems line items @return
   * expected rows
   */
  public static List<String> sqlJoinAggregateOracle(long orders, long lineitems) {
    Map<Long, long[]> agg = new TreeMap<>();
    for (long i = 0; i < lineitems; i++) {
      long oid = i % orders;
      long cust = oid % 97;
      long qty = i % 7 + 1;
      long price = i % 101;
      long[] a = agg.computeIfAbsent(cust, k -> new long[] {0, 0, Long.MIN_VALUE});
      a[0]++;
      a[1] += qty * price;
      a[2] = Math.max(a[2], price);
    }
    List<String> rows = new ArrayList<>();
    agg.forEach((c, a) -> rows.add("[" + c + "," + a[0] + "," + a[1] + "," + a[2] + "]"));
    return rows;
  }

  /**
   * The rows of a Spark SQL job and whether adaptive execution split a skewed join partition.
   *
   * @param rows result rows ({@link Row#toString()})
   * @param skewSplit whether the final plan has a sort-merge join marked {@code skew=true}: its
   *     reduce tasks read parts of one reduce partition from ranges of map outputs
   */
  public record SqlResult(List<String> rows, boolean skewSplit) {}

  /**
   * A skewed Spark SQL join that adaptive execution splits: facts {@code (k, v)} for {@code id <
   * facts} with {@code k = 0} unless {@code id mod 4 = 0} (then {@code k = id mod 1000}) and {@code
   * v = id mod 1000}, joined on {@code k} with dims {@code (k, w = 7k mod 13)} for {@code k <
   * 1000}, grouped by {@code k mod 10}: {@code bucket, count(*), sum(v), sum(w)} ordered by bucket.
   * Runs with adaptive skew-join handling forced on at small thresholds (8 shuffle partitions, a
   * partition is skewed above twice the median and 64 KB, advisory size 64 KB) and broadcast joins
   * off, so the partition of key 0 is read by several reduce tasks, each from a range of map
   * outputs (the 7-argument {@code getReader} with map indices); the session's previous values of
   * those settings are restored afterwards.
   *
   * @param spark the session
   * @param facts rows of the fact table, &ge; 1000
   * @param partitions partitions of the generated fact table (map tasks; 2 or more to split)
   * @return result rows and whether the skewed partition was split
   */
  public static SqlResult sqlSkewJoin(SparkSession spark, long facts, int partitions) {
    Map<String, String> settings =
        new TreeMap<>(
            Map.of(
                "spark.sql.adaptive.enabled", "true",
                "spark.sql.adaptive.skewJoin.enabled", "true",
                "spark.sql.adaptive.forceOptimizeSkewedJoin", "true",
                "spark.sql.adaptive.skewJoin.skewedPartitionFactor", "2",
                "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "64k",
                "spark.sql.adaptive.advisoryPartitionSizeInBytes", "64k",
                "spark.sql.shuffle.partitions", "8",
                "spark.sql.autoBroadcastJoinThreshold", "-1",
                "spark.sql.adaptive.autoBroadcastJoinThreshold", "-1"));
    Map<String, String> previous = new TreeMap<>();
    settings.forEach(
        (k, v) -> {
          if (spark.conf().contains(k)) {
            previous.put(k, spark.conf().get(k));
          }
          spark.conf().set(k, v);
        });
    try {
      Dataset<Row> f =
          spark
              .range(0, facts, 1, partitions)
              .selectExpr("CASE WHEN id % 4 = 0 THEN id % 1000 ELSE 0 END AS k", "id % 1000 AS v");
      Dataset<Row> d =
          spark.range(0, 1000, 1, partitions).selectExpr("id AS k", "id * 7 % 13 AS w");
      Dataset<Row> r =
          f.join(d, "k")
              .groupBy(functions.expr("k % 10").as("bucket"))
              .agg(
                  functions.count("*").as("n"),
                  functions.sum("v").as("sv"),
                  functions.sum("w").as("sw"))
              .orderBy("bucket");
      List<String> rows = new ArrayList<>();
      for (Row row : r.collectAsList()) {
        rows.add(row.toString());
      }
      boolean split = r.queryExecution().executedPlan().toString().contains("skew=true");
      return new SqlResult(rows, split);
    } finally {
      settings
          .keySet()
          .forEach(
              k -> {
                if (previous.containsKey(k)) {
                  spark.conf().set(k, previous.get(k));
                } else {
                  spark.conf().unset(k);
                }
              });
    }
  }

  /** Oracle of {@link #sqlSkewJoin}. @param facts rows of the fact table @return expected rows */
  public static List<String> sqlSkewJoinOracle(long facts) {
    long[][] agg = new long[10][3];
    for (long id = 0; id < facts; id++) {
      long k = id % 4 == 0 ? id % 1000 : 0;
      long[] a = agg[(int) (k % 10)];
      a[0]++;
      a[1] += id % 1000;
      a[2] += k * 7 % 13;
    }
    List<String> rows = new ArrayList<>();
    for (int b = 0; b < 10; b++) {
      if (agg[b][0] > 0) {
        rows.add("[" + b + "," + agg[b][0] + "," + agg[b][1] + "," + agg[b][2] + "]");
      }
    }
    return rows;
  }

  /**
   * cogroup of two shuffled RDDs (seeds {@code seed} and {@code seed + 1}) on one hash partitioner:
   * each reduce task reads the first shuffle to its end, then the second (Spark's CoGroupedRDD), so
   * one task holds two gated shuffles. Rows {@code key,count1,crc1,count2,crc2} ordered by key,
   * over the union of both key sets (a side without the key has {@code 0,0}).
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed of the first RDD; the second uses {@code seed + 1}
   * @return result rows
   */
  public static List<String> cogroup(JavaSparkContext jsc, JobLayout l, long seed) {
    JavaPairRDD<Long, String> left =
        generate(jsc, l, seed, KEYS, PAYLOAD).mapValues(TestData.Rec::payload);
    JavaPairRDD<Long, String> right =
        generate(jsc, l, seed + 1, KEYS, PAYLOAD).mapValues(TestData.Rec::payload);
    JavaPairRDD<Long, Tuple2<Iterable<String>, Iterable<String>>> groups =
        left.cogroup(right, new HashPartitioner(l.reduces()));
    List<String> rows =
        new ArrayList<>(
            pinnedCollect(
                jsc,
                groups.map(
                    t -> {
                      List<String> a = new ArrayList<>();
                      t._2()._1().forEach(a::add);
                      List<String> b = new ArrayList<>();
                      t._2()._2().forEach(b::add);
                      return t._1() + "," + digest(a) + "," + digest(b);
                    }),
                l));
    rows.sort(ShuffleJobs::byLeadingNumber);
    return rows;
  }

  /** Oracle of {@link #cogroup}. @param l layout @param seed seed @return expected rows */
  public static List<String> cogroupOracle(JobLayout l, long seed) {
    Map<Long, List<List<String>>> groups = new TreeMap<>();
    for (int side = 0; side < 2; side++) {
      for (int m = 0; m < l.maps(); m++) {
        for (TestData.Rec r : TestData.records(seed + side, m, l.recordsPerMap(), KEYS, PAYLOAD)) {
          groups
              .computeIfAbsent(r.key(), k -> List.of(new ArrayList<>(), new ArrayList<>()))
              .get(side)
              .add(r.payload());
        }
      }
    }
    List<String> rows = new ArrayList<>();
    groups.forEach((k, vs) -> rows.add(k + "," + digest(vs.get(0)) + "," + digest(vs.get(1))));
    return rows;
  }

  /**
   * A wide, skewed shuffle: the keys of {@link #cogroup}'s records folded so that every key below
   * {@code KEYS / 16} becomes key 0 (about half of all records), spread without map-side combining
   * over {@link JobLayout#reduces()} partitions. With more than 2000 partitions Spark describes
   * each map output by {@code HighlyCompressedMapStatus}: every non-empty block is reported at the
   * average size, so the block of partition 0, about half of each map output, is announced far
   * smaller than it is. Rows {@code key,count,crc} ordered by key (the digest of the key's
   * payloads).
   *
   * @param jsc the driver
   * @param l layout
   * @param seed data seed
   * @return result rows
   */
  public static List<String> wideSkewedGroups(JavaSparkContext jsc, JobLayout l, long seed) {
    JavaPairRDD<Long, String> folded =
        generate(jsc, l, seed, KEYS, PAYLOAD)
            .mapToPair(t -> new Tuple2<>(foldedKey(t._1()), t._2().payload()))
            .partitionBy(new HashPartitioner(l.reduces()));
    JavaRDD<String> rows =
        folded.mapPartitions(
            it -> {
              Map<Long, List<String>> groups = new TreeMap<>();
              it.forEachRemaining(
                  t -> groups.computeIfAbsent(t._1(), k -> new ArrayList<>()).add(t._2()));
              List<String> out = new ArrayList<>();
              groups.forEach((k, vs) -> out.add(k + "," + digest(vs)));
              return out.iterator();
            });
    List<String> result = new ArrayList<>(pinnedCollect(jsc, rows, l));
    result.sort(ShuffleJobs::byLeadingNumber);
    return result;
  }

  /** Oracle of {@link #wideSkewedGroups}. @param l layout @param seed seed @return expected rows */
  public static List<String> wideSkewedGroupsOracle(JobLayout l, long seed) {
    return groupsOracle(l, seed, ShuffleJobs::foldedKey);
  }

  private static long foldedKey(long key) {
    return key < KEYS / 16 ? 0 : key;
  }

  private static String digest(List<String> values) {
    List<String> vs = new ArrayList<>(values);
    Collections.sort(vs);
    CRC32 crc = new CRC32();
    for (String v : vs) {
      crc.update(v.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      crc.update('\n');
    }
    return vs.size() + "," + Long.toHexString(crc.getValue());
  }

  private static int byLeadingNumber(String a, String b) {
    return Long.compare(
        Long.parseLong(a.substring(0, a.indexOf(','))),
        Long.parseLong(b.substring(0, b.indexOf(','))));
  }

  /**
   * Orders runs of rows with equal keys by payload; keeps the order of distinct keys as collected.
   */
  private static List<String> stableTies(List<String> rows) {
    int i = 0;
    while (i < rows.size()) {
      String k = rows.get(i).substring(0, rows.get(i).indexOf(':'));
      int j = i + 1;
      while (j < rows.size() && rows.get(j).startsWith(k + ":")) {
        j++;
      }
      if (j - i > 1) {
        Collections.sort(rows.subList(i, j));
      }
      i = j;
    }
    return rows;
  }
}
