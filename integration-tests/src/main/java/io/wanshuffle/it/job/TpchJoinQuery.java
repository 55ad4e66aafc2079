package io.wanshuffle.it.job;

import io.trino.tpch.Distributions;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.TextPool;
import io.trino.tpch.TpchEntity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * The demo query on TPC-H data, generated on cluster A by the TPC-H generator ({@code
 * io.trino.tpch}):
 *
 * <pre>
 *   SELECT o_orderpriority, l_shipmode, count(*), sum(l_quantity), sum(l_extendedprice),
 *          sum(l_extendedprice * (1 - l_discount))
 *   FROM lineitem JOIN orders ON l_orderkey = o_orderkey
 *   GROUP BY o_orderpriority, l_shipmode
 * </pre>
 *
 * <p>Both tables are generated in map tasks pinned to cluster A (generator part i of n in map task
 * i) and shuffled whole (every column, as the TPC-H {@code |}-separated row) by order key into
 * reduce tasks pinned to cluster B, which join and aggregate: every row crosses the backbone once.
 * Sums are exact integers (cents, and cents x percent for revenue), so answers of two runs compare
 * exactly.
 *
 * <p>Comments come from a 16 MiB text pool instead of dbgen's 300 MB one (every other column is as
 * dbgen makes it); the pool is built once per executor JVM.
 */
final class TpchJoinQuery {
  private static final int TEXT_POOL_BYTES = 16 << 20;
  private static volatile TextPool pool;

  private TpchJoinQuery() {}

  static TextPool textPool() {
    TextPool p = pool;
    if (p == null) {
      synchronized (TpchJoinQuery.class) {
        p = pool;
        if (p == null) {
          p = new TextPool(TEXT_POOL_BYTES, Distributions.getDefaultDistributions());
          pool = p;
        }
      }
    }
    return p;
  }

  /**
   * Builds the query's RDD: the answer rows, computed on cluster B.
   *
   * @param jsc driver
   * @param scale TPC-H scale factor (0.1 = lineitem of 600,000 rows, about 74 MB of text)
   * @param mapParts generator parts per table (map tasks on A)
   * @param reduceParts reduce tasks on B
   * @param aHosts cluster A hosts
   * @param bHosts cluster B hosts
   * @return per reduce task, the partial aggregates as {@code key -> [count, qty, priceCents,
   *     revenue]}
   */
  static JavaRDD<Map<String, long[]>> build(
      JavaSparkContext jsc,
      double scale,
      int mapParts,
      int reduceParts,
      List<String> aHosts,
      List<String> bHosts) {
    JavaPairRDD<Long, String> lineitem =
        Placement.seeds(jsc, mapParts, aHosts)
            .flatMapToPair(
                part ->
                    keyedRows(
                        new LineItemGenerator(
                            scale,
                            part + 1,
                            mapParts,
                            Distributions.getDefaultDistributions(),
                            textPool()),
                        LineItem::getOrderKey,
                        "L|"));
    JavaPairRDD<Long, String> orders =
        Placement.seeds(jsc, mapParts, aHosts)
            .flatMapToPair(
                part ->
                    keyedRows(
                        new OrderGenerator(
                            scale,
                            part + 1,
                            mapParts,
                            Distributions.getDefaultDistributions(),
                            textPool()),
                        Order::getOrderKey,
                        "O|"));
    JavaPairRDD<Long, Iterable<String>> joined =
        lineitem.union(orders).groupByKey(new HashPartitioner(reduceParts));
    return Placement.seeds(jsc, reduceParts, bHosts)
        .zipPartitions(
            joined,
            (pin, rows) -> {
              Map<String, long[]> agg = new HashMap<>();
              List<String> lines = new ArrayList<>();
              while (rows.hasNext()) {
                Tuple2<Long, Iterable<String>> r = rows.next();
                String o = null;
                lines.clear();
                for (String row : r._2()) {
                  if (row.charAt(0) == 'O') {
                    o = row;
                  } else {
                    lines.add(row);
                  }
                }
                if (o != null) {
                  String priority = field(o, 6);
                  for (String l : lines) {
                    long qty = Long.parseLong(field(l, 5));
                    long price = cents(field(l, 6));
                    long discount = cents(field(l, 7));
                    long[] a = agg.computeIfAbsent(priority + "|" + field(l, 15), k -> new long[4]);
                    a[0]++;
                    a[1] += qty;
                    a[2] += price;
                    a[3] += price * (100 - discount);
                  }
                }
              }
              return List.of(agg).iterator();
            });
  }

  /**
   * One generator part's rows keyed by order key, each row the TPC-H {@code |}-separated line
   * behind its table's tag.
   *
   * @param generator one part of a TPC-H table's generator
   * @param orderKey the row's order key
   * @param tag {@code "L|"} for lineitem, {@code "O|"} for orders
   * @return the rows as {@code (orderKey, tag + line)}, generated as they are read
   */
  private static <T extends TpchEntity> Iterator<Tuple2<Long, String>> keyedRows(
      Iterable<T> generator, ToLongFunction<T> orderKey, String tag) {
    Iterator<T> it = generator.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Tuple2<Long, String> next() {
        T row = it.next();
        return new Tuple2<>(orderKey.applyAsLong(row), tag + row.toLine());
      }
    };
  }

  /**
   * Merges the partial aggregates into answer lines.
   *
   * @param partials per-task maps from {@link #build}
   * @return sorted lines {@code priority|shipmode|count|sum_qty|sum_price|sum_revenue} with money
   *     as decimals
   */
  static List<String> answer(List<Map<String, long[]>> partials) {
    Map<String, long[]> total = new TreeMap<>();
    for (Map<String, long[]> m : partials) {
      m.forEach(
          (k, v) -> {
            long[] t = total.computeIfAbsent(k, x -> new long[4]);
            for (int i = 0; i < 4; i++) {
              t[i] += v[i];
            }
          });
    }
    List<String> out = new ArrayList<>();
    total.forEach(
        (k, v) ->
            out.add(
                k
                    + "|"
                    + v[0]
                    + "|"
                    + v[1]
                    + "|"
                    + BigDecimal.valueOf(v[2], 2)
                    + "|"
                    + BigDecimal.valueOf(v[3], 4)));
    return out;
  }

  /**
   * @return the {@code index}-th (0-based) {@code |}-separated field of a TPC-H row
   */
  static String field(String row, int index) {
    int start = 0;
    for (int i = 0; i < index; i++) {
      start = row.indexOf('|', start) + 1;
      if (start == 0) {
        throw new IllegalArgumentException(
            "TPC-H row has fewer than " + (index + 1) + " fields: " + row);
      }
    }
    int end = row.indexOf('|', start);
    return end < 0 ? row.substring(start) : row.substring(start, end);
  }

  /**
   * @return a two-decimal amount such as {@code 24386.67} or {@code 0.04} in hundredths (exact)
   */
  static long cents(String decimal) {
    return new BigDecimal(decimal).movePointRight(2).longValueExact();
  }
}
