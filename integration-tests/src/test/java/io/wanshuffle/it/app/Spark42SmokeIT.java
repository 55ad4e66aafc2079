package io.wanshuffle.it.app;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The smoke test of Spark 4.2 (Scala 2.13) ({@link SparkLineSmoke}). */
class Spark42SmokeIT extends SparkLineSmoke {
  @Test
  void theLineRunsTheSmokeJobWithTheSameAnswersAndWithinK() throws IOException {
    smoke("4.2_2.13");
  }
}
