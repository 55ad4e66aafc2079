package io.wanshuffle.it.job;

import io.trino.tpch.Distributions;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo query's answer ({@link TpchJoinQuery}) computed without Spark, from the TPC-H
 * generator's typed values: what Spark's sort shuffle answers, so a test of wan-shuffle needs no
 * application with the sort shuffle to compare with.
 */
public final class TpchAnswer {
  private TpchAnswer() {}

  /**
   * The answer rows of the demo query.
   *
   * @param scale TPC-H scale factor, &gt; 0
   * @param mapParts generator parts per table (the job's map tasks), &ge; 1
   * @return sorted lines {@code priority|shipmode|count|sum_qty|sum_price|sum_revenue}, as {@link
   *     TpchJoinQuery#answer} formats them
   */
  public static List<String> of(double scale, int mapParts) {
    Map<Long, String> priority = new HashMap<>();
    for (int part = 1; part <= mapParts; part++) {
      for (Order o :
          new OrderGenerator(
              scale,
              part,
              mapParts,
              Distributions.getDefaultDistributions(),
              TpchJoinQuery.textPool())) {
        priority.put(o.getOrderKey(), o.getOrderPriority());
      }
    }
    Map<String, long[]> agg = new HashMap<>();
    for (int part = 1; part <= mapParts; part++) {
      for (LineItem l :
          new LineItemGenerator(
              scale,
              part,
              mapParts,
              Distributions.getDefaultDistributions(),
              TpchJoinQuery.textPool())) {
        String p = priority.get(l.getOrderKey());
        if (p == null) {
          continue; // an inner join: a line item without its order has no row
        }
        long[] a = agg.computeIfAbsent(p + "|" + l.getShipMode(), k -> new long[4]);
        a[0]++;
        a[1] += l.getQuantity();
        a[2] += l.getExtendedPriceInCents();
        a[3] += l.getExtendedPriceInCents() * (100 - l.getDiscountPercent());
      }
    }
    return TpchJoinQuery.answer(List.of(agg));
  }
}
