package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.storage.RDDInfo;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

class CoordinatorSparkListenerTest {
  private static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  @Test
  void aSubmittedStageGivesEachTasksPreferredHosts() {
    Seq<Seq<TaskLocation>> prefs =
        seq(
            List.of(
                seq(List.of(TaskLocation.apply("10.77.2.11"))),
                seq(
                    List.of(
                        TaskLocation.apply("10.77.2.12", "exec-3"),
                        TaskLocation.apply("10.77.2.13"))),
                seq(List.<TaskLocation>of())));
    StageInfo info =
        new StageInfo(
            5,
            0,
            "reduce",
            3,
            seq(List.<RDDInfo>of()),
            seq(List.of()),
            "",
            TaskMetrics.empty(),
            prefs,
            Option.empty(),
            0,
            false,
            0);
    assertEquals(
        List.of(List.of("10.77.2.11"), List.of("10.77.2.12", "10.77.2.13"), List.of()),
        CoordinatorSparkListener.preferredHosts(info));
  }
}
