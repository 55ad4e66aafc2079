package io.wanshuffle.spark.coordinator.network;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Small integer ids of the hosts the coordinator has seen (0, 1, 2, ... in order of first sight),
 * so that reading the residual demand each planning round maps hosts to matrix rows and columns
 * with array reads instead of hashing host names (the residual snapshot of the matrix package). A
 * demand resolves its hosts' ids once ({@code Demand.hostIds}). Ids never change.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class HostIndex {
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> hosts = new ArrayList<>();

  /**
   * @param host a host name
   * @return its id, given now if the host is new
   */
  public int id(String host) {
    Integer id = ids.get(host);
    if (id == null) {
      id = hosts.size();
      ids.put(host, id);
      hosts.add(host);
    }
    return id;
  }

  /**
   * @return the hosts by id (a copy)
   */
  public String[] hosts() {
    return hosts.toArray(new String[0]);
  }

  /**
   * @return how many hosts have an id: every id is below this
   */
  public int size() {
    return hosts.size();
  }
}
