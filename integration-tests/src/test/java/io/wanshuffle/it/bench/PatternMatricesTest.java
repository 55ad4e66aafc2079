package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.Distributions;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.TextPool;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code tpch} pattern shuffles about the bytes {@code --mb} asks for: its scale factor's rows,
 * as the join's map side writes them (an 8-byte order key and the tagged {@code |}-separated line),
 * add up to the requested total within 15 %.
 */
class PatternMatricesTest {
  @Test
  void tpchScaleShufflesAboutTheRequestedBytes() {
    double requested = 11e6;
    PatternMatrices matrices = new PatternMatrices(requested, null, null);
    double scale = matrices.tpchScale();
    Distributions d = Distributions.getDefaultDistributions();
    TextPool pool = new TextPool(1 << 20, d);
    long bytes = 0;
    for (LineItem l : new LineItemGenerator(scale, 1, 1, d, pool)) {
      bytes += Long.BYTES + 2 + l.toLine().length();
    }
    for (Order o : new OrderGenerator(scale, 1, 1, d, pool)) {
      bytes += Long.BYTES + 2 + o.toLine().length();
    }
    assertEquals(1.0, bytes / requested, 0.15, "shuffled " + bytes + " B at scale " + scale);
    IllegalArgumentException job =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                matrices.of(
                    PatternMatrices.TPCH,
                    new TestbedSpec(
                        3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0)));
    assertTrue(job.getMessage().contains("no traffic matrix"), job.getMessage());
  }

  @Test
  void aPatternOfApplicationsTogetherRunsItsPartsRoundTheList() {
    TestbedSpec spec =
        new TestbedSpec(3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);
    PatternMatrices matrices = new PatternMatrices(6e6, null, null);
    Map<String, double[][]> all = matrices.all(List.of("uniform+tpch", "zipf"), spec, 3);
    assertEquals(List.of("uniform", "zipf"), List.copyOf(all.keySet()), "tpch runs by its scale");
    double sum = 0;
    for (double[] row : all.get("uniform")) {
      for (double b : row) {
        sum += b;
      }
    }
    assertEquals(6e6, sum, 1, "the uniform part's matrix carries --mb");
    assertEquals("uniform", PatternMatrices.partOf("uniform+tpch", 0));
    assertEquals("tpch", PatternMatrices.partOf("uniform+tpch", 1));
    assertEquals("uniform", PatternMatrices.partOf("uniform+tpch", 2));
    assertEquals(": tpch", PatternMatrices.partLabel("uniform+tpch", 1));
    assertEquals("", PatternMatrices.partLabel("zipf", 1));
    IllegalArgumentException few =
        assertThrows(
            IllegalArgumentException.class, () -> matrices.all(List.of("uniform+tpch"), spec, 1));
    assertTrue(few.getMessage().contains("--concurrent 2"), few.getMessage());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class, () -> matrices.all(List.of("uniform+nope"), spec, 2));
    assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
  }
}
