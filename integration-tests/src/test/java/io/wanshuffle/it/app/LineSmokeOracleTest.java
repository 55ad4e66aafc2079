package io.wanshuffle.it.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The oracle gives the stdout {@link LineSmoke} prints under Spark's sort shuffle. */
class LineSmokeOracleTest {
  @Test
  void theOracleIsWhatLineSmokePrintsUnderTheSortShuffle() throws Exception {
    int records = 20_003;
    int partitions = 3;
    assertEquals(LineSmokeOracle.stdout(records, partitions), runLocally(records, partitions));
  }

  @Test
  void theOracleDependsOnTheArguments() {
    assertEquals(10, LineSmokeOracle.stdout(200_000, 8).size(), "three summaries, seven regions");
    List<String> a = LineSmokeOracle.stdout(200_000, 8);
    List<String> b = LineSmokeOracle.stdout(199_999, 8);
    for (int i = 0; i < 3; i++) {
      assertNotEquals(a.get(i), b.get(i), "one record fewer changes every part's hash");
    }
  }

  /** LineSmoke's stdout lines in local mode with the test class path's Spark (sort shuffle). */
  private static List<String> runLocally(int records, int partitions) throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setProperty("spark.master", "local[2]");
    System.setProperty("spark.ui.enabled", "false");
    try (PrintStream p = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(p);
      LineSmoke.main(new String[] {Integer.toString(records), Integer.toString(partitions)});
    } finally {
      System.setOut(out);
      System.clearProperty("spark.master");
      System.clearProperty("spark.ui.enabled");
    }
    return captured
        .toString(StandardCharsets.UTF_8)
        .lines()
        .filter(l -> l.matches("(reduceByKey|groupByKey|sql) .*"))
        .toList();
  }
}
