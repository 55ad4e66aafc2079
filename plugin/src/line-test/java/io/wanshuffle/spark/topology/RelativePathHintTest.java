package io.wanshuffle.spark.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The hint of a topology error about a relative path tells where every line looks for it: the
 * topology is read at first use, once the files shipped with {@code --files} are in place (Spark
 * 3.5 included).
 */
class RelativePathHintTest {
  @Test
  void theHintSaysWhereARelativePathIsLookedFor() {
    String hint = ClusterTopology.relativePathHint("; give a path that exists everywhere");
    assertTrue(hint.contains("working directory, here " + Path.of("").toAbsolutePath()), hint);
    assertTrue(hint.contains("else from the files shipped with --files"), hint);
    assertTrue(hint.contains("give a path that exists everywhere, or ship the file"), hint);
  }
}
