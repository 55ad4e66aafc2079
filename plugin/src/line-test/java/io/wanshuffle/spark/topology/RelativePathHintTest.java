package io.wanshuffle.spark.topology;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.compat.SparkLine;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The hint of a topology error about a relative path tells what this line's Spark reads. */
class RelativePathHintTest {
  @Test
  void theHintSaysWhereThisLineLooksForARelativePath() {
    String hint = ClusterTopology.relativePathHint("; give a path that exists everywhere");
    assertTrue(hint.contains("working directory, here " + Path.of("").toAbsolutePath()), hint);
    if (SparkLine.LINE.startsWith("3.")) {
      // Spark 3.5 opens the topology before it fetches --files: shipping the file does not help
      assertTrue(hint.contains("before it fetches the files shipped with --files"), hint);
      assertFalse(hint.contains("ship the file"), hint);
    } else {
      assertTrue(hint.contains("else from the files shipped with --files"), hint);
      assertTrue(hint.contains("give a path that exists everywhere, or ship the file"), hint);
    }
  }
}
