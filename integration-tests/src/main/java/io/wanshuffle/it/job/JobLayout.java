package io.wanshuffle.it.job;

import java.io.Serializable;
import java.util.List;

/**
 * Where and how big a test job runs: map tasks generate their data on {@link #mapHosts()} (round
 * robin), reduce tasks run on {@link #reduceHosts()} (round robin), so the shuffle between them has
 * same-cluster and cross-cluster blocks as the host lists decide.
 *
 * @param mapHosts executor hosts of the map tasks, not empty
 * @param reduceHosts executor hosts of the reduce tasks, not empty
 * @param maps number of map tasks (at least 1)
 * @param reduces number of reduce partitions (at least 1)
 * @param recordsPerMap records each map task generates (at least 1)
 */
public record JobLayout(
    List<String> mapHosts, List<String> reduceHosts, int maps, int reduces, int recordsPerMap)
    implements Serializable {
  /** Checks the values (see the components). */
  public JobLayout {
    mapHosts = List.copyOf(mapHosts);
    reduceHosts = List.copyOf(reduceHosts);
    if (mapHosts.isEmpty()
        || reduceHosts.isEmpty()
        || maps < 1
        || reduces < 1
        || recordsPerMap < 1) {
      throw new IllegalArgumentException(
          "bad job layout "
              + mapHosts
              + " "
              + reduceHosts
              + " "
              + maps
              + " "
              + reduces
              + " "
              + recordsPerMap);
    }
  }
}
