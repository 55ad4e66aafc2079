package io.wanshuffle.it.cluster;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/** Records on which hosts the map and result tasks of the latest job ran. */
final class TaskPlacementListener extends SparkListener {
  private final Map<Integer, Integer> stageToJob = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> hostsByJobAndType = new ConcurrentHashMap<>();
  private volatile int lastJob = -1;

  static TaskPlacementListener install(SparkContext sc) {
    TaskPlacementListener l = new TaskPlacementListener();
    sc.addSparkListener(l);
    return l;
  }

  @Override
  public void onJobStart(SparkListenerJobStart e) {
    scala.jdk.javaapi.CollectionConverters.asJava(e.stageInfos())
        .forEach((StageInfo s) -> stageToJob.put(s.stageId(), e.jobId()));
    lastJob = Math.max(lastJob, e.jobId());
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    Integer job = stageToJob.get(e.stageId());
    if (job != null) {
      hostsByJobAndType
          .computeIfAbsent(job + "/" + e.taskType(), k -> new TreeSet<>())
          .add(e.taskInfo().host());
    }
  }

  /** Waits for the listener bus, then returns the hosts of the latest job's tasks of that type. */
  Set<String> lastJobHosts(SparkContext sc, String taskType) throws Exception {
    sc.listenerBus().waitUntilEmpty();
    return hostsByJobAndType.getOrDefault(lastJob + "/" + taskType, Set.of());
  }
}
