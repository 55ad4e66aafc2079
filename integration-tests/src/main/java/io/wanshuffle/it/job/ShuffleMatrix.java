package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.MapOutputTracker;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;
import scala.Tuple3;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The traffic matrix a shuffle actually moved, read on the driver from Spark's map output
 * statistics ({@code MapOutputTracker}): bytes of the map output blocks of each reduce partition,
 * by the host that wrote them and the host whose task read them. Independent of the shuffle
 * manager, so the default shuffle and wan-shuffle are measured the same way.
 */
final class ShuffleMatrix {
  private ShuffleMatrix() {}

  /**
   * @param shuffleIds shuffles read by the reduce stage
   * @param reducePartitions number of reduce partitions
   * @param reducerHost host that ran each reduce partition (index = partition)
   * @param senders row hosts (map side); blocks from other hosts are ignored
   * @param receivers column hosts (reduce side)
   * @return {@code [senders][receivers]} bytes
   */
  static long[][] of(
      List<Integer> shuffleIds,
      int reducePartitions,
      String[] reducerHost,
      List<String> senders,
      List<String> receivers) {
    long[][] m = new long[senders.size()][receivers.size()];
    MapOutputTracker tracker = SparkEnv.get().mapOutputTracker();
    for (int sid : shuffleIds) {
      for (int p = 0; p < reducePartitions; p++) {
        int col = reducerHost[p] == null ? -1 : receivers.indexOf(reducerHost[p]);
        if (col < 0) {
          continue;
        }
        scala.collection.Iterator<
                Tuple2<
                    BlockManagerId,
                    scala.collection.Seq<Tuple3<org.apache.spark.storage.BlockId, Object, Object>>>>
            it = tracker.getMapSizesByExecutorId(sid, 0, Integer.MAX_VALUE, p, p + 1);
        while (it.hasNext()) {
          Tuple2<
                  BlockManagerId,
                  scala.collection.Seq<Tuple3<org.apache.spark.storage.BlockId, Object, Object>>>
              e = it.next();
          int row = senders.indexOf(e._1().host());
          if (row < 0) {
            continue;
          }
          for (Tuple3<org.apache.spark.storage.BlockId, Object, Object> b :
              CollectionConverters.asJava(e._2())) {
            m[row][col] += (Long) b._2();
          }
        }
      }
    }
    return m;
  }

  /**
   * @return the reducer host per partition, from the reduce stage's successful task spans (last one
   *     wins)
   */
  static String[] reducerHosts(List<RunResult.TaskSpan> spans, int partitions) {
    String[] h = new String[partitions];
    List<RunResult.TaskSpan> sorted = new ArrayList<>(spans);
    sorted.sort((x, y) -> Long.compare(x.finishMs(), y.finishMs()));
    for (RunResult.TaskSpan s : sorted) {
      if (s.partition() >= 0 && s.partition() < partitions) {
        h[s.partition()] = s.host();
      }
    }
    return h;
  }

  static List<Integer> shuffleIds(Map<Integer, StageRecorder.Stage> stages) {
    List<Integer> ids = new ArrayList<>();
    stages
        .values()
        .forEach(
            s -> {
              if (s.shuffleId >= 0 && !ids.contains(s.shuffleId)) {
                ids.add(s.shuffleId);
              }
            });
    return ids;
  }
}
