package io.wanshuffle.it.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.cluster.ExecutorInfo;
import org.junit.jupiter.api.Test;

class TpchRunsMainTest {
  private static SparkListenerExecutorAdded added(long t, String id, String host) {
    return new SparkListenerExecutorAdded(
        t, id, new ExecutorInfo(host, 1, scala.collection.immutable.Map$.MODULE$.empty()));
  }

  @Test
  void theRecorderKeepsEachExecutorsLifeAndIsTheOneSparkCreatedLast() {
    TpchRunsMain.Recorder r = new TpchRunsMain.Recorder();
    assertSame(r, TpchRunsMain.Recorder.last());
    r.onExecutorAdded(added(100, "1", "10.77.1.11"));
    r.onExecutorAdded(added(110, "2", "10.77.2.11"));
    r.onExecutorRemoved(new SparkListenerExecutorRemoved(200, "2", "idle"));
    r.onExecutorRemoved(new SparkListenerExecutorRemoved(300, "9", "unknown executor"));
    r.onExecutorAdded(added(400, "3", "10.77.2.11"));
    assertEquals(
        List.of(
            new TpchRunsMain.Executor("1", "10.77.1.11", 100, -1, null),
            new TpchRunsMain.Executor("2", "10.77.2.11", 110, 200, "idle"),
            new TpchRunsMain.Executor("3", "10.77.2.11", 400, -1, null)),
        r.executors());
    TpchRunsMain.Run run = r.run(List.of("row"));
    assertEquals(List.of("row"), run.answer());
    assertEquals(List.of(), run.reduceExecutors(), "no task ended yet");
  }
}
