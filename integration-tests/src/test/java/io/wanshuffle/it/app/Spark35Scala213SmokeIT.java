package io.wanshuffle.it.app;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The smoke test of Spark 3.5 (Scala 2.13) ({@link SparkLineSmoke}). */
class Spark35Scala213SmokeIT extends SparkLineSmoke {
  @Test
  void theLineRunsTheSmokeJobWithTheSameAnswersAndWithinK() throws IOException {
    smoke("3.5_2.13");
  }
}
