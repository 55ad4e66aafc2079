package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Spark settings that change what a fetched block is, on the loopback two-cluster deployment (maps
 * on cluster A, reduces on cluster B, k = 2, every cross-cluster read gated): with shuffle I/O
 * encryption ({@code spark.io.encryption.enabled}: map output files are encrypted, so the bytes the
 * gated steps stream into memory are ciphertext that Spark's reader decrypts) and the old fetch
 * protocol ({@code spark.shuffle.useOldFetchProtocol}: blocks requested with {@code OpenBlocks}
 * instead of {@code FetchShuffleBlocks}, no batch fetch), the rows are exact and every
 * cross-cluster byte arrives in granted steps within k and δ.
 */
@ExtendWith(SharedLoopbackCluster.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WanShuffleSparkSettingsIT {
  static SparkCluster cluster;

  @BeforeAll
  static void start(SparkCluster shared) {
    cluster = shared;
  }

  @Test
  void ioEncryptionAndTheOldFetchProtocolGiveExactRowsInGrantedSteps() throws Exception {
    SparkSession spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "spark-settings")
                    .set("spark.io.encryption.enabled", "true")
                    .set("spark.shuffle.useOldFetchProtocol", "true"))
            .getOrCreate();
    try {
      CaptureEvents events = CaptureEvents.install(spark.sparkContext());
      cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
      JobLayout l =
          new JobLayout(
              Node.addresses(cluster.testbed().clusterA()),
              Node.addresses(cluster.testbed().clusterB()),
              8,
              6,
              4000);
      events.clear();
      List<String> rows =
          ShuffleJobs.reduceByKey(JavaSparkContext.fromSparkContext(spark.sparkContext()), l, 23);
      assertEquals(ShuffleJobs.reduceByKeyOracle(l, 23), rows);

      List<WanShuffleStageCaptured> stages = events.stages(spark.sparkContext());
      assertFalse(stages.isEmpty(), "the shuffle's stage was captured");
      for (WanShuffleStageCaptured e : stages) {
        StageCapture c = CaptureEvents.load(e);
        assertTrue(c.totalRegisteredBytes() > 0, "cross-cluster bytes registered");
        FlowOverlap o = GatedStages.assertGatedWithinDelta(c, 1);
        assertTrue(o.maxPairs() <= 2, "at most k flows open at once: " + o);
      }
    } finally {
      spark.stop();
    }
  }
}
