package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.compat.ScalaCollections;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskLocation;
import scala.collection.Seq;

/**
 * Driver-side SparkListener feeding scheduler events to the coordinator: task starts and ends let
 * the gather window end as soon as a wave of reduce tasks has registered, a task that ends without
 * success releases what is left of its demand (covers tasks whose executor died before they could
 * say so), a removed executor releases the demand of its tasks and re-plans, a completed stage
 * publishes its matrix, a submitted stage tells which hosts its tasks prefer (the waves still to
 * launch).
 */
public final class CoordinatorSparkListener extends SparkListener {
  private final StepCoordinator coordinator;

  /**
   * @param coordinator the coordinator to notify
   */
  public CoordinatorSparkListener(StepCoordinator coordinator) {
    this.coordinator = coordinator;
  }

  /**
   * Releases the demand of a task that did not succeed (failed, killed, lost, fetch failure). A
   * successful task finished or released its demand itself; skipping it avoids racing its last step
   * report, which travels on another path.
   */
  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    coordinator.taskEnded(e.taskInfo().taskId());
    if (e.reason() != Success$.MODULE$) {
      coordinator.releaseTask(e.taskInfo().taskId(), "task-end");
    }
  }

  /** Tells the coordinator which tasks a gather window may wait for, and where they run. */
  @Override
  public void onTaskStart(SparkListenerTaskStart e) {
    coordinator.taskLaunched(
        e.stageId(), e.stageAttemptId(), e.taskInfo().taskId(), e.taskInfo().host());
  }

  /** Tells the coordinator which hosts the stage's tasks prefer (its waves still to launch). */
  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted e) {
    StageInfo info = e.stageInfo();
    coordinator.stageSubmitted(info.stageId(), info.attemptNumber(), preferredHosts(info));
  }

  /**
   * @param info a submitted stage attempt
   * @return per task of the attempt, the hosts of its locality preferences (empty: none)
   */
  static List<List<String>> preferredHosts(StageInfo info) {
    List<List<String>> preferred = new ArrayList<>();
    for (Seq<TaskLocation> locations : ScalaCollections.asJava(info.taskLocalityPreferences())) {
      List<String> hosts = new ArrayList<>();
      for (TaskLocation l : ScalaCollections.asJava(locations)) {
        hosts.add(l.host());
      }
      preferred.add(hosts);
    }
    return preferred;
  }

  @Override
  public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
    coordinator.executorLost(e.executorId());
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted e) {
    coordinator.stageCompleted(e.stageInfo().stageId(), e.stageInfo().attemptNumber());
  }

  @Override
  public void onApplicationEnd(SparkListenerApplicationEnd e) {
    coordinator.stop();
  }
}
