package io.wanshuffle.it.app;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link LineSmoke}'s stdout computed without Spark: the answer Spark's sort shuffle gives for the
 * same arguments on any line (its parts depend only on the records and partitions), so a line's
 * smoke run under wan-shuffle needs no second application with the sort shuffle to compare with.
 */
final class LineSmokeOracle {
  private LineSmokeOracle() {}

  /**
   * The lines {@link LineSmoke} prints.
   *
   * @param records records of the generated data, &gt; 0
   * @param partitions partitions (slices, shuffle partitions), &gt; 0
   * @return reduceByKey's, groupByKey's and the SQL part's summary lines, then one {@code sql
   *     <region> <orders> <amount> <last>} line per region in region order
   */
  static List<String> stdout(int records, int partitions) {
    // every record r in [0, records) is the pair (r * 7919 % 997, r), whichever slice makes it
    int keys = 997;
    long[] n = new long[keys];
    long[] sum = new long[keys];
    long[] max = new long[keys];
    java.util.Arrays.fill(max, Long.MIN_VALUE);
    for (long r = 0; r < records; r++) {
      int key = (int) (r * 7919 % keys);
      n[key]++;
      sum[key] += r;
      max[key] = Math.max(max[key], r);
    }
    List<String> reduced = new ArrayList<>();
    List<String> grouped = new ArrayList<>();
    for (int key = 0; key < keys; key++) {
      if (n[key] > 0) {
        reduced.add(key + " " + sum[key]);
        grouped.add(key + " " + n[key] + " " + sum[key] + " " + max[key]);
      }
    }
    // orders o(id, customer = id % 5003, amount = id * 31 % 1000) join customers c(customer,
    // region-(customer % 7)) on the customer: every order has its customer
    int regions = 7;
    long[] orders = new long[regions];
    long[] amount = new long[regions];
    long[] last = new long[regions];
    for (long id = 0; id < records; id++) {
      int region = (int) (id % 5003 % regions);
      orders[region]++;
      amount[region] += id * 31 % 1000;
      last[region] = id;
    }
    List<String> sql = new ArrayList<>();
    for (int region = 0; region < regions; region++) {
      if (orders[region] > 0) {
        sql.add(
            "region-" + region + " " + orders[region] + " " + amount[region] + " " + last[region]);
      }
    }
    List<String> out = new ArrayList<>();
    out.add(LineSmoke.summary("reduceByKey", reduced));
    out.add(LineSmoke.summary("groupByKey", grouped));
    out.add(LineSmoke.summary("sql", sql));
    sql.forEach(r -> out.add("sql " + r));
    return out;
  }
}
