package io.wanshuffle.spark;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * wan-shuffle's Spark plugin ({@code spark.plugins=io.wanshuffle.spark.WanShufflePlugin}, beside
 * {@code spark.shuffle.manager=io.wanshuffle.spark.WanShuffleManager}): it makes every capture
 * event of the application reach the event log, the last gated stage's included.
 *
 * <p>Why: the coordinator learns that a stage completed from Spark's listener bus, asynchronously,
 * and only then posts the stage's {@code WanShuffleStageCaptured}. An application that stops right
 * after its last action calls {@code SparkContext.stop()}, which stops the listener bus; a stage
 * completion still queued is then handled while the bus drains, and the event posted then is
 * dropped. The bus is stopped after the driver plugins' {@code shutdown()} in Spark 4.0 and later
 * ({@code SparkContext.stop}: DAG scheduler, plugins, listener bus, then the shuffle manager with
 * {@code SparkEnv}), so this plugin's driver side waits there, at most {@value #WAIT_MS} ms, until
 * the coordinator has handled every listener event posted before the application's end. In Spark
 * 3.5 the bus stops before the plugins, and the plugin cannot help: the stage's capture file
 * ({@code spark.wanshuffle.capture.dir}) still has it. No executor side.
 */
public final class WanShufflePlugin implements SparkPlugin {
  private static final Logger LOG = LoggerFactory.getLogger(WanShufflePlugin.class);

  /** Longest wait in the driver's {@code shutdown()} for the coordinator's events, ms. */
  static final long WAIT_MS = 30_000;

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      @Override
      public void shutdown() {
        SparkEnv env = SparkEnv.get();
        if (env == null || !(env.shuffleManager() instanceof WanShuffleManager m)) {
          return;
        }
        try {
          if (!m.awaitDriverEvents(WAIT_MS)) {
            LOG.warn(
                "wan-shuffle: the coordinator had not handled the application's end after {} ms;"
                    + " capture events posted later miss the event log",
                WAIT_MS);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }

  /**
   * A SparkListener added right after the coordinator's own, in the same queue of the listener bus
   * (Spark's shared queue), so that it is told of the application's end after the coordinator has
   * handled it and every event before it.
   */
  static final class EndWatch extends SparkListener {
    private final CountDownLatch ended = new CountDownLatch(1);

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd e) {
      ended.countDown();
    }

    /**
     * @param ms longest wait, ms
     * @return whether the application's end was handled
     * @throws InterruptedException if interrupted while waiting
     */
    boolean await(long ms) throws InterruptedException {
      return ended.await(ms, TimeUnit.MILLISECONDS);
    }
  }
}
