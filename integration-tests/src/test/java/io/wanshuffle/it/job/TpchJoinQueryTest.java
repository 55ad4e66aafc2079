package io.wanshuffle.it.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.trino.tpch.Distributions;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The row parsing and aggregation of the demo query, against the generator's typed getters. */
class TpchJoinQueryTest {
  @Test
  void parsesLineitemFieldsExactly() {
    int n = 0;
    for (LineItem l :
        new LineItemGenerator(
            0.001, 1, 50, Distributions.getDefaultDistributions(), TpchJoinQuery.textPool())) {
      String row = "L|" + l.toLine(); // as the map side tags it
      assertEquals(l.getQuantity(), Long.parseLong(TpchJoinQuery.field(row, 5)));
      assertEquals(l.getExtendedPriceInCents(), TpchJoinQuery.cents(TpchJoinQuery.field(row, 6)));
      assertEquals(l.getDiscountPercent(), TpchJoinQuery.cents(TpchJoinQuery.field(row, 7)));
      assertEquals(l.getShipMode(), TpchJoinQuery.field(row, 15));
      n++;
    }
    assertEquals(true, n > 100);
  }

  @Test
  void parsesOrderPriority() {
    for (Order o :
        new OrderGenerator(
            0.001, 1, 50, Distributions.getDefaultDistributions(), TpchJoinQuery.textPool())) {
      assertEquals(o.getOrderPriority(), TpchJoinQuery.field("O|" + o.toLine(), 6));
    }
  }

  @Test
  void answerMergesPartialsAndFormatsMoney() {
    List<String> a =
        TpchJoinQuery.answer(
            List.of(
                Map.of("1-URGENT|AIR", new long[] {1, 2, 150, 150 * 96}),
                Map.of(
                    "1-URGENT|AIR",
                    new long[] {2, 3, 5, 5 * 100},
                    "2-HIGH|MAIL",
                    new long[] {1, 1, 1, 100})));
    assertEquals(List.of("1-URGENT|AIR|3|5|1.55|1.4900", "2-HIGH|MAIL|1|1|0.01|0.0100"), a);
  }

  @Test
  void missingFieldIsAnError() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TpchJoinQuery.field("1|2|", 5));
    assertEquals("TPC-H row has fewer than 6 fields: 1|2|", e.getMessage());
  }
}
